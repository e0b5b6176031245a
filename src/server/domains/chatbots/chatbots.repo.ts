// The AI chatbots of an account (spec 3 §3 Chatbot). Every query is scoped to the account, so another
// account's chatbot id behaves as not found.
import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import { newId } from '../../../shared/ids';
import type { Actor } from '../../access';
import type { Db } from '../../db';
import { chatbots, chips, conversations } from '../../db/schema';
import { resetRuns } from '../conversations/claim';

export type ChatbotRow = typeof chatbots.$inferSelect;
export type ChatbotFields = Omit<
  typeof chatbots.$inferInsert,
  'id' | 'accountId' | 'createdAt' | 'updatedAt'
>;

const scope = (actor: Actor, id: string) =>
  and(eq(chatbots.accountId, actor.accountId), eq(chatbots.id, id), eq(chatbots.filed, false));

export const chatbotsRepo = {
  /** The account's live chatbots, newest first. */
  list(db: Db, actor: Actor) {
    return db
      .select()
      .from(chatbots)
      .where(and(eq(chatbots.accountId, actor.accountId), eq(chatbots.filed, false)))
      .orderBy(desc(chatbots.createdAt), desc(chatbots.id));
  },

  /** A live chatbot of the account, or null: what chips, transfers and flows point at. */
  async find(db: Db, actor: Actor, id: string): Promise<ChatbotRow | null> {
    const [row] = await db.select().from(chatbots).where(scope(actor, id)).limit(1);
    return row ?? null;
  },

  /** A chatbot by id whatever its state (the engine reads a deleted one to stop). */
  async byId(db: Db, id: string): Promise<ChatbotRow | null> {
    const [row] = await db.select().from(chatbots).where(eq(chatbots.id, id)).limit(1);
    return row ?? null;
  },

  /** Names of these chatbots, deleted ones too (the history says 'Chatbot apagado' for those). */
  async names(db: Db, actor: Actor, ids: readonly string[]) {
    if (!ids.length) return new Map<string, { name: string; filed: boolean }>();
    const rows = await db
      .select({ id: chatbots.id, name: chatbots.name, filed: chatbots.filed })
      .from(chatbots)
      .where(and(eq(chatbots.accountId, actor.accountId), inArray(chatbots.id, [...new Set(ids)])));
    return new Map(rows.map((r) => [r.id, { name: r.name, filed: r.filed }]));
  },

  async insert(db: Db, actor: Actor, fields: ChatbotFields): Promise<ChatbotRow> {
    const [row] = await db
      .insert(chatbots)
      .values({ ...fields, id: newId(), accountId: actor.accountId })
      .returning();
    if (!row) throw new Error('chatbot insert returned nothing');
    return row;
  },

  async update(db: Db, actor: Actor, id: string, fields: Partial<ChatbotFields>) {
    const [row] = await db.update(chatbots).set(fields).where(scope(actor, id)).returning();
    return row ?? null;
  },

  /**
   * Deletes (files) a chatbot. In the same transaction the chips whose first service it was fall back to human
   * service, and the open conversations it serves go to a person of their department: nothing keeps pointing at
   * a chatbot nobody can open any more. Answers the row and the conversations moved (to announce them).
   */
  file(db: Db, actor: Actor, id: string) {
    return db.transaction(async (tx) => {
      const [row] = await tx.update(chatbots).set({ filed: true }).where(scope(actor, id)).returning();
      if (!row) return null;
      await tx
        .update(chips)
        .set({ redirect: 'human', chatbotId: null })
        .where(and(eq(chips.accountId, actor.accountId), eq(chips.chatbotId, row.id)));
      const moved = await tx
        .update(conversations)
        .set({ isManual: true })
        .where(
          and(
            eq(conversations.accountId, actor.accountId),
            eq(conversations.chatbotType, 'chatbot'),
            eq(conversations.chatbotId, row.id),
            eq(conversations.isManual, false),
            isNull(conversations.finishedAt),
          ),
        )
        .returning({ id: conversations.id });
      const ids = moved.map((m) => m.id);
      // An answer in flight loses its claim: nothing more is sent for the deleted chatbot.
      await resetRuns(tx as Db, 'chatbots', ids);
      return { row, moved: ids };
    });
  },
};
