// The flow engine's jobs (src/server/domains/flows/engine.ts): a run of one conversation (queued by a
// customer's message, a trigger, a transfer, a wait's or a question's time), and the sweep that gives a run
// to any flow-served conversation left with work and nobody on it.
import { FLOW_LEASE_SECONDS, runConversation, sweepFlows } from '../domains/flows/engine';
import { FLOW_RUN_JOB, type FlowRunJob } from '../domains/flows/start';
import type { JobKind } from './runner';

export const flowRunJob: JobKind<FlowRunJob> = {
  name: FLOW_RUN_JOB,
  run: (data, services) => runConversation(services, data.conversation),
  // A customer waits for the answer: looked for twice a second, many at once.
  pollSeconds: 0.5,
  batchSize: 64,
  concurrency: 16,
  // A run killed mid-step is taken again once its claim (FLOW_LEASE_SECONDS) has run out.
  expireInSeconds: FLOW_LEASE_SECONDS + 60,
  retryLimit: 10,
  retryDelaySeconds: 5,
};

export const flowSweepJob: JobKind = {
  name: 'flow-sweep',
  every: '* * * * *',
  atStart: true,
  // The next sweep comes anyway.
  retryLimit: 0,
  run: async (_data, services) => {
    await sweepFlows(services);
  },
};
