// The public API's Idempotency-Key rows (api_idempotency): per account and key, the request's hash, a lease
// while it runs, and its answer once done. The actor is the API key's caller: one account only.
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Actor } from '../../access';
import type { Db } from '../../db';
import { apiIdempotency } from '../../db/schema';

const ofKey = (actor: Actor, key: string) =>
  and(eq(apiIdempotency.accountId, actor.accountId), eq(apiIdempotency.key, key));
const leaseFor = (seconds: number) => sql`now() + ${seconds} * interval '1 second'`;

export const apiIdempotencyRepo = {
  /** Takes a free key for this request (true), or leaves it to the row already there (false). */
  async claim(db: Db, actor: Actor, key: string, hash: string, leaseSeconds: number): Promise<boolean> {
    const [mine] = await db
      .insert(apiIdempotency)
      .values({ accountId: actor.accountId, key, requestHash: hash, leaseUntil: leaseFor(leaseSeconds) })
      .onConflictDoNothing()
      .returning({ key: apiIdempotency.key });
    return Boolean(mine);
  },
  async find(db: Db, actor: Actor, key: string) {
    const [row] = await db.select().from(apiIdempotency).where(ofKey(actor, key)).limit(1);
    return row ?? null;
  },
  /** Takes over a key whose request is still 'running' past its lease (it died mid-way). */
  async takeOver(db: Db, actor: Actor, key: string, leaseSeconds: number): Promise<boolean> {
    const [taken] = await db
      .update(apiIdempotency)
      .set({ leaseUntil: leaseFor(leaseSeconds) })
      .where(
        and(
          ofKey(actor, key),
          eq(apiIdempotency.state, 'running'),
          sql`${apiIdempotency.leaseUntil} <= now()`,
        ),
      )
      .returning({ key: apiIdempotency.key });
    return Boolean(taken);
  },
  /** The request's answer, replayed to every repeat of the key. */
  async remember(db: Db, actor: Actor, key: string, statusCode: number, answer: unknown) {
    await db
      .update(apiIdempotency)
      .set({ state: 'done', statusCode, answer, leaseUntil: null })
      .where(ofKey(actor, key));
  },
  /** Gives the key up: a retry runs afresh. */
  async release(db: Db, actor: Actor, key: string) {
    await db.delete(apiIdempotency).where(ofKey(actor, key));
  },
  /** Housekeeping over every account: keys taken before `days` ago (a client retries within hours). */
  async prune(db: Db, days: number) {
    await db
      .delete(apiIdempotency)
      .where(lt(apiIdempotency.createdAt, sql`now() - ${days} * interval '1 day'`));
  },
};
