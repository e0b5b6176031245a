// Scheduled messages' rows, always through the actor: its account, and for attendants the items of their
// departments' chips. A row outside them is not there.
import { and, asc, desc, eq, inArray, lte, or, sql } from 'drizzle-orm';
import { type Actor, actorSeesDepartment, departmentCondition } from '../../access';
import type { Db } from '../../db';
import { insertOnce } from '../../db/insert-once';
import { chips, scheduledMessages } from '../../db/schema';

export type ScheduledMessageRow = typeof scheduledMessages.$inferSelect;
type Fields = Omit<typeof scheduledMessages.$inferInsert, 'id' | 'accountId' | 'userId'>;

export const scheduledMessagesRepo = {
  /** The actor's items not deleted, latest first. */
  async list(db: Db, actor: Actor): Promise<ScheduledMessageRow[]> {
    const rows = await db
      .select({ item: scheduledMessages })
      .from(scheduledMessages)
      .innerJoin(chips, eq(chips.id, scheduledMessages.chipId))
      .where(
        and(
          eq(scheduledMessages.accountId, actor.accountId),
          eq(scheduledMessages.filed, false),
          departmentCondition(actor, chips.departmentId),
        ),
      )
      .orderBy(desc(scheduledMessages.scheduledTo), desc(scheduledMessages.id))
      .limit(1000);
    return rows.map((r) => r.item);
  },
  /** One item the actor may see (deleted ones too when `filed` is allowed); null otherwise. */
  async find(db: Db, actor: Actor, id: string, opts: { filed?: boolean } = {}) {
    const [row] = await db
      .select({ item: scheduledMessages, departmentId: chips.departmentId })
      .from(scheduledMessages)
      .innerJoin(chips, eq(chips.id, scheduledMessages.chipId))
      .where(
        and(
          eq(scheduledMessages.accountId, actor.accountId),
          eq(scheduledMessages.id, id),
          opts.filed ? undefined : eq(scheduledMessages.filed, false),
        ),
      )
      .limit(1);
    return row && actorSeesDepartment(actor, row.departmentId) ? row.item : null;
  },
  /**
   * Inserts the item once per `id` (named by the dialog): a repeat, even at once, answers the row already
   * there when it is the actor account's; null when the id is another account's.
   */
  async insertOnce(db: Db, actor: Actor & { kind: 'user' }, id: string, fields: Fields) {
    return insertOnce(
      db,
      scheduledMessages,
      { ...fields, id, accountId: actor.accountId, userId: actor.userId },
      and(eq(scheduledMessages.id, id), eq(scheduledMessages.accountId, actor.accountId)),
    );
  },
  /** Changes an item the job has not taken yet (status 'scheduled'); null otherwise. */
  async updateScheduled(db: Db, actor: Actor, id: string, set: Partial<Fields>) {
    const [row] = await db
      .update(scheduledMessages)
      .set(set)
      .where(
        and(
          eq(scheduledMessages.accountId, actor.accountId),
          eq(scheduledMessages.id, id),
          eq(scheduledMessages.status, 'scheduled'),
        ),
      )
      .returning();
    return row ?? null;
  },
};

/**
 * The sending job's rows. The runner names a row by id or by time, across accounts; each claimed row is then
 * sent for its own account (systemActor), and its chip is read within that account.
 */
export const scheduledJobRows = {
  /** Claims up to `limit` rows due at `now` (or whose claim has run out), oldest first. */
  claimDue(db: Db, now: Date, leaseMs: number, limit: number) {
    const due = db
      .select({ id: scheduledMessages.id })
      .from(scheduledMessages)
      .where(
        and(
          eq(scheduledMessages.filed, false),
          or(
            and(eq(scheduledMessages.status, 'scheduled'), lte(scheduledMessages.scheduledTo, now)),
            and(eq(scheduledMessages.status, 'sending'), lte(scheduledMessages.leaseUntil, now)),
          ),
        ),
      )
      .orderBy(asc(scheduledMessages.scheduledTo))
      .limit(limit)
      .for('update', { skipLocked: true });
    return db
      .update(scheduledMessages)
      .set({
        status: 'sending',
        leaseUntil: new Date(now.getTime() + leaseMs),
        attempts: sql`${scheduledMessages.attempts} + 1`,
      })
      .where(inArray(scheduledMessages.id, due))
      .returning();
  },
  /**
   * Claims one row if it is due (or its claim ran out) at the database's clock, the one the runner's
   * `startAfter` is checked against. A single UPDATE: two processes never both get it.
   */
  async claimOne(db: Db, id: string, leaseMs: number) {
    const [row] = await db
      .update(scheduledMessages)
      .set({
        status: 'sending',
        leaseUntil: sql`now() + ${leaseMs} * interval '1 millisecond'`,
        attempts: sql`${scheduledMessages.attempts} + 1`,
      })
      .where(
        and(
          eq(scheduledMessages.id, id),
          eq(scheduledMessages.filed, false),
          or(
            and(eq(scheduledMessages.status, 'scheduled'), lte(scheduledMessages.scheduledTo, sql`now()`)),
            and(eq(scheduledMessages.status, 'sending'), lte(scheduledMessages.leaseUntil, sql`now()`)),
          ),
        ),
      )
      .returning();
    return row ?? null;
  },
  /** Records a claimed row's outcome. */
  settle: (db: Db, id: string, status: 'sent' | 'error', failure: string | null) =>
    db
      .update(scheduledMessages)
      .set({ status, failure, sentAt: status === 'sent' ? new Date() : null, leaseUntil: null })
      .where(and(eq(scheduledMessages.id, id), eq(scheduledMessages.status, 'sending'))),
  async statusOf(db: Db, id: string) {
    const [row] = await db
      .select({ status: scheduledMessages.status })
      .from(scheduledMessages)
      .where(and(eq(scheduledMessages.id, id), eq(scheduledMessages.filed, false)));
    return row?.status ?? null;
  },
  /** The row's chip, in the account the job acts for (the row's own); null when deleted. */
  async chipOf(db: Db, actor: Actor, chipId: string) {
    const [chip] = await db
      .select()
      .from(chips)
      .where(and(eq(chips.id, chipId), eq(chips.accountId, actor.accountId), eq(chips.filed, false)))
      .limit(1);
    return chip ?? null;
  },
  /** Rows waiting for their time (a restart queues a job for each; the job's key makes it a no-op twice). */
  waiting: (db: Db) =>
    db
      .select({ id: scheduledMessages.id, scheduledTo: scheduledMessages.scheduledTo })
      .from(scheduledMessages)
      .where(and(eq(scheduledMessages.filed, false), eq(scheduledMessages.status, 'scheduled'))),
};
