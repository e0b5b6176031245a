// The AI features' rows: the account's monthly units (ai_usage), the per-conversation run locks (ai_runs) and
// the messages a summary or a follow-up reads, always through the actor's account.
import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Actor } from '../../access';
import type { Db } from '../../db';
import { aiRuns, aiUsage, messages } from '../../db/schema';

export type AiKind = 'summary' | 'follow_up';
export type AiMessageRow = typeof messages.$inferSelect;

const month = (d = new Date()) => d.toISOString().slice(0, 7);
const usageColumn = (kind: AiKind) => (kind === 'summary' ? aiUsage.summaries : aiUsage.followUps);
const usageKey = (kind: AiKind) => (kind === 'summary' ? 'summaries' : 'followUps');

export const aiRepo = {
  /** Counts one unit of this month, unless `max` are already used: answers the units used, or null. */
  async spendUnit(db: Db, actor: Actor, kind: AiKind, max: number): Promise<number | null> {
    const column = usageColumn(kind);
    const rows = await db
      .insert(aiUsage)
      .values({ accountId: actor.accountId, month: month(), [usageKey(kind)]: 1 })
      .onConflictDoUpdate({
        target: [aiUsage.accountId, aiUsage.month],
        set: { [usageKey(kind)]: sql`${column} + 1` },
        setWhere: sql`${column} < ${max}`,
      })
      .returning({ used: column });
    return rows[0]?.used ?? null;
  },

  async refundUnit(db: Db, actor: Actor, kind: AiKind) {
    const column = usageColumn(kind);
    await db
      .update(aiUsage)
      .set({ [usageKey(kind)]: sql`greatest(${column} - 1, 0)` })
      .where(and(eq(aiUsage.accountId, actor.accountId), eq(aiUsage.month, month())));
  },

  /**
   * Takes the conversation's lock for `kind` (the caller has checked the actor sees the conversation); a run
   * started before `staleBefore` is a crashed one and gives way. Answers false when another run holds it.
   */
  async takeRun(db: Db, conversationId: string, kind: AiKind, staleBefore: Date): Promise<boolean> {
    const mine = and(eq(aiRuns.conversationId, conversationId), eq(aiRuns.kind, kind));
    await db.delete(aiRuns).where(and(mine, lt(aiRuns.startedAt, staleBefore)));
    const taken = await db.insert(aiRuns).values({ conversationId, kind }).onConflictDoNothing().returning();
    return taken.length > 0;
  },

  async releaseRun(db: Db, conversationId: string, kind: AiKind) {
    await db.delete(aiRuns).where(and(eq(aiRuns.conversationId, conversationId), eq(aiRuns.kind, kind)));
  },

  /** The conversation's last `limit` messages of those types, oldest first. */
  async lastMessages(
    db: Db,
    actor: Actor,
    conversationId: string,
    limit: number,
    types: AiMessageRow['type'][],
  ): Promise<AiMessageRow[]> {
    const rows = await db
      .select()
      .from(messages)
      .where(
        and(
          eq(messages.accountId, actor.accountId),
          eq(messages.conversationId, conversationId),
          eq(messages.deleted, false),
          inArray(messages.type, types),
        ),
      )
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(limit);
    return rows.reverse();
  },
};
