// Official campaigns' calls (spec 3 §2.11, §3 Official campaign extras, §5 Official campaign, §7 create or update
// official campaign): an approved template to each person of an audience (or of contacts with tags) by an
// official number, sent by the job of src/server/jobs/official-campaigns.ts (queued here, with the row).
// The dialog's rules are rules/campaign.ts officialCampaignProblems; what only the server knows is checked
// here after them: the chip is the account's, official and connected; the template is APPROVED now (the chip's
// adapter lists it) and is stored with the components Meta lists, not the client's; each parameter the
// template needs has a column or a fallback and an image header a jpeg/png of our media store; the audience,
// tags, flows, chatbot and department are the account's.
import type { z } from 'zod';
import type { CallName, Calls } from '../../../shared/contract';
import type {
  Campaign,
  DeliveryData,
  OfficialTemplateRef,
  TemplateParameter,
  TemplatePayload,
} from '../../../shared/contract/campaigns';
import { officialCampaignFields } from '../../../shared/contract/campaigns';
import { messages as texts } from '../../../shared/messages';
import { campaignMessages, officialCampaignMessages as official } from '../../../shared/messages-campaigns';
import {
  campaignSchedule,
  matchingParameter,
  type OfficialCampaignRuleInput,
  officialCampaignProblems,
} from '../../../shared/rules/campaign';
import { fieldError } from '../../../shared/rules/field-error';
import { templateParameters } from '../../../shared/rules/template';
import type { Actor } from '../../access';
import { ChannelError, type ChipRow, type ProviderTemplate } from '../../channels/adapter';
import type { Db } from '../../db';
import { AppError, fieldFailure } from '../../http/errors';
import { queueOfficialCampaignRun } from '../../jobs/official-campaigns';
import type { Services } from '../../services';
import { chatbotsRepo } from '../chatbots/chatbots.repo';
import { visibleChip } from '../conversations/conversations.service';
import { departmentsRepo } from '../departments/departments.repo';
import { flowsRepo } from '../flows/flows.repo';
import { type CampaignFieldsRow, campaignsRepo as repo } from './campaigns.repo';
import { audienceColumns, campaignReach, toCampaign } from './campaigns.service';
import { deliveryCounts, emptyDelivery } from './official-report';
import { templateButtons } from './official-template';

type Payload<N extends CallName> = z.output<Calls[N]['payload']>;
type Fields = z.output<typeof officialCampaignFields>;

const ID = /^[0-9A-Z]{28}$/;
const IMAGE_MIMES = ['image/jpeg', 'image/png'];

async function listedTemplate(services: Services, chip: ChipRow, wanted: { name: string; language: string }) {
  const adapter = services.channels.adapter(chip);
  let listed: ProviderTemplate[] = [];
  try {
    listed = adapter.listTemplates ? await adapter.listTemplates(chip) : [];
  } catch (err) {
    if (err instanceof ChannelError)
      throw fieldFailure(fieldError('template', official.templatesUnavailable));
    throw err;
  }
  const same = listed.filter((t) => t.name === wanted.name);
  return same.find((t) => t.language === wanted.language) ?? (wanted.language ? undefined : same[0]);
}

/**
 * Judges the fields and answers the row's columns, with the estimated reach. `single`: a send to one person
 * (the integrations' send-template), who is not an audience: the audience fields are not asked for.
 */
export async function prepare(
  services: Services,
  actor: Actor,
  f: Fields,
  opts: { chipChanged: boolean; single?: boolean },
): Promise<CampaignFieldsRow> {
  const rule: OfficialCampaignRuleInput = f;
  const [problem] = officialCampaignProblems(rule).filter(
    (p) => !opts.single || !p.field.startsWith('audience'),
  );
  if (problem) throw fieldFailure(problem);
  const { db } = services;

  // Another account's chip (or a bad id) is not found; ours must be official and connected.
  const chip = ID.test(f.chip) ? await visibleChip({ services, actor }, f.chip).catch(() => null) : null;
  if (!chip) throw new AppError(texts.notFound);
  if (!chip.official || (opts.chipChanged && chip.status !== 'open'))
    throw fieldFailure(fieldError('chip', official.chipNotUsable));

  const reach = opts.single ? audienceColumns(f, null, 1) : await campaignReach(services, actor, f);

  // The template as Meta lists it now: APPROVED, and its components (not the client's) are what is sent.
  const wanted = f.template as OfficialTemplateRef;
  const found = await listedTemplate(services, chip, wanted);
  const listed = found?.status.toUpperCase() === 'APPROVED' ? found : null;
  if (!listed) throw fieldFailure(fieldError('template', official.templateNotApproved));
  const components = (listed.components ?? []) as Record<string, unknown>[];
  const template: OfficialTemplateRef = {
    name: listed.name,
    language: listed.language,
    category: String((listed as { category?: unknown }).category ?? wanted.category ?? ''),
    components,
  };
  // The parameters the listed template needs (a template changed since the dialog read it may need others).
  const [parameterProblem] = officialCampaignProblems({ ...rule, template }).filter((p) =>
    p.field.startsWith('template_parameters.'),
  );
  if (parameterProblem) throw fieldFailure(parameterProblem);
  const parameters: TemplateParameter[] = [];
  for (const [i, needed] of templateParameters(components).entries()) {
    const given = matchingParameter(f.template_parameters, needed);
    if (needed.type === 'image') {
      const link = given?.link?.trim() ?? '';
      const kind = await services.media.classifyFile(link).catch(() => null);
      if (!kind || !IMAGE_MIMES.includes(kind.mime))
        throw fieldFailure(fieldError(`template_parameters.${i}`, official.imageInvalid));
      parameters.push({ ...needed, link });
    } else
      parameters.push({ ...needed, var: given?.var?.trim() ?? '', fallback: given?.fallback?.trim() ?? '' });
  }

  // One entry per quick-reply button, matched by its text; each flow must be the account's.
  const payloads: TemplatePayload[] = [];
  const quickReplies = templateButtons(components).filter(
    (b) => String(b.type ?? '').toUpperCase() === 'QUICK_REPLY',
  );
  for (const [i, b] of quickReplies.entries()) {
    const text = String(b.text ?? '');
    const given = f.template_payloads.find((p) => p.button === text) ?? f.template_payloads[i];
    const flowId = given?.payload ?? null;
    if (flowId && !(await flowsRepo.find(db, actor, flowId)))
      throw fieldFailure(fieldError(`template_payloads.${i}`, official.buttonFlowNotFound));
    payloads.push({ type: 'button', button: text, tip: given?.tip ?? '', payload: flowId });
  }

  // Who serves the conversations: checked when given (rule 'all' requires them; 'on_response' may set them).
  const redirect = f.redirect ?? null;
  const chatbotId = redirect === 'ai_chatbot' || !redirect ? (f.chatbot ?? null) : null;
  const flowId = redirect === 'flow_chatbot' || !redirect ? (f.flow ?? null) : null;
  if (chatbotId && !(await chatbotsRepo.find(db, actor, chatbotId)))
    throw fieldFailure(fieldError('chatbot', official.chatbotNotFound));
  if (flowId && !(await flowsRepo.find(db, actor, flowId)))
    throw fieldFailure(fieldError('flow', official.flowNotFound));
  if (f.department && !(await departmentsRepo.find(db, actor, f.department)))
    throw fieldFailure(fieldError('department', official.departmentNotFound));

  const when = campaignSchedule(f.scheduledTo);
  return {
    name: f.name.trim(),
    chipId: chip.id,
    ...reach,
    // The regular campaigns' columns: unused here.
    messageType: 'text',
    versions: [],
    intervalSeconds: 0,
    scheduledTo: when instanceof Date ? when : null,
    official: true,
    template,
    templateParameters: parameters,
    templatePayloads: payloads,
    conversationCreationRule: f.conversation_creation_rule ?? null,
    redirect,
    chatbotId,
    flowId,
    departmentId: f.department ?? null,
  };
}

/** The stored campaign as the dialog's fields (an edit changes some and keeps the rest). */
const asFields = (c: Campaign): Fields => ({
  name: c.name,
  chip: c.chip,
  audience_type: c.audience_type,
  audience: c.audience,
  audience_tags: c.audience_tags,
  audience_tags_skip: c.audience_tags_skip,
  template: c.template,
  template_parameters: c.template_parameters,
  template_payloads: c.template_payloads,
  conversation_creation_rule: c.conversation_creation_rule,
  redirect: c.redirect,
  chatbot: c.chatbot,
  flow: c.flow,
  department: c.department,
  scheduledTo: c.scheduledTo,
});

/**
 * create or update official campaign: an unknown `_id` creates it once (a repeat, even at once, answers the
 * first; another account's id is not found) with its first run in the same transaction; a known one is edited
 * while scheduled (a field left out keeps its value); `cancel_now` cancels it; `filed` deletes it.
 */
export async function createOrUpdateOfficialCampaign(
  services: Services,
  actor: Actor,
  p: Payload<'create-or-update-official-campaign'>,
) {
  const { db } = services;
  const { _id, cancel_now, filed, ...changes } = p;
  const given = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  const item = await repo.find(db, actor, _id);
  if (item && !item.official) throw new AppError(campaignMessages.campaignNotFound);

  if (!item) {
    if (filed || cancel_now) throw new AppError(campaignMessages.campaignNotFound);
    if (actor.kind !== 'user') throw new AppError(texts.insufficientPermissions);
    const fields = await prepare(services, actor, officialCampaignFields.parse(given), {
      chipChanged: true,
    });
    const stored = await db.transaction(async (tx) => {
      const made = await repo.insertOnce(tx as Db, actor, _id, {
        ...fields,
        nextSendAt: fields.scheduledTo ?? new Date(),
      });
      if (made?.created) await queueOfficialCampaignRun(services, made.row, { tx: tx as Db });
      return made;
    });
    if (!stored) throw new AppError(texts.notFound);
    if (!stored.row.official) throw new AppError(campaignMessages.campaignNotFound);
    return toOfficialCampaign(stored.row, null);
  }

  if (filed || cancel_now) {
    const row = await repo.cancel(db, actor, item.id, { filed: filed === true });
    if (!row) throw new AppError(campaignMessages.campaignNotCancelable);
    // A started campaign stops at its job's next run: brought forward to now.
    if (row.status === 'started')
      await queueOfficialCampaignRun(services, row, { at: new Date(), reason: 'cancel' });
    return toOfficialCampaign(
      row,
      await deliveryCounts(db, actor, [row.id]).then((m) => m.get(row.id) ?? null),
    );
  }
  if (item.status !== 'scheduled') throw new AppError(campaignMessages.campaignNotEditable);
  const form = officialCampaignFields.parse({ ...asFields(toCampaign(item)), ...given });
  const fields = await prepare(services, actor, form, { chipChanged: form.chip !== item.chipId });
  const row = await db.transaction(async (tx) => {
    const changed = await repo.updateScheduled(tx as Db, actor, item.id, {
      ...fields,
      nextSendAt: fields.scheduledTo ?? new Date(),
    });
    // A new time gets its own run; the old one finds the campaign not due and only queues this one again.
    if (changed) await queueOfficialCampaignRun(services, changed, { tx: tx as Db });
    return changed;
  });
  if (!row) throw new AppError(campaignMessages.campaignNotEditable);
  return toOfficialCampaign(row, null);
}

type Row = Parameters<typeof toCampaign>[0];

/** An official campaign as listed: delivery_data counted once it has people (null while scheduled). */
export const toOfficialCampaign = (r: Row, delivery: DeliveryData | null): Campaign => ({
  ...toCampaign(r),
  delivery_data: r.status === 'scheduled' ? null : (delivery ?? emptyDelivery),
});

/** get-campaigns-by-user {official: true}: the account's official campaigns with their delivery data. */
export async function listOfficialCampaigns(services: Services, actor: Actor) {
  const rows = await repo.list(services.db, actor, true);
  const started = rows.filter((r) => r.status !== 'scheduled').map((r) => r.id);
  const counts = await deliveryCounts(services.db, actor, started);
  return rows.map((r) => toOfficialCampaign(r, counts.get(r.id) ?? null));
}
