// A campaign's live numbers (the follow dialog, spec 3 §4) and its report (our addition), read from its
// recipients and, for delivery, from the messages they were sent.
import { and, eq, sql } from 'drizzle-orm';
import { MESSAGE_STATUS } from '../../../shared/constants';
import type { CampaignProgress, CampaignReport } from '../../../shared/contract/campaigns';
import type { Db } from '../../db';
import { campaignRecipients, messages } from '../../db/schema';
import type { Services } from '../../services';
import type { CampaignRow } from './campaigns.repo';
import { officialReportExtras } from './official-report';

/** The wait between two sends, in ms: the chosen interval, shortened only by the test/bench setting. */
export const intervalMs = (services: Pick<Services, 'config'>, c: Pick<CampaignRow, 'intervalSeconds'>) =>
  Math.max(1, Math.round(c.intervalSeconds * 1000 * services.config.CAMPAIGN_INTERVAL_SCALE));

/** The jitter added to each wait: random in [0, interval/4), so a quarter of it at most, an eighth on average. */
export const jitterMs = (interval: number) => Math.floor(Math.random() * (interval / 4));

const count = (where: ReturnType<typeof sql>) => sql<number>`(count(*) filter (where ${where}))::int`;

async function recipientCounts(db: Db, campaignId: string) {
  const [row] = await db
    .select({
      total: sql<number>`count(*)::int`,
      waiting: count(sql`${campaignRecipients.status} in ('waiting', 'sending')`),
      sent: count(sql`${campaignRecipients.status} = 'sent'`),
      failed: count(sql`${campaignRecipients.status} = 'error'`),
      skipped: count(sql`${campaignRecipients.status} = 'skipped'`),
    })
    .from(campaignRecipients)
    .where(eq(campaignRecipients.campaignId, campaignId));
  return row ?? { total: 0, waiting: 0, sent: 0, failed: 0, skipped: 0 };
}

export async function campaignProgress(services: Services, c: CampaignRow): Promise<CampaignProgress> {
  const materialized = c.status !== 'scheduled';
  const counts = materialized ? await recipientCounts(services.db, c.id) : null;
  const remaining = counts ? counts.waiting : c.peopleCount;
  const live = (c.status === 'scheduled' || c.status === 'started') && remaining > 0;
  const next = live ? c.nextSendAt : null;
  const interval = intervalMs(services, c);
  // The last person goes (remaining - 1) waits after the next one; a wait is the interval plus, on average,
  // an eighth of it (the jitter).
  const finish = next ? new Date(next.getTime() + (remaining - 1) * interval * 1.125) : null;
  return {
    _id: c.id,
    status: c.status,
    paused: c.paused,
    people_count: c.peopleCount,
    sent_messages: c.sentMessages,
    failed_messages: c.failedMessages,
    next_messages: remaining,
    next_send_at: next?.toISOString() ?? null,
    estimated_finish_time: finish?.toISOString() ?? null,
  };
}

/**
 * A customer's message in the person's conversation after ours (a flow campaign's: after the flow started):
 * the person replied.
 */
const replied = sql`exists (select 1 from ${messages} m2 where m2.conversation_id = ${campaignRecipients.conversationId} and m2.origin = 'customer' and m2.created_at > coalesce(${messages.createdAt}, ${campaignRecipients.sentAt}))`;

/** One row per person, with what happened to the message sent to them. */
export function reportRows(db: Db, campaignId: string) {
  return db
    .select({
      phone: campaignRecipients.phone,
      data: campaignRecipients.data,
      version: campaignRecipients.version,
      status: campaignRecipients.status,
      sentAt: campaignRecipients.sentAt,
      failure: campaignRecipients.failure,
      messageStatus: messages.status,
      messageFailure: messages.failure,
      replied: sql<boolean>`${replied}`,
    })
    .from(campaignRecipients)
    .leftJoin(messages, eq(messages.id, campaignRecipients.messageId))
    .where(eq(campaignRecipients.campaignId, campaignId))
    .orderBy(campaignRecipients.seq);
}

export async function campaignReport(services: Services, c: CampaignRow): Promise<CampaignReport> {
  const counts = await recipientCounts(services.db, c.id);
  const [delivery] = await services.db
    .select({
      delivered: count(sql`${messages.status} >= ${MESSAGE_STATUS.delivered}`),
      read: count(sql`${messages.status} >= ${MESSAGE_STATUS.read}`),
      replied: count(replied),
    })
    .from(campaignRecipients)
    .leftJoin(messages, eq(messages.id, campaignRecipients.messageId))
    .where(and(eq(campaignRecipients.campaignId, c.id), eq(campaignRecipients.status, 'sent')));
  const base = {
    _id: c.id,
    people_count: c.status === 'scheduled' ? c.peopleCount : counts.total,
    waiting: c.status === 'scheduled' ? c.peopleCount : counts.waiting,
    sent: counts.sent,
    delivered: delivery?.delivered ?? 0,
    read: delivery?.read ?? 0,
    failed: counts.failed,
    skipped: counts.skipped,
    replied: delivery?.replied ?? 0,
    clicked: 0,
    failed_by_reason: [],
    pricing: [],
  };
  if (!c.official) return base;
  // Official campaigns (issue 19): delivery, reads, replies and taps are the people's own columns (the status
  // webhooks and the pipeline write them), with the failures by reason and Meta's pricing categories.
  const extras = await officialReportExtras(services.db, c.id);
  return {
    ...base,
    delivered: extras.counts.delivered,
    read: extras.counts.read,
    replied: extras.counts.replied,
    clicked: extras.counts.clicked,
    failed_by_reason: extras.failed_by_reason,
    pricing: extras.pricing,
  };
}
