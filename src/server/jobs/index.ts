// Every kind of background job, in one list: the runner (./runner.ts) installs each at start. A new engine
// (flows, chatbots, campaigns, follow-ups) adds its kind here.
import { baileysMediaJob } from '../channels/baileys/media-retry';
import { mediaDownloadJob } from '../channels/cloud-api/media-retry';
import { resumePendingSends, SEND_RESUME_JOB } from '../domains/conversations/delivery';
import { campaignRunJob, campaignSweepJob } from './campaigns';
import { chatbotReplyJob, chatbotSweepJob } from './chatbots';
import { distributeJob, distributionSweepJob } from './distribution';
import { flowRunJob, flowSweepJob } from './flows';
import { followUpSweepJob, followUpWakeJob } from './follow-ups';
import { housekeepingJob } from './housekeeping';
import { mailJob } from './mail';
import { officialCampaignRecountJob, officialCampaignRunJob } from './official-campaigns';
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

/**
 * One conversation's pending sends, when one that waited for its provider is due again or those queued behind a
 * send may go: each goes in its order (delivery.ts). Repeating it sends nothing twice (the claims decide).
 */
export const sendResumeJob: JobKind<{ conversationId: string }> = {
  name: SEND_RESUME_JOB,
  pollSeconds: 1,
  concurrency: 4,
  retryLimit: 3,
  retryDelaySeconds: 5,
  run: async ({ conversationId }, services) => {
    await resumePendingSends({ services }, { conversationId });
  },
};

export const jobKinds: JobKind[] = [
  scheduledMessageJob as unknown as JobKind,
  adoptScheduledMessagesJob,
  scheduledMessagesSweepJob,
  sendSweepJob,
  sendResumeJob as unknown as JobKind,
  housekeepingJob,
  mailJob as unknown as JobKind,
  mediaDownloadJob as unknown as JobKind,
  baileysMediaJob as unknown as JobKind,
  flowRunJob as unknown as JobKind,
  flowSweepJob,
  chatbotReplyJob as unknown as JobKind,
  chatbotSweepJob,
  campaignRunJob as unknown as JobKind,
  campaignSweepJob,
  officialCampaignRunJob as unknown as JobKind,
  officialCampaignRecountJob as unknown as JobKind,
  followUpWakeJob,
  followUpSweepJob,
  integrationKeysHousekeepingJob,
  webhookEventJob as unknown as JobKind,
  distributeJob as unknown as JobKind,
  distributionSweepJob,
];

export async function defineJobs(runner: JobRunner) {
  for (const kind of jobKinds) await runner.define(kind);
}
