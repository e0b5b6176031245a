// Every kind of background job, in one list: the runner (./runner.ts) installs each at start. A new engine
// (flows, chatbots, campaigns, follow-ups) adds its kind here.
import { mediaDownloadJob } from '../channels/cloud-api/media-retry';
import { resumePendingSends } from '../domains/conversations/delivery';
import { campaignRunJob, campaignSweepJob } from './campaigns';
import { chatbotReplyJob, chatbotSweepJob } from './chatbots';
import { flowRunJob, flowSweepJob } from './flows';
import { housekeepingJob } from './housekeeping';
import type { JobKind, JobRunner } from './runner';
import { adoptScheduledMessagesJob, scheduledMessageJob } from './scheduled-messages';

/** Sends cut off by a crash (their claim ran out) are resumed, or given up, every 2 minutes and at each start. */
export const sendSweepJob: JobKind = {
  name: 'send-sweep',
  every: '*/2 * * * *',
  atStart: true,
  // The next sweep comes anyway.
  retryLimit: 0,
  run: async (_data, services) => {
    await resumePendingSends({ services });
  },
};

export const jobKinds: JobKind[] = [
  scheduledMessageJob as unknown as JobKind,
  adoptScheduledMessagesJob,
  sendSweepJob,
  housekeepingJob,
  mediaDownloadJob as unknown as JobKind,
  flowRunJob as unknown as JobKind,
  flowSweepJob,
  chatbotReplyJob as unknown as JobKind,
  chatbotSweepJob,
  campaignRunJob as unknown as JobKind,
  campaignSweepJob,
];

export async function defineJobs(runner: JobRunner) {
  for (const kind of jobKinds) await runner.define(kind);
}
