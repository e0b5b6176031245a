// Equal distribution's reads and writes (distribution.service.ts decides who gets what). Every query acts for
// one account through the system actor, except the sweep's, which looks across accounts for work.
import { and, asc, count, eq, inArray, isNull, max, notInArray, or, type SQL, sql } from 'drizzle-orm';
import type { Actor } from '../../access';
import type { Db } from '../../db';
import { conversations, departments, users } from '../../db/schema';

/** The advisory lock's first key: distribution's own space (the second is the department's hash). */
const LOCK_SPACE = 2634;

const waitingUnheld = () =>
  and(
    eq(departments.distribute, true),
    eq(departments.filed, false),
    eq(conversations.isManual, true),
    isNull(conversations.finishedAt),
    isNull(conversations.assignedUserId),
  );

function waitingDepartmentsWhere(where: SQL | undefined) {
  return (db: Db) =>
    db
      .selectDistinct({ accountId: conversations.accountId, departmentId: departments.id })
      .from(conversations)
      .innerJoin(departments, eq(departments.id, conversations.departmentId))
      .where(and(where, waitingUnheld()));
}

export const distributionRepo = {
  /** One decision at a time per department, across processes, until the transaction ends. */
  async lockDepartment(tx: Db, departmentId: string) {
    await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_SPACE}::int, hashtext(${departmentId}))`);
  },

  /** Whether the department (of the actor's account, not deleted) has distribution on. */
  async distributes(db: Db, actor: Actor, departmentId: string): Promise<boolean> {
    const [row] = await db
      .select({ on: departments.distribute })
      .from(departments)
      .where(
        and(
          eq(departments.id, departmentId),
          eq(departments.accountId, actor.accountId),
          eq(departments.filed, false),
        ),
      );
    return row?.on ?? false;
  },

  /** The department's attendants (the role that serves conversations), read now. */
  async attendants(db: Db, actor: Actor, departmentId: string): Promise<string[]> {
    const rows = await db
      .select({ id: users.id })
      .from(users)
      .where(
        and(
          eq(users.accountId, actor.accountId),
          eq(users.filed, false),
          eq(users.userRole, 'user'),
          sql`${users.departments} ? ${departmentId}`,
        ),
      );
    return rows.map((u) => u.id);
  },

  /** The oldest `limit` conversations waiting: held by nobody, or by someone not in `members` any more. */
  async waiting(db: Db, actor: Actor, departmentId: string, members: string[], limit: number) {
    const rows = await db
      .select({ id: conversations.id })
      .from(conversations)
      .where(
        and(
          eq(conversations.accountId, actor.accountId),
          eq(conversations.departmentId, departmentId),
          eq(conversations.isManual, true),
          isNull(conversations.finishedAt),
          or(isNull(conversations.assignedUserId), notInArray(conversations.assignedUserId, members)),
        ),
      )
      .orderBy(asc(conversations.createdAt), asc(conversations.id))
      .limit(limit);
    return rows.map((c) => c.id);
  },

  /** What each of these attendants holds open, and when she was last given one. */
  held(db: Db, actor: Actor, userIds: string[]) {
    return db
      .select({ userId: conversations.assignedUserId, open: count(), last: max(conversations.assignedAt) })
      .from(conversations)
      .where(
        and(
          eq(conversations.accountId, actor.accountId),
          isNull(conversations.finishedAt),
          inArray(conversations.assignedUserId, userIds),
        ),
      )
      .groupBy(conversations.assignedUserId);
  },

  /**
   * Gives each conversation to its attendant in one statement, each assignment a microsecond after the one
   * before, so the order of a batch is kept. The clock now, not now(): that is when the transaction began,
   * maybe before a wait for the lock.
   */
  async assign(tx: Db, actor: Actor, picks: { conversationId: string; userId: string }[]) {
    if (!picks.length) return;
    const values = picks.map((p, n) => sql`(${p.conversationId}, ${p.userId}, ${n}::int)`);
    await tx.execute(sql`with clock as (select clock_timestamp() as at)
      update ${conversations}
      set assigned_user_id = v.user_id, assigned_at = (select at from clock) + v.n * interval '1 microsecond'
      from (values ${sql.join(values, sql`, `)}) as v(id, user_id, n)
      where ${conversations.id} = v.id and ${conversations.accountId} = ${actor.accountId}`);
  },

  /** Every distributing department of the actor's account with a conversation waiting unheld. */
  waitingDepartments: (db: Db, actor: Actor) =>
    waitingDepartmentsWhere(eq(conversations.accountId, actor.accountId))(db),

  /** The minute's sweep: the same across every account (the system's own look for work, no account yet). */
  waitingDepartmentsEverywhere: (db: Db) => waitingDepartmentsWhere(undefined)(db),
};
