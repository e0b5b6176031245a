// The follow-up settings (one per chip), always through the actor's account.
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { newId } from '../../../shared/ids';
import type { Actor } from '../../access';
import type { Db } from '../../db';
import { chips, conversations, followUpRuns, followUpSettings } from '../../db/schema';

export type FollowUpSettingRow = typeof followUpSettings.$inferSelect;
export type FollowUpSettingFields = Pick<
  typeof followUpSettings.$inferInsert,
  'enabled' | 'types' | 'startTime' | 'endTime' | 'messages'
>;

export const followUpsRepo = {
  /** The account's chips, oldest first, each with its setting (null: never saved). */
  chipsWithSettings(db: Db, actor: Actor) {
    return db
      .select({ chip: { id: chips.id, name: chips.name }, setting: followUpSettings })
      .from(chips)
      .leftJoin(followUpSettings, eq(followUpSettings.chipId, chips.id))
      .where(and(eq(chips.accountId, actor.accountId), eq(chips.filed, false)))
      .orderBy(asc(chips.createdAt), asc(chips.id));
  },

  async chip(db: Db, actor: Actor, chipId: string) {
    const [chip] = await db
      .select({ id: chips.id, name: chips.name })
      .from(chips)
      .where(and(eq(chips.id, chipId), eq(chips.accountId, actor.accountId), eq(chips.filed, false)))
      .limit(1);
    return chip ?? null;
  },

  /**
   * Saves the chip's setting and drops the cached due times (follow_up_runs' wake_at) of the chip's open
   * conversations (the engine works them out again with the new setting); their updated_at moves, so screens
   * catching up (get-changes-since) get them again (follow_up_applies may have changed). `tx`: the caller's
   * transaction, all or nothing.
   */
  async save(tx: Db, actor: Actor, chipId: string, fields: FollowUpSettingFields) {
    const [saved] = await tx
      .insert(followUpSettings)
      .values({ id: newId(), accountId: actor.accountId, chipId, ...fields })
      .onConflictDoUpdate({ target: followUpSettings.chipId, set: fields })
      .returning();
    if (!saved) throw new Error('follow-up setting upsert returned nothing');
    const open = and(
      eq(conversations.accountId, actor.accountId),
      eq(conversations.chipId, chipId),
      isNull(conversations.finishedAt),
    );
    // The conversations first, then their runs: the lock order of the engines' own writes.
    await tx.update(conversations).set({ updatedAt: sql`now()` }).where(open);
    await tx
      .update(followUpRuns)
      .set({ wakeAt: null })
      .where(
        and(
          eq(followUpRuns.accountId, actor.accountId),
          inArray(
            followUpRuns.conversationId,
            tx.select({ id: conversations.id }).from(conversations).where(open),
          ),
        ),
      );
    return saved;
  },

  /** Whether the chip of the actor's account has follow-ups on. */
  async enabled(db: Db, actor: Actor, chipId: string): Promise<boolean> {
    const [on] = await db
      .select({ id: followUpSettings.id })
      .from(followUpSettings)
      .where(
        and(
          eq(followUpSettings.accountId, actor.accountId),
          eq(followUpSettings.chipId, chipId),
          eq(followUpSettings.enabled, true),
        ),
      )
      .limit(1);
    return Boolean(on);
  },
};
