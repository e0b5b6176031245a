// The follow-up settings (one per chip), always through the actor's account.
import { and, asc, eq, isNull } from 'drizzle-orm';
import { newId } from '../../../shared/ids';
import type { Actor } from '../../access';
import type { Db } from '../../db';
import { chips, conversations, followUpSettings } from '../../db/schema';

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
   * Saves the chip's setting and drops the cached due times of the chip's open conversations (the engine works
   * them out again with the new setting); the update moves their updated_at, so screens catching up
   * (get-changes-since) get them again. `tx`: the caller's transaction, both or neither.
   */
  async save(tx: Db, actor: Actor, chipId: string, fields: FollowUpSettingFields) {
    const [saved] = await tx
      .insert(followUpSettings)
      .values({ id: newId(), accountId: actor.accountId, chipId, ...fields })
      .onConflictDoUpdate({ target: followUpSettings.chipId, set: fields })
      .returning();
    if (!saved) throw new Error('follow-up setting upsert returned nothing');
    await tx
      .update(conversations)
      .set({ followUpDueAt: null })
      .where(
        and(
          eq(conversations.accountId, actor.accountId),
          eq(conversations.chipId, chipId),
          isNull(conversations.finishedAt),
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
