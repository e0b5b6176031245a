// The official campaigns' per-person delivery data from the Cloud API's status webhooks (sent, delivered,
// read, failed; pricing), the campaign's recount (official-recount.ts: at most one per campaign a second), and
// the campaigns stopped when Meta pauses, disables or rejects their template (message_template_status_update).
import { z } from 'zod';
import { officialSendMessages } from '../../../shared/messages-campaigns';
import { systemActor } from '../../access';
import { graphErrorReason } from '../../channels/cloud-api/graph';
import type { Services } from '../../services';
import { chipsRepo } from '../chips/chips.repo';
import { campaignJobRows } from './campaigns.repo';
import { officialCampaignTouched } from './official-recount';
import { readCallbackData, officialSendRows as rows, type SendStatus } from './official-send.repo';

/** The part of a status webhook an official campaign reads (Meta: 'Status messages webhook reference'). */
export const officialStatus = z.object({
  id: z.string().min(1),
  status: z.string(),
  timestamp: z.string().optional(),
  biz_opaque_callback_data: z.string().optional(),
  errors: z.array(z.object({ code: z.number().optional() })).optional(),
  pricing: z.object({ category: z.string().optional() }).optional(),
  conversation: z.object({ origin: z.object({ type: z.string().optional() }).optional() }).optional(),
});

/**
 * The statuses of one notification, those of official campaigns' sends applied to their people at once.
 * Answers the wamids whose receipt the conversation's message may not carry (an official campaign's send
 * with no conversation: rule on_response before a reply); the channel skips their receipts, whose lookup
 * would only wait.
 */
export async function applyOfficialStatuses(
  services: Services,
  raws: readonly unknown[],
): Promise<Set<string>> {
  const merged = new Map<string, SendStatus>();
  for (const raw of raws) {
    const parsed = officialStatus.safeParse(raw);
    if (!parsed.success) continue;
    const s = parsed.data;
    if (s.status !== 'sent' && s.status !== 'delivered' && s.status !== 'read' && s.status !== 'failed')
      continue;
    const seconds = Number(s.timestamp);
    const at = Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : new Date();
    const code = s.errors?.[0]?.code ?? null;
    const v = merged.get(s.id) ?? {
      wamid: s.id,
      callback: null,
      sentAt: null,
      deliveredAt: null,
      readAt: null,
      failed: false,
      failure: null,
      failureCode: null,
      pricingCategory: null,
    };
    v.callback ??= readCallbackData(s.biz_opaque_callback_data);
    if (s.status === 'sent') v.sentAt ??= at;
    if (s.status === 'delivered') v.deliveredAt ??= at;
    if (s.status === 'read') v.readAt ??= at;
    if (s.status === 'failed') {
      v.failed = true;
      v.failureCode = code;
      v.failure = graphErrorReason(code ?? undefined);
    }
    v.pricingCategory = s.pricing?.category ?? v.pricingCategory;
    merged.set(s.id, v);
  }
  const skip = new Set<string>();
  if (!merged.size) return skip;
  const changed = await rows.applyStatuses(services.db, [...merged.values()]);
  const campaignsOf = new Map<string, Awaited<ReturnType<typeof rows.campaignInfo>>>();
  for (const row of changed) {
    if (!campaignsOf.has(row.campaign_id))
      campaignsOf.set(row.campaign_id, await rows.campaignInfo(services.db, row.campaign_id));
  }
  for (const [id, info] of campaignsOf) if (info) await officialCampaignTouched(services, info.accountId, id);
  for (const row of changed) {
    // Rule 'all' stores the conversation's message right after the send: the receipt finds it (or waits a
    // moment for it). Rule 'on_response' has none until the person replies.
    if (row.conversation_id || campaignsOf.get(row.campaign_id)?.rule === 'all') continue;
    skip.add(row.platform_message_id);
  }
  return skip;
}

const STOPPING: Record<string, string> = {
  PAUSED: officialSendMessages.templatePaused,
  DISABLED: officialSendMessages.templateDisabled,
  REJECTED: officialSendMessages.templateRejected,
  PENDING_DELETION: officialSendMessages.templateMissing,
  DELETED: officialSendMessages.templateMissing,
};

/**
 * A template paused, disabled, rejected or deleted by Meta (webhook field message_template_status_update,
 * entry.id = the WABA): the official campaigns sending it on that WABA's numbers stop with the reason.
 */
export async function stopCampaignsOnTemplateEvent(
  services: Services,
  waba: string | undefined,
  v: { event?: string; message_template_name?: string; message_template_language?: string },
) {
  const reason = STOPPING[String(v.event ?? '').toUpperCase()];
  if (!waba || !v.message_template_name || !reason) return;
  await stopCampaignsOfTemplate(services, waba, v.message_template_name, v.message_template_language, reason);
}

export async function stopCampaignsOfTemplate(
  services: Services,
  waba: string,
  name: string,
  language: string | undefined,
  reason: string,
) {
  const { db } = services;
  const running = await rows.runningWithTemplate(db);
  for (const c of running) {
    if (c.template?.name !== name || (language && c.template.language !== language)) continue;
    const chip = await chipsRepo.findWithFiled(db, systemActor(c.accountId, 'official-campaigns'), c.chipId);
    if (chip?.waba !== waba) continue;
    const ended = await campaignJobRows.end(db, c.id, 'error', reason);
    if (ended) {
      services.log.warn(
        { campaignId: c.id, name, reason },
        'official campaign stopped: its template changed',
      );
      services.realtime.toAccount(c.accountId, { type: 'official_campaign_updated', message: { _id: c.id } });
    }
  }
}
