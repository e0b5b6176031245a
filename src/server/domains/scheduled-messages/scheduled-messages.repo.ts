// Scheduled messages' rows, always through the actor: its account, and for attendants the items of their
// departments' chips. A row outside them is not there.
import { and, desc, eq } from 'drizzle-orm';
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
