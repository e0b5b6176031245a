// A campaign's live numbers (the follow dialog, spec 3 §4) and its report (our addition), read from its
// recipients and, for delivery, from the messages they were sent.
import type { CampaignProgress, CampaignReport } from '../../../shared/contract/campaigns';
import type { Actor } from '../../access';
import type { Services } from '../../services';
import { type CampaignRow, campaignsRepo } from './campaigns.repo';
import { officialReportExtras } from './official-report';

/** The wait between two sends, in ms: the chosen interval, shortened only by the test/bench setting. */
export const intervalMs = (services: Pick<Services, 'config'>, c: Pick<CampaignRow, 'intervalSeconds'>) =>
  Math.max(1, Math.round(c.intervalSeconds * 1000 * services.config.CAMPAIGN_INTERVAL_SCALE));

/** The jitter added to each wait: random in [0, interval/4), so a quarter of it at most, an eighth on average. */
export const jitterMs = (interval: number) => Math.floor(Math.random() * (interval / 4));

export async function campaignProgress(
  services: Services,
  actor: Actor,
  c: CampaignRow,
): Promise<CampaignProgress> {
  const materialized = c.status !== 'scheduled';
  const counts = materialized ? await campaignsRepo.peopleCounts(services.db, actor, c.id) : null;
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

export async function campaignReport(
  services: Services,
  actor: Actor,
  c: CampaignRow,
): Promise<CampaignReport> {
  const counts = await campaignsRepo.peopleCounts(services.db, actor, c.id);
  const delivery = await campaignsRepo.sentDelivery(services.db, actor, c.id);
  const base = {
    _id: c.id,
    people_count: c.status === 'scheduled' ? c.peopleCount : counts.total,
    waiting: c.status === 'scheduled' ? c.peopleCount : counts.waiting,
    sent: counts.sent,
    delivered: delivery.delivered,
    read: delivery.read,
    failed: counts.failed,
    skipped: counts.skipped,
    replied: delivery.replied,
    clicked: 0,
    failed_by_reason: [],
    pricing: [],
  };
  if (!c.official) return base;
  // Official campaigns (issue 19): delivery, reads, replies and taps are the people's own columns (the status
  // webhooks and the pipeline write them), with the failures by reason and Meta's pricing categories.
  const extras = await officialReportExtras(services.db, actor, c.id);
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
