// The integrations' keys are kept as long as a retry may come: an Idempotency-Key of the public API a day
// (a client retries within minutes or hours), an outbound send's key 30 days (a webhook's sender may replay
// older events), a webhook's handled event 30 days too (its dedupe window is a day; the rest is its log); a
// rate-limit window an hour after it ended.
// Every 6 hours and at each start; idempotent.
import { and, lt, ne, sql } from 'drizzle-orm';
import { apiIdempotency, outboundSends, rateLimits, webhookEvents } from '../db/schema';
import type { JobKind } from './runner';

const daysAgo = (days: number) => sql`now() - ${days} * interval '1 day'`;

export const integrationKeysHousekeepingJob: JobKind = {
  name: 'integration-keys-housekeeping',
  every: '15 */6 * * *',
  atStart: true,
  retryLimit: 2,
  run: async (_data, { db }) => {
    await db.delete(apiIdempotency).where(lt(apiIdempotency.createdAt, daysAgo(1)));
    await db.delete(outboundSends).where(lt(outboundSends.createdAt, daysAgo(30)));
    // An event still queued waits for its job, however old.
    await db
      .delete(webhookEvents)
      .where(and(lt(webhookEvents.createdAt, daysAgo(30)), ne(webhookEvents.status, 'queued')));
    // Rate-limit windows long over (http/rate-limit-store.ts): a key seen again starts a new one anyway.
    await db.delete(rateLimits).where(lt(rateLimits.windowEnds, sql`now() - interval '1 hour'`));
  },
};
