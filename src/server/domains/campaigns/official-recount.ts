// An official campaign's counters and the account's `official_campaign_updated`, at most once a second per
// campaign: the status webhooks (a campaign sending 80 a second makes ~240 status changes a second), the
// replies and taps, and the sending job's batches each queue one durable job per campaign and second
// ('official-campaign-recount', jobs/official-campaigns.ts) that recounts the campaign and then tells the
// screens. A job is a row: a kill after the change leaves the recount due, where a timer in memory lost it.
import { systemActor } from '../../access';
import type { Services } from '../../services';
import { officialSendRows as rows } from './official-send.repo';

export const OFFICIAL_RECOUNT_JOB = 'official-campaign-recount';
export interface OfficialRecountJob {
  accountId: string;
  campaignId: string;
}

/** The second each campaign's recount was last queued for by this process: a burst queues it once. */
const queuedFor = new Map<string, number>();
/** Campaigns this process remembers at most (a few run at a time; the map only saves inserts). */
const REMEMBERED = 10_000;

/**
 * Queues the campaign's recount for the next whole second; every change within that second joins the same
 * job (its key names the second). Never throws: a failure is logged, and the sending job recounts anyway
 * when it pauses or ends.
 */
export async function officialCampaignTouched(
  services: Pick<Services, 'jobs' | 'log'>,
  accountId: string,
  campaignId: string,
): Promise<void> {
  const second = Math.floor(Date.now() / 1000) + 1;
  if (queuedFor.get(campaignId) === second) return;
  if (queuedFor.size >= REMEMBERED) queuedFor.clear();
  queuedFor.set(campaignId, second);
  try {
    await services.jobs.send<OfficialRecountJob>(
      OFFICIAL_RECOUNT_JOB,
      { accountId, campaignId },
      { startAfter: new Date(second * 1000), key: `${campaignId}@${second}` },
    );
  } catch (err) {
    if (queuedFor.get(campaignId) === second) queuedFor.delete(campaignId);
    services.log.warn({ err, campaignId }, 'official campaign: recount not queued');
  }
}

/** The job: the counters from the campaign's people, then the account's screens are told. */
export async function recountOfficialCampaign(services: Services, job: OfficialRecountJob) {
  await rows.recount(services.db, systemActor(job.accountId, 'official-campaigns'), job.campaignId);
  services.realtime.toAccount(job.accountId, {
    type: 'official_campaign_updated',
    message: { _id: job.campaignId },
  });
}
