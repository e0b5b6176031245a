// The flow engine's statements (engine.ts is their one caller; its claim and position are the engines'
// skeleton's, claims.repo.ts): the conversation and its position, the customer input it reads, the contact and
// tags its steps touch, the keyword trigger and the sweep. A run's job names only its conversation, so the
// reads that find it (and the sweep over every account) act as the platform's job; once the conversation is
// read, the engine acts as the system of its account. Reads and writes by conversation id stay by id: its
// claim (flow_runs.lease_until) names the holder, not the account.
import { and, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { FlowContext } from '../../../shared/contract/flows';
import type { Actor, PlatformJob } from '../../access';
import type { Db } from '../../db';
import { prepared } from '../../db/prepared';
import { accounts, contacts, conversations, flowRuns, flows, messages, tags } from '../../db/schema';
import { dataAfter, tagsAfter } from '../contacts/contacts.repo';
import { claimsRepo } from '../conversations/claims.repo';
import type { ConversationChange } from '../conversations/conversations.repo';
import type { ConversationRow } from '../conversations/messages.repo';

/** The engine before it knows the conversation's account (a job names only the conversation), or after. */
export type FlowEngineActor = Actor | PlatformJob;

/** Served by its flow: a flow chatbot, not taken by a person, open (the engine's `serves`). */
export const flowServed = and(
  eq(conversations.chatbotType, 'flow_chatbot'),
  eq(conversations.isManual, false),
  isNull(conversations.finishedAt),
  sql`${conversations.flowId} is not null`,
);

/** A flow that starts by keyword, as the trigger check reads it. */
export interface KeywordFlow {
  id: string;
  keywords: string[];
  triggerHuman: boolean;
  disabledChips: string[];
}

export const flowRunsRepo = {
  async conversation(db: Db, _actor: FlowEngineActor, conversationId: string) {
    const [c] = await db.select().from(conversations).where(eq(conversations.id, conversationId));
    return c as ConversationRow | undefined;
  },

  /** The conversation and the flow's position in it (none before its first run). */
  async state(db: Db, _actor: FlowEngineActor, conversationId: string) {
    const [row] = await db
      .select({ conversation: conversations, position: flowRuns.position })
      .from(conversations)
      .leftJoin(flowRuns, eq(flowRuns.conversationId, conversations.id))
      .where(eq(conversations.id, conversationId));
    return row as { conversation: ConversationRow; position: FlowContext | null } | undefined;
  },

  /** Whether the conversation's flow run is under way (begun, not ended). */
  async runningPosition(db: Db, _actor: FlowEngineActor, conversationId: string) {
    const [row] = await db
      .select({ id: flowRuns.conversationId })
      .from(flowRuns)
      .where(
        and(
          eq(flowRuns.conversationId, conversationId),
          sql`${flowRuns.position} is not null`,
          sql`${flowRuns.position}->>'ended' is null`,
        ),
      );
    return !!row;
  },

  /** A keyword's start, on an open conversation; whether it was written. */
  async start(tx: Db, _actor: Actor, conversationId: string, set: ConversationChange) {
    const rows = await tx
      .update(conversations)
      .set(set)
      .where(and(eq(conversations.id, conversationId), isNull(conversations.finishedAt)))
      .returning({ id: conversations.id });
    return rows.length > 0;
  },

  /** The first customer message after `after`, in order. */
  async nextInput(
    db: Db,
    _actor: FlowEngineActor,
    conversationId: string,
    after: FlowContext['input_after'],
  ) {
    const [row] = await db
      .select()
      .from(messages)
      .where(claimsRepo.customerInputAfter(conversationId, after))
      .orderBy(messages.createdAt, messages.id)
      .limit(1);
    return row ?? null;
  },

  /** The latest customer message's time and id. */
  async lastInput(db: Db, _actor: Actor, conversationId: string) {
    const [row] = await db
      .select({ at: messages.createdAt, id: messages.id })
      .from(messages)
      .where(and(eq(messages.conversationId, conversationId), eq(messages.origin, 'customer')))
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(1);
    return row ?? null;
  },

  async contact(db: Db, _actor: Actor, contactId: string) {
    const [c] = await db.select().from(contacts).where(eq(contacts.id, contactId));
    return c ?? null;
  },

  /** Of `ids`, the account's tags that are not filed. */
  async liveTagIds(db: Db, actor: Actor, ids: readonly string[]) {
    const rows = await db
      .select({ id: tags.id })
      .from(tags)
      .where(and(eq(tags.accountId, actor.accountId), eq(tags.filed, false), inArray(tags.id, [...ids])));
    return rows.map((t) => t.id);
  },

  /** Adds or removes tags in SQL, like the pipeline's auto-tags: a concurrent change to the tags is kept. */
  changeTags: (tx: Db, _actor: Actor, contactId: string, change: 'add' | 'remove', ids: readonly string[]) =>
    tx
      .update(contacts)
      .set({ tags: tagsAfter(change, ids) })
      .where(eq(contacts.id, contactId)),

  /** Merges variables into the contact's data in SQL. */
  mergeData: (tx: Db, _actor: Actor, contactId: string, data: Readonly<Record<string, unknown>>) =>
    tx
      .update(contacts)
      .set({ data: dataAfter(data) })
      .where(eq(contacts.id, contactId)),

  async timeZone(db: Db, actor: Actor) {
    const [account] = await db
      .select({ zone: accounts.timeZone })
      .from(accounts)
      .where(eq(accounts.id, actor.accountId));
    return account?.zone ?? null;
  },

  /** The account's flows that start by keyword, oldest first. */
  keywordFlows: (db: Db, actor: Actor): Promise<KeywordFlow[]> =>
    prepared(db, 'keyword_flows', (d) =>
      d
        .select({
          id: flows.id,
          keywords: flows.keywords,
          triggerHuman: flows.triggerHuman,
          disabledChips: flows.disabledChips,
        })
        .from(flows)
        .where(
          and(
            eq(flows.accountId, sql.placeholder('account')),
            eq(flows.trigger, true),
            eq(flows.filed, false),
          ),
        )
        .orderBy(flows.createdAt, flows.id)
        .prepare('keyword_flows'),
    ).execute({ account: actor.accountId }),

  /** Flow-served conversations with work and nobody on them (every account). */
  async unattended(db: Db, _actor: PlatformJob, limit: number) {
    const ctx = sql`${flowRuns.position}`;
    const rows = await db
      .select({ id: conversations.id })
      .from(conversations)
      .leftJoin(flowRuns, eq(flowRuns.conversationId, conversations.id))
      .where(
        and(
          flowServed,
          or(isNull(flowRuns.leaseUntil), lt(flowRuns.leaseUntil, sql`now()`)),
          or(
            eq(conversations.startFlow, true),
            and(
              sql`${ctx} is not null`,
              sql`${ctx}->>'ended' is null`,
              or(
                sql`${ctx}->>'waiting' is null`,
                lt(flowRuns.wakeAt, sql`now()`),
                and(
                  sql`${ctx}->>'waiting' = 'reply'`,
                  sql`exists (select 1 from ${messages} m where m.conversation_id = ${conversations.id} and m.origin = 'customer' and (date_trunc('milliseconds', m.created_at), m.id) > (coalesce((${ctx}->'input_after'->>'at')::timestamptz, '-infinity'::timestamptz), coalesce(${ctx}->'input_after'->>'id', '')))`,
                ),
              ),
            ),
          ),
        ),
      )
      .limit(limit);
    return rows.map((r) => r.id);
  },
};
