// Equal distribution's jobs (src/server/domains/distribution): one department's (or an account's) waiting
// conversations assigned now, and a sweep every minute for what an event did not reach (a setting switched on
// by another process, a job lost with a killed process).
import {
  DISTRIBUTE_JOB,
  type DistributeJob,
  runDistribution,
} from '../domains/distribution/distribution.service';
import type { JobKind } from './runner';

export const distributeJob: JobKind<DistributeJob> = {
  name: DISTRIBUTE_JOB,
  run: (data, services) => runDistribution(services, data),
  // An attendant waits for it: several at once (a burst coalesces per department in each process).
  pollSeconds: 1,
  batchSize: 20,
  concurrency: 20,
  expireInSeconds: 120,
  retryLimit: 5,
  retryDelaySeconds: 2,
};

export const distributionSweepJob: JobKind = {
  name: 'distribution-sweep',
  every: '* * * * *',
  atStart: true,
  // The next sweep comes anyway.
  retryLimit: 0,
  run: (_data, services) => runDistribution(services, {}),
};
