import { and, eq, gt, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db';
import { prepared } from '../../db/prepared';
import { accounts, loginFailures, passwordResets, sessions, users } from '../../db/schema';

const DAY = sql`interval '1 day'`;

/** A reset link by its token's hash, unused and unexpired. */
const validReset = (tokenHash: string) =>
  and(
    eq(passwordResets.tokenHash, tokenHash),
    isNull(passwordResets.usedAt),
    gt(passwordResets.expiresAt, sql`now()`),
  );

export const authRepo = {
  /** Every authenticated call starts here: prepared, so its three-table select is built once. */
  async findSessionByTokenHash(db: Db, tokenHash: string) {
    const rows = await prepared(db, 'session_by_token', (d) =>
      d
        .select({ session: sessions, user: users, account: accounts })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .innerJoin(accounts, eq(accounts.id, users.accountId))
        .where(
          and(
            eq(sessions.tokenHash, sql.placeholder('hash')),
            isNull(sessions.revokedAt),
            gt(sessions.expiresAt, sql`now()`),
            eq(users.filed, false),
          ),
        )
        .limit(1)
        .prepare('session_by_token'),
    ).execute({ hash: tokenHash });
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

  /**
   * Takes one place in each counter of `limits` (window of `windowMinutes`), or none when any of them is
   * full: answers null when taken, else when the latest full window ends. The rows stay locked from the
   * upsert to the commit, so concurrent attempts on one key queue here and each sees the others' places;
   * keys are locked in sorted order, so two attempts sharing keys cannot deadlock.
   */
  async reserve(db: Db, limits: { key: string; max: number }[], windowMinutes: number) {
    const sorted = [...limits].sort((a, b) => (a.key < b.key ? -1 : 1));
    const expired = sql`login_failures.window_start <= now() - make_interval(mins => ${windowMinutes})`;
    return db.transaction(async (tx) => {
      // A window that has ended starts again, empty.
      const rows = await tx
        .insert(loginFailures)
        .values(sorted.map(({ key }) => ({ key, count: 0, windowStart: sql`now()` })))
        .onConflictDoUpdate({
          target: loginFailures.key,
          set: {
            count: sql`CASE WHEN ${expired} THEN 0 ELSE login_failures.count END`,
            windowStart: sql`CASE WHEN ${expired} THEN now() ELSE login_failures.window_start END`,
          },
        })
        .returning();
      const full = rows.filter((r) => r.count >= (sorted.find((l) => l.key === r.key)?.max ?? 0));
      if (full.length > 0) {
        return new Date(Math.max(...full.map((r) => r.windowStart.getTime())) + windowMinutes * 60_000);
      }
      await tx
        .update(loginFailures)
        .set({ count: sql`${loginFailures.count} + 1` })
        .where(
          inArray(
            loginFailures.key,
            sorted.map((l) => l.key),
          ),
        );
      return null;
    });
  },

  /** Gives back a place taken by `reserve` (an attempt that turned out not to count). */
  giveBack: (db: Db, key: string) =>
    db
      .update(loginFailures)
      .set({ count: sql`greatest(${loginFailures.count} - 1, 0)` })
      .where(eq(loginFailures.key, key)),

  /** Housekeeping: sessions and reset links dead for a day, attempt windows over. Answers the rows removed. */
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
    // Recovery counters have their own window, at most a day long.
    const f = await db
      .delete(loginFailures)
      .where(
        sql`${loginFailures.windowStart} <= now() - CASE WHEN ${loginFailures.key} LIKE 'recovery:%' THEN ${DAY} ELSE make_interval(mins => ${windowMinutes}) END`,
      )
      .returning({ key: loginFailures.key });
    return { sessions: s.length, passwordResets: r.length, loginFailures: f.length };
  },

  /** Forgets a counter (a successful login forgives its e-mail). */
  clearFailures: (db: Db, key: string) => db.delete(loginFailures).where(eq(loginFailures.key, key)),

  insertPasswordReset: (db: Db, row: typeof passwordResets.$inferInsert) =>
    db.insert(passwordResets).values(row),

  /** The user of a valid, unused, unexpired reset; null otherwise (nothing is marked). */
  async findPasswordReset(db: Db, tokenHash: string): Promise<string | null> {
    const [row] = await db
      .select({ userId: passwordResets.userId })
      .from(passwordResets)
      .where(validReset(tokenHash));
    return row?.userId ?? null;
  },

  /** Marks a valid, unused, unexpired reset as used and returns its user id; null otherwise. */
  async consumePasswordReset(db: Db, tokenHash: string): Promise<string | null> {
    const rows = await db
      .update(passwordResets)
      .set({ usedAt: sql`now()` })
      .where(validReset(tokenHash))
      .returning({ userId: passwordResets.userId });
    return rows[0]?.userId ?? null;
  },
};
