// Campaigns on unofficial chips (spec 3 §2.10, §3 Campaign, §4, §5). The calls keep the list; the durable job
// in src/server/jobs/campaigns.ts sends to each person (its first run is queued here, with the row). The
// dialog's rules are rules/campaign.ts; what only the server knows is checked here: the chip is the
// account's, unofficial and connected; the audience, the tags and the flow are the account's.
import type { z } from 'zod';
import type { CallName, Calls } from '../../../shared/contract';
import type { Campaign } from '../../../shared/contract/campaigns';
import { newId } from '../../../shared/ids';
import { messages as texts } from '../../../shared/messages';
import {
  campaignMessages,
  campaignReportLabels as labels,
  officialCampaignMessages,
} from '../../../shared/messages-campaigns';
import { type CampaignRuleInput, campaignProblems, campaignSchedule } from '../../../shared/rules/campaign';
import { fieldError } from '../../../shared/rules/field-error';
import type { Actor, UserActor } from '../../access';
import { AppError, fieldFailure } from '../../http/errors';
import { queueCampaignRun } from '../../jobs/campaigns';
import type { Services } from '../../services';
import { sheetDateTime, sheetDay, writeSheet } from '../contacts/contacts-sheet';
import { visibleChip } from '../conversations/conversations.service';
import { flowsRepo } from '../flows/flows.repo';
import { type CampaignFieldsRow, type CampaignRow as Row, campaignsRepo as repo } from './campaigns.repo';
import { officialPeopleRows } from './official-people.repo';
import { campaignProgress, campaignReport } from './progress';

type Payload<N extends CallName> = z.output<Calls[N]['payload']>;

export const toCampaign = (r: Row): Campaign => ({
  _id: r.id,
  name: r.name,
  chip: r.chipId,
  audience_type: r.audienceType,
  audience: r.audienceId,
  audience_tags: r.audienceTags,
  audience_tags_skip: r.audienceTagsSkip,
  message_type: r.messageType,
  message: r.versions,
  flow: r.flowId,
  interval: r.intervalSeconds,
  scheduledTo: r.scheduledTo?.toISOString() ?? null,
  status: r.status,
  sent_messages: r.sentMessages,
  failed_messages: r.failedMessages,
  people_count: r.peopleCount,
  created: r.createdAt.toISOString(),
  finished: r.finishedAt?.toISOString() ?? null,
  cancel_now: r.cancelNow,
  paused: r.paused,
  failure: r.failure,
  official: r.official,
  template: r.template,
  template_parameters: r.templateParameters,
  template_payloads: r.templatePayloads,
  conversation_creation_rule: r.conversationCreationRule,
  redirect: r.redirect,
  chatbot: r.chatbotId,
  department: r.departmentId,
  started: r.official ? (r.startedAt?.toISOString() ?? null) : null,
  // Counted by the report for official campaigns (issue 19); null on the others.
  delivery_data: null,
  filed: r.filed,
});

type Input = CampaignRuleInput & { audience_tags_skip: readonly string[] };

/**
 * Who a campaign goes to, checked against the account: its audience (with the people count) or its tags (the
 * contacts with them, minus the skipped ones, counted now: the estimated reach).
 */
type AudienceFields = Pick<Input, 'audience_type' | 'audience' | 'audience_tags' | 'audience_tags_skip'>;

/** The campaign's audience columns as the fields give them (tags once each), with the audience and its reach. */
export const audienceColumns = (f: AudienceFields, audienceId: string | null, peopleCount: number) => ({
  audienceType: f.audience_type,
  audienceId,
  audienceTags: f.audience_type === 'tags' ? [...new Set(f.audience_tags)] : [],
  audienceTagsSkip: f.audience_type === 'tags' ? [...new Set(f.audience_tags_skip)] : [],
  peopleCount,
});

/** The audience the fields name (the account's own, or its tags) and its estimated reach, as row columns. */
export async function campaignReach(services: Services, actor: Actor, f: AudienceFields) {
  const { db } = services;
  if (f.audience_type === 'audience') {
    const audience = await repo.audience(db, actor, f.audience ?? '');
    if (!audience) throw fieldFailure(fieldError('audience', campaignMessages.audienceNotFound));
    return audienceColumns(f, audience.id, audience.peopleCount);
  }
  if (!(await repo.ownTags(db, actor, [...f.audience_tags, ...f.audience_tags_skip])))
    throw fieldFailure(fieldError('audience_tags', texts.notFound));
  return audienceColumns(f, null, await repo.taggedReach(db, actor, f.audience_tags, f.audience_tags_skip));
}

/** Judges the fields and answers the row's columns, with the estimated reach. */
async function prepare(
  services: Services,
  actor: Actor,
  f: Input,
  opts: { chipChanged: boolean },
): Promise<CampaignFieldsRow> {
  const [problem] = campaignProblems(f);
  if (problem) throw fieldFailure(problem);
  const { db } = services;
  // Another account's chip (or a bad id) is not found; one of ours must be unofficial and connected.
  const chip = /^[0-9A-Z]{28}$/.test(f.chip)
    ? await visibleChip({ services, actor }, f.chip).catch(() => null)
    : null;
  if (!chip) throw new AppError(texts.notFound);
  if (chip.official || (opts.chipChanged && chip.status !== 'open'))
    throw fieldFailure(fieldError('chip', campaignMessages.campaignChipNotUsable));
  const reach = await campaignReach(services, actor, f);
  let flowId: string | null = null;
  if (f.message_type === 'flow') {
    const flow = await flowsRepo.find(db, actor, f.flow ?? '');
    if (!flow) throw fieldFailure(fieldError('flow', texts.flowNotFound));
    flowId = flow.id;
  }
  const when = campaignSchedule(f.scheduledTo);
  return {
    name: f.name.trim(),
    chipId: chip.id,
    ...reach,
    messageType: f.message_type,
    versions: f.message_type === 'text' ? [...f.message] : [],
    flowId,
    intervalSeconds: f.interval,
    scheduledTo: when instanceof Date ? when : null,
  };
}

export async function listCampaigns(services: Services, actor: Actor, official: boolean) {
  return (await repo.list(services.db, actor, official)).map(toCampaign);
}

/**
 * Creates the campaign once per `_id`: a repeat, even at once, answers the first one (another account's id is
 * not found). The row and its first run are one transaction: due at scheduledTo, or now for 'Imediato' (a
 * schedule in the past starts at once).
 */
export async function createCampaign(services: Services, actor: Actor, p: Payload<'create-campaign'>) {
  if (actor.kind !== 'user') throw new AppError(texts.insufficientPermissions);
  const fields = await prepare(services, actor, { ...p, message: p.message }, { chipChanged: true });
  const id = p._id ?? newId();
  const stored = await services.db.transaction(async (tx) => {
    const made = await repo.insertOnce(tx, actor, id, {
      ...fields,
      nextSendAt: fields.scheduledTo ?? new Date(),
    });
    if (made?.created) await queueCampaignRun(services, made.row, { tx });
    return made;
  });
  if (!stored) throw new AppError(texts.notFound);
  return toCampaign(stored.row);
}

/**
 * Edits a scheduled campaign (the dialog's whole form); `cancel_now` cancels (a scheduled one at once, a started one before its next
 * send); `filed` deletes it (stopping it first).
 */
export async function updateCampaign(services: Services, actor: Actor, p: Payload<'update-campaign'>) {
  const { db } = services;
  const item = await repo.find(db, actor, p._id);
  // An official campaign has its own call (create-or-update-official-campaign) and job.
  if (!item || item.official) throw new AppError(campaignMessages.campaignNotFound);
  if (p.filed || p.cancel_now) {
    const row = await repo.cancel(db, actor, item.id, { filed: p.filed === true });
    if (!row) throw new AppError(campaignMessages.campaignNotCancelable);
    // A started campaign stops at its job's next run: brought forward to now, not its next send.
    if (row.status === 'started') await queueCampaignRun(services, row, { at: new Date(), reason: 'cancel' });
    return toCampaign(row);
  }
  if (item.status !== 'scheduled') throw new AppError(campaignMessages.campaignNotEditable);
  // A field left out keeps the stored value.
  const { _id, cancel_now, filed, ...changes } = p;
  const stored = toCampaign(item);
  const form = {
    name: stored.name,
    chip: stored.chip,
    audience_type: stored.audience_type,
    audience: stored.audience,
    audience_tags: stored.audience_tags,
    audience_tags_skip: stored.audience_tags_skip,
    message_type: stored.message_type,
    message: stored.message,
    flow: stored.flow,
    interval: stored.interval,
    scheduledTo: stored.scheduledTo,
    ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)),
  };
  const fields = await prepare(services, actor, form, { chipChanged: form.chip !== item.chipId });
  const row = await db.transaction(async (tx) => {
    const changed = await repo.updateScheduled(tx, actor, item.id, {
      ...fields,
      nextSendAt: fields.scheduledTo ?? new Date(),
    });
    // A new time gets its own run; the old one finds the campaign not due and only queues this one again.
    if (changed) await queueCampaignRun(services, changed, { tx });
    return changed;
  });
  if (!row) throw new AppError(campaignMessages.campaignNotEditable);
  return toCampaign(row);
}

async function ownCampaign(services: Services, actor: Actor, id: string) {
  const row = await repo.find(services.db, actor, id);
  if (!row) throw new AppError(campaignMessages.campaignNotFound);
  return row;
}

export async function getCampaignRealtime(services: Services, actor: Actor, id: string) {
  return campaignProgress(services, actor, await ownCampaign(services, actor, id));
}

export async function getCampaignReport(services: Services, actor: Actor, id: string) {
  return campaignReport(services, actor, await ownCampaign(services, actor, id));
}

/** Campanha_<name>_<date>.xlsx: one row per person, in the sending order. */
export async function exportCampaignReport(services: Services, actor: UserActor, id: string) {
  const c = await ownCampaign(services, actor, id);
  const lines = c.official ? await officialLines(services, actor, c) : await regularLines(services, actor, c);
  const columns = c.official ? officialCampaignMessages.reportColumns : labels.columns;
  const buffer = await writeSheet(labels.sheet, [...columns], lines);
  const safeName = c.name.replace(/[^\p{L}\p{N} _-]/gu, '').trim() || 'campanha';
  return {
    file_name: labels.fileName(safeName, sheetDay(actor.user.account.timeZone)),
    content_base64: buffer.toString('base64'),
  };
}

/** A person's status in the sheet: of a canceled campaign, nobody is still waiting, they were not sent. */
const statusLabel = (c: Row, status: keyof typeof labels.status) =>
  c.status === 'canceled' && (status === 'waiting' || status === 'sending')
    ? labels.status.skipped
    : labels.status[status];

/** An official campaign's people: the times the status webhooks and the replies recorded, tap and pricing. */
async function officialLines(services: Services, actor: UserActor, c: Row) {
  const rows = await officialPeopleRows.reportRows(services.db, actor, c.id);
  const when = sheetDateTime(actor.user.account.timeZone, 'medium');
  return rows.map((r) => [
    r.phone,
    r.data.nome ?? '',
    statusLabel(c, r.status),
    when(r.sentAt),
    when(r.deliveredAt),
    when(r.readAt),
    when(r.repliedAt),
    r.clickedButton ?? '',
    r.pricingCategory ?? '',
    r.failure ?? '',
  ]);
}

async function regularLines(services: Services, actor: UserActor, c: Row) {
  const rows = await repo.reportRows(services.db, actor, c.id);
  const when = sheetDateTime(actor.user.account.timeZone, 'medium');
  return rows.map((r) => [
    r.phone,
    r.data.nome ?? '',
    c.messageType === 'flow' ? labels.flowVersion : r.version + 1,
    statusLabel(c, r.status),
    when(r.sentAt),
    r.messageStatus !== null && r.messageStatus >= 3 ? labels.yes : labels.no,
    r.messageStatus !== null && r.messageStatus >= 4 ? labels.yes : labels.no,
    r.replied ? labels.yes : labels.no,
    r.failure ?? r.messageFailure ?? '',
  ]);
}
