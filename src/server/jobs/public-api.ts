// The integrations' keys are kept as long as a retry may come: an Idempotency-Key of the public API a day
// (a client retries within minutes or hours), an outbound send's key 30 days (a webhook's sender may replay
// older events), a webhook's handled event 30 days too (its dedupe window is a day; the rest is its log); a
// rate-limit window an hour after it ended.
// Every 6 hours and at each start; idempotent.
import { pruneRateLimits } from '../db/rate-limit-store';
import { apiIdempotencyRepo } from '../domains/integrations/api-idempotency.repo';
import { outboundRepo } from '../domains/integrations/outbound.repo';
import { webhookEventsRepo } from '../domains/webhooks/webhooks.repo';
import type { JobKind } from './runner';

export const integrationKeysHousekeepingJob: JobKind = {
  name: 'integration-keys-housekeeping',
  every: '15 */6 * * *',
  atStart: true,
  retryLimit: 2,
  // Over every account: old keys are nobody's concern any more.
  run: async (_data, { db }) => {
    await apiIdempotencyRepo.prune(db, 1);
    await outboundRepo.prune(db, 30);
    // An event still queued waits for its job, however old.
    await webhookEventsRepo.pruneHandled(db, 30);
    // Rate-limit windows long over (db/rate-limit-store.ts).
    await pruneRateLimits(db);
  },
};
