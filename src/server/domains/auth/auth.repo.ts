import { and, eq, gt, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db';
import { accounts, loginFailures, passwordResets, sessions, users } from '../../db/schema';

const DAY = sql`interval '1 day'`;

export const authRepo = {
  async findSessionByTokenHash(db: Db, tokenHash: string) {
    const rows = await db
      .select({ session: sessions, user: users, account: accounts })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .innerJoin(accounts, eq(accounts.id, users.accountId))
      .where(
        and(
          eq(sessions.tokenHash, tokenHash),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, sql`now()`),
          eq(users.filed, false),
        ),
      )
      .limit(1);
    return rows[0] ?? null;
  },

  insertSession: (db: Db, row: typeof sessions.$inferInsert) => db.insert(sessions).values(row),

  revokeSession: (db: Db, sessionId: string) =>
    db.update(sessions).set({ revokedAt: sql`now()` }).where(eq(sessions.id, sessionId)),

  /** Ends every session of a user, except `keepSessionId` when given. */
  revokeUserSessions: (db: Db, userId: string, keepSessionId?: string) =>
    db
      .update(sessions)
      .set({ revokedAt: sql`now()` })
      .where(
        and(
          eq(sessions.userId, userId),
          isNull(sessions.revokedAt),
          keepSessionId ? ne(sessions.id, keepSessionId) : undefined,
        ),
      ),

  /** The failure counters of `keys` whose window has not ended. */
  async currentFailures(db: Db, keys: string[], windowMinutes: number) {
    return db
      .select()
      .from(loginFailures)
      .where(
        and(
          inArray(loginFailures.key, keys),
          sql`${loginFailures.windowStart} > now() - make_interval(mins => ${windowMinutes})`,
        ),
      );
  },

  /** Counts one failure per key; a window that has ended starts again at 1. */
  async recordFailure(db: Db, keys: string[], windowMinutes: number) {
    const expired = sql`login_failures.window_start <= now() - make_interval(mins => ${windowMinutes})`;
    await db
      .insert(loginFailures)
      .values(keys.map((key) => ({ key, count: 1, windowStart: sql`now()` })))
      .onConflictDoUpdate({
        target: loginFailures.key,
        set: {
          count: sql`CASE WHEN ${expired} THEN 1 ELSE login_failures.count + 1 END`,
          windowStart: sql`CASE WHEN ${expired} THEN now() ELSE login_failures.window_start END`,
        },
      });
  },

  /** Housekeeping: sessions and reset links dead for a day, failure windows long over. Answers the rows removed. */
  async purgeExpired(db: Db, windowMinutes: number) {
    const dead = (expires: typeof sessions.expiresAt, revoked: typeof sessions.revokedAt) =>
      or(lt(expires, sql`now() - ${DAY}`), lt(revoked, sql`now() - ${DAY}`));
    const s = await db
      .delete(sessions)
      .where(dead(sessions.expiresAt, sessions.revokedAt))
      .returning({ id: sessions.id });
    const r = await db
      .delete(passwordResets)
      .where(
        or(lt(passwordResets.expiresAt, sql`now() - ${DAY}`), lt(passwordResets.usedAt, sql`now() - ${DAY}`)),
      )
      .returning({ id: passwordResets.id });
    const f = await db
      .delete(loginFailures)
      .where(sql`${loginFailures.windowStart} <= now() - make_interval(mins => ${windowMinutes})`)
      .returning({ key: loginFailures.key });
    return { sessions: s.length, passwordResets: r.length, loginFailures: f.length };
  },

  clearFailures: (db: Db, key: string) => db.delete(loginFailures).where(eq(loginFailures.key, key)),

  insertPasswordReset: (db: Db, row: typeof passwordResets.$inferInsert) =>
    db.insert(passwordResets).values(row),

  /** Marks a valid, unused, unexpired reset as used and returns its user id; null otherwise. */
  async consumePasswordReset(db: Db, tokenHash: string): Promise<string | null> {
    const rows = await db
      .update(passwordResets)
      .set({ usedAt: sql`now()` })
      .where(
        and(
          eq(passwordResets.tokenHash, tokenHash),
          isNull(passwordResets.usedAt),
          gt(passwordResets.expiresAt, sql`now()`),
        ),
      )
      .returning({ userId: passwordResets.userId });
    return rows[0]?.userId ?? null;
  },
};
