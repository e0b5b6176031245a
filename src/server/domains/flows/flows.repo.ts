// The flows of an account (spec 3 §3 Flow). Every query is scoped to the actor's account, so another account's
// flow id behaves as not found. A new flow (create, duplicate, import) is counted against the plan's max_flows
// with the account row locked: two creations at once wait for each other and cannot both pass the limit.
import { and, count, desc, eq, inArray, isNull } from 'drizzle-orm';
import { newId } from '../../../shared/ids';
import { messages } from '../../../shared/messages';
import type { Actor } from '../../access';
import type { Db } from '../../db';
import { accounts, chips, conversations, flows } from '../../db/schema';
import { AppError } from '../../http/errors';

export type FlowRow = typeof flows.$inferSelect;
export type FlowFields = Omit<typeof flows.$inferInsert, 'id' | 'accountId' | 'createdAt' | 'updatedAt'>;

const scope = (actor: Actor, id: string) =>
  and(eq(flows.accountId, actor.accountId), eq(flows.id, id), eq(flows.filed, false));

/** The change that makes a conversation flow-served from the beginning of a flow (conversation-actions' toFlow). */
export const startingFlow = (flowId: string) => ({
  isManual: false,
  chatbotType: 'flow_chatbot' as const,
  chatbotId: null,
  flowId,
  // The engine begins a new run at its next step (flows/engine.ts), whatever position flow_runs holds.
  startFlow: true,
});

export const flowsRepo = {
  /** The account's flows, newest first. */
  list(db: Db, actor: Actor) {
    return db
      .select()
      .from(flows)
      .where(and(eq(flows.accountId, actor.accountId), eq(flows.filed, false)))
      .orderBy(desc(flows.createdAt), desc(flows.id));
  },

  /** A live (not deleted) flow of the account, or null. Also what chips, transfers and schedules point at. */
  async find(db: Db, actor: Actor, id: string): Promise<FlowRow | null> {
    const [row] = await db.select().from(flows).where(scope(actor, id)).limit(1);
    return row ?? null;
  },

  /** Inserts a flow unless the plan's max_flows is reached (then AppError flowLimitReached). */
  insertWithinLimit(db: Db, actor: Actor, fields: FlowFields): Promise<FlowRow> {
    return db.transaction(async (tx) => {
      const [account] = await tx
        .select({ maxFlows: accounts.maxFlows })
        .from(accounts)
        .where(eq(accounts.id, actor.accountId))
        .for('update');
      if (!account) throw new AppError(messages.notFound);
      const [used] = await tx
        .select({ n: count() })
        .from(flows)
        .where(and(eq(flows.accountId, actor.accountId), eq(flows.filed, false)));
      if ((used?.n ?? 0) >= account.maxFlows) throw new AppError(messages.flowLimitReached(account.maxFlows));
      const [row] = await tx
        .insert(flows)
        .values({ ...fields, id: newId(), accountId: actor.accountId })
        .returning();
      if (!row) throw new Error('flow insert returned nothing');
      return row;
    });
  },

  async update(db: Db, actor: Actor, id: string, fields: Partial<FlowFields>): Promise<FlowRow | null> {
    const [row] = await db.update(flows).set(fields).where(scope(actor, id)).returning();
    return row ?? null;
  },

  /**
   * Deletes (files) a flow. The chips whose first service it was fall back to human service in their own
   * department, in the same transaction: a channel never keeps pointing at a flow nobody can open any more.
   */
  file(db: Db, actor: Actor, id: string): Promise<FlowRow | null> {
    return db.transaction(async (tx) => {
      const [row] = await tx.update(flows).set({ filed: true }).where(scope(actor, id)).returning();
      if (!row) return null;
      await tx
        .update(chips)
        .set({ redirect: 'human', flowId: null })
        .where(and(eq(chips.accountId, actor.accountId), eq(chips.flowId, row.id)));
      return row;
    });
  },

  /** Which of these chip ids are chips of the account (deleted ones included: a list may still name them). */
  async chipsOf(db: Db, actor: Actor, ids: readonly string[]) {
    if (!ids.length) return [];
    return db
      .select({ id: chips.id, filed: chips.filed })
      .from(chips)
      .where(and(eq(chips.accountId, actor.accountId), inArray(chips.id, [...ids])));
  },

  /** id → name and whether it is deleted, for the flows these ids name (history's 'Chatbot apagado'). */
  async names(db: Db, actor: Actor, ids: readonly string[]) {
    if (!ids.length) return new Map<string, { name: string; filed: boolean }>();
    const rows = await db
      .select({ id: flows.id, name: flows.name, filed: flows.filed })
      .from(flows)
      .where(and(eq(flows.accountId, actor.accountId), inArray(flows.id, [...new Set(ids)])));
    return new Map(rows.map((r) => [r.id, { name: r.name, filed: r.filed }]));
  },

  /**
   * The account and state of the conversation a flow is to start on, by its id: a start is asked for by id (a
   * transfer, a keyword, a scheduled message, a campaign) before any actor is known.
   */
  async conversationToStart(db: Db, conversationId: string) {
    const [row] = await db
      .select({ accountId: conversations.accountId, finishedAt: conversations.finishedAt })
      .from(conversations)
      .where(eq(conversations.id, conversationId));
    return row ?? null;
  },

  /** Makes the open conversation flow-served from the flow's beginning; false when it is finished. */
  async startOn(tx: Db, actor: Actor, conversationId: string, flowId: string): Promise<boolean> {
    const rows = await tx
      .update(conversations)
      .set(startingFlow(flowId))
      .where(
        and(
          eq(conversations.id, conversationId),
          eq(conversations.accountId, actor.accountId),
          isNull(conversations.finishedAt),
        ),
      )
      .returning({ id: conversations.id });
    return rows.length > 0;
  },
};
