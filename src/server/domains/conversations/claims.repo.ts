// The engines' runs (engine-run.ts is their one caller, claim.ts names the API): each engine's row per
// conversation in its own table (flow_runs, chatbot_runs, follow_up_runs, one shape), its claim, position and
// wake-up, and the condition 'customer input after a mark'. By conversation id alone: the claim names no
// account, its holder is the engine run that took it (the conversation came from the actor's own read).
import { and, eq, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db';
import { chatbotRuns, conversations, flowRuns, followUpRuns, messages } from '../../db/schema';
import type { ConversationChange } from './conversations.repo';
import type { ConversationRow } from './messages.repo';

export type { SQL as Condition } from 'drizzle-orm';

/** The engines that run conversations, each with its table of runs. */
export const RUN_TABLES = { flows: flowRuns, chatbots: chatbotRuns, 'follow-ups': followUpRuns };
export type EngineName = keyof typeof RUN_TABLES;
type RunTable = (typeof RUN_TABLES)[EngineName];

/** An engine's row for a conversation (its position typed by the engine). */
export interface RunRow<P> {
  position: P | null;
  leaseUntil: Date | null;
  wakeAt: Date | null;
}

/** A customer message an engine has handled: its created_at (ISO, to the millisecond) and id. */
export type InputMark = { at: string; id: string } | null;

/** A claim's value: now + `seconds`, to the millisecond (a renewal writes a new one). */
const leaseFor = (seconds: number) =>
  sql`date_trunc('milliseconds', now() + ${`${seconds} seconds`}::interval)`;

const table = (engine: EngineName): RunTable => RUN_TABLES[engine];

/** The conversation, when `serves` holds for it (no condition: any). */
const conversationWhere = (conversationId: string, serves?: SQL) =>
  and(eq(conversations.id, conversationId), serves);

export const claimsRepo = {
  leaseFor,

  /**
   * Takes the engine's claim on the conversation, when free or run out and `serves` holds (a condition on
   * conversations); the row is made on the first claim. Answers the claim's value, or null when taken.
   */
  async claim(
    db: Db,
    engine: EngineName,
    conversationId: string,
    seconds: number,
    serves?: SQL,
  ): Promise<Date | null> {
    const runs = table(engine);
    const [row] = await db
      .insert(runs)
      .select(
        db
          .select({
            conversationId: conversations.id,
            accountId: conversations.accountId,
            position: sql`null::jsonb`.as('position'),
            leaseUntil: leaseFor(seconds).as('lease_until'),
            wakeAt: sql`null::timestamptz`.as('wake_at'),
          })
          .from(conversations)
          .where(conversationWhere(conversationId, serves)),
      )
      .onConflictDoUpdate({
        target: runs.conversationId,
        set: { leaseUntil: sql`excluded.lease_until` },
        setWhere: or(isNull(runs.leaseUntil), lt(runs.leaseUntil, sql`now()`)),
      })
      .returning({ lease: runs.leaseUntil });
    return row?.lease ?? null;
  },

  /** The conversation and the engine's row, while this claim holds it. */
  async held<P>(
    db: Db,
    engine: EngineName,
    conversationId: string,
    lease: Date,
  ): Promise<{ conversation: ConversationRow; run: RunRow<P> } | undefined> {
    const runs = table(engine);
    const [row] = await db
      .select({
        conversation: conversations,
        run: { position: runs.position, leaseUntil: runs.leaseUntil, wakeAt: runs.wakeAt },
      })
      .from(runs)
      .innerJoin(conversations, eq(conversations.id, runs.conversationId))
      .where(and(eq(runs.conversationId, conversationId), eq(runs.leaseUntil, lease)));
    return row as { conversation: ConversationRow; run: RunRow<P> } | undefined;
  },

  /** The engine's row for the conversation, whoever holds it. */
  async run<P>(db: Db, engine: EngineName, conversationId: string): Promise<RunRow<P> | undefined> {
    const runs = table(engine);
    const [row] = await db
      .select({ position: runs.position, leaseUntil: runs.leaseUntil, wakeAt: runs.wakeAt })
      .from(runs)
      .where(eq(runs.conversationId, conversationId));
    return row as RunRow<P> | undefined;
  },

  /**
   * The conversation's change that comes with a step (a redirect, a hand-over), while this claim holds it and
   * `serves` holds: answers the row, or null when the claim was lost. Written before the run's own row (lock
   * order: the conversation, then its runs, as a transfer writes them).
   */
  async change(
    tx: Db,
    engine: EngineName,
    conversationId: string,
    lease: Date,
    set: ConversationChange,
    serves?: SQL,
  ): Promise<ConversationRow | null> {
    const runs = table(engine);
    const [row] = await tx
      .update(conversations)
      .set(set)
      .where(
        and(
          conversationWhere(conversationId, serves),
          sql`exists (select 1 from ${runs} r where r.conversation_id = ${conversationId} and r.lease_until = ${lease.toISOString()}::timestamptz)`,
        ),
      )
      .returning();
    return (row as ConversationRow | undefined) ?? null;
  },

  /**
   * The step's position and wake-up, renewing the claim for `seconds`, while the holder holds it (and
   * `serves` holds for the conversation): answers the new claim, or null when it was lost.
   */
  async advance<P>(
    tx: Db,
    engine: EngineName,
    conversationId: string,
    lease: Date,
    step: { position: P | null; wakeAt: Date | null },
    seconds: number,
    serves?: SQL,
  ): Promise<Date | null> {
    const runs = table(engine);
    const [row] = await tx
      .update(runs)
      .set({ position: step.position as never, wakeAt: step.wakeAt, leaseUntil: leaseFor(seconds) })
      .where(
        and(
          eq(runs.conversationId, conversationId),
          eq(runs.leaseUntil, lease),
          serves
            ? sql`exists (select 1 from ${conversations} where ${conversationWhere(conversationId, serves)})`
            : undefined,
        ),
      )
      .returning({ lease: runs.leaseUntil });
    return row?.lease ?? null;
  },

  /** Lets go of the claim, if it is still this holder's. */
  release: (db: Db, engine: EngineName, conversationId: string, lease: Date) => {
    const runs = table(engine);
    return db
      .update(runs)
      .set({ leaseUntil: null })
      .where(and(eq(runs.conversationId, conversationId), eq(runs.leaseUntil, lease)));
  },

  /** Forgets where the engine stood (a new assignment starts afresh); a claim held meanwhile is lost with it. */
  reset: (tx: Db, engine: EngineName, conversationIds: readonly string[]) => {
    const runs = table(engine);
    return conversationIds.length
      ? tx.delete(runs).where(sql`${runs.conversationId} in ${conversationIds}`)
      : Promise.resolve();
  },

  /** The conversation's customer messages after `after` (all of them when null): an engine's unread input. */
  customerInputAfter: (conversationId: string, after: InputMark) =>
    and(
      eq(messages.conversationId, conversationId),
      eq(messages.origin, 'customer'),
      after
        ? sql`(date_trunc('milliseconds', ${messages.createdAt}), ${messages.id}) > (${after.at}::timestamptz, ${after.id})`
        : undefined,
    ),
};
