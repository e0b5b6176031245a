// Every kind of background job, in one list: the runner (./runner.ts) installs each at start. A new engine
// (flows, chatbots, campaigns, follow-ups) adds its kind here.
import { baileysMediaJob } from '../channels/baileys/media-retry';
import { mediaDownloadJob } from '../channels/cloud-api/media-retry';
import { resumePendingSends } from '../domains/conversations/delivery';
import { campaignRunJob, campaignSweepJob } from './campaigns';
import { chatbotReplyJob, chatbotSweepJob } from './chatbots';
import { flowRunJob, flowSweepJob } from './flows';
import { followUpSweepJob, followUpWakeJob } from './follow-ups';
import { housekeepingJob } from './housekeeping';
import { officialCampaignRunJob } from './official-campaigns';
import { integrationKeysHousekeepingJob } from './public-api';
import type { JobKind, JobRunner } from './runner';
import {
  adoptScheduledMessagesJob,
  scheduledMessageJob,
  scheduledMessagesSweepJob,
} from './scheduled-messages';
import { webhookEventJob } from './webhook-events';

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
  scheduledMessagesSweepJob,
  sendSweepJob,
  housekeepingJob,
  mediaDownloadJob as unknown as JobKind,
  baileysMediaJob as unknown as JobKind,
  flowRunJob as unknown as JobKind,
  flowSweepJob,
  chatbotReplyJob as unknown as JobKind,
  chatbotSweepJob,
  campaignRunJob as unknown as JobKind,
  campaignSweepJob,
  officialCampaignRunJob as unknown as JobKind,
  followUpWakeJob,
  followUpSweepJob,
  integrationKeysHousekeepingJob,
  webhookEventJob as unknown as JobKind,
];

export async function defineJobs(runner: JobRunner) {
  for (const kind of jobKinds) await runner.define(kind);
}
