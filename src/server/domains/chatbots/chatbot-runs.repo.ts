// The AI chatbot engine's own statements (engine.ts is their one caller; the claim, the position's writes and
// the release are the skeleton's, conversations/claim.ts): whether it serves, the customer input and history it
// answers, the contact, the reply already stored, and the sweeps. A reply's job names only its conversation, so
// the reads that find it (and the sweeps over every account) act as the platform's job; once the conversation
// is read, the engine acts as the system of its account. Reads by conversation id stay by id: its claim
// (chatbot_runs.lease_until) names the holder, not the account.
import { and, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { ChatbotContext } from '../../../shared/contract/chatbots';
import type { Actor, PlatformJob } from '../../access';
import type { Db } from '../../db';
import { chatbotRuns, chatbots, contacts, conversations, messages } from '../../db/schema';
import { claimsRepo } from '../conversations/claims.repo';
import type { ConversationRow, MessageRow } from '../conversations/messages.repo';

/** The engine before it knows the conversation's account (a job names only the conversation), or after. */
export type ChatbotEngineActor = Actor | PlatformJob;

/** Served by its AI chatbot: not taken by a person, open, naming a chatbot (the engine's `serves`). */
export const chatbotServed = and(
  eq(conversations.chatbotType, 'chatbot'),
  eq(conversations.isManual, false),
  isNull(conversations.finishedAt),
  sql`${conversations.chatbotId} is not null`,
);

const iso = (d: Date) => d.toISOString();

/** The origin and message_id of the conversation's last message, for the sweep. */
const lastMessage = sql`(select m.origin || ':' || coalesce(m.message_id, '') from ${messages} m where m.id = ${conversations.lastMessageId})`;

export const chatbotRunsRepo = {
  async conversation(db: Db, _actor: ChatbotEngineActor, conversationId: string) {
    const [c] = await db.select().from(conversations).where(eq(conversations.id, conversationId));
    return c as ConversationRow | undefined;
  },

  /** Whether this claim still holds the conversation and its chatbot still serves it (right before a send). */
  async holds(db: Db, _actor: ChatbotEngineActor, conversationId: string, lease: Date) {
    const [row] = await db
      .select({ id: conversations.id })
      .from(conversations)
      .innerJoin(chatbotRuns, eq(chatbotRuns.conversationId, conversations.id))
      .where(and(eq(conversations.id, conversationId), eq(chatbotRuns.leaseUntil, lease), chatbotServed));
    return !!row;
  },

  /** The served conversation's last message, its chatbot's response delay and the chatbot's position. */
  async withLastMessage(db: Db, _actor: ChatbotEngineActor, conversationId: string) {
    const [row] = await db
      .select({ last: messages, delay: chatbots.responseDelay, position: chatbotRuns.position })
      .from(conversations)
      .innerJoin(messages, eq(messages.id, conversations.lastMessageId))
      .innerJoin(chatbots, eq(chatbots.id, conversations.chatbotId))
      .leftJoin(chatbotRuns, eq(chatbotRuns.conversationId, conversations.id))
      .where(and(eq(conversations.id, conversationId), chatbotServed));
    return row;
  },

  /** The last message of the team or a chatbot (not a note), and the last customer message up to it. */
  async answeredUpTo(db: Db, _actor: ChatbotEngineActor, conversationId: string) {
    const [reply] = await db
      .select({ at: messages.createdAt, id: messages.id })
      .from(messages)
      .where(
        and(
          eq(messages.conversationId, conversationId),
          sql`${messages.origin} <> 'customer'`,
          sql`${messages.type} not in ('system', 'summary')`,
        ),
      )
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(1);
    if (!reply) return null;
    const [row] = await db
      .select({ at: messages.createdAt, id: messages.id })
      .from(messages)
      .where(
        and(
          eq(messages.conversationId, conversationId),
          eq(messages.origin, 'customer'),
          sql`date_trunc('milliseconds', ${messages.createdAt}) <= ${iso(reply.at)}::timestamptz`,
        ),
      )
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(1);
    return row ?? null;
  },

  /** The customer's messages after `after`, newest first (the last `limit`). */
  inputAfter: (
    db: Db,
    _actor: ChatbotEngineActor,
    conversationId: string,
    after: ChatbotContext['input_after'],
    limit: number,
  ): Promise<MessageRow[]> =>
    db
      .select()
      .from(messages)
      .where(claimsRepo.customerInputAfter(conversationId, after))
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(limit),

  async contact(db: Db, _actor: Actor, contactId: string) {
    const [c] = await db.select().from(contacts).where(eq(contacts.id, contactId));
    return c ?? null;
  },

  /** The conversation's messages up to `newest` (notes and summaries left out), newest first. */
  history: (
    db: Db,
    _actor: Actor,
    conversationId: string,
    newest: Pick<MessageRow, 'createdAt' | 'id'>,
    limit: number,
  ): Promise<MessageRow[]> =>
    db
      .select()
      .from(messages)
      .where(
        and(
          eq(messages.conversationId, conversationId),
          sql`${messages.type} not in ('system', 'summary')`,
          sql`(date_trunc('milliseconds', ${messages.createdAt}), ${messages.id}) <= (${iso(newest.createdAt)}::timestamptz, ${newest.id})`,
        ),
      )
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(limit),

  /** Whether the account stored a message under this message_id (a reply sent before a crash). */
  async stored(db: Db, actor: Actor, messageId: string) {
    const [sent] = await db
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.accountId, actor.accountId), eq(messages.messageId, messageId)))
      .limit(1);
    return !!sent;
  },

  async message(db: Db, _actor: Actor, id: string) {
    const [row] = await db.select().from(messages).where(eq(messages.id, id));
    return row;
  },

  /** Served conversations without a message since `inactiveSince`, or whose finish message was sent. */
  idle: (db: Db, _actor: PlatformJob, inactiveSince: Date, limit: number): Promise<ConversationRow[]> =>
    db
      .select()
      .from(conversations)
      .where(
        and(
          chatbotServed,
          or(
            lt(sql`coalesce(${conversations.lastMessageAt}, ${conversations.createdAt})`, inactiveSince),
            sql`${lastMessage} like 'chatbot:ai-finish-%'`,
          ),
        ),
      )
      .limit(limit),

  /**
   * Served conversations whose last message is the customer's, 90 s old, nobody on it, no retry waiting (the
   * skeleton's `unattended`). No run yet counts as nobody on it.
   */
  async lost(db: Db, _actor: PlatformJob, limit: number) {
    const rows = await db
      .select({ id: conversations.id })
      .from(conversations)
      .leftJoin(chatbotRuns, eq(chatbotRuns.conversationId, conversations.id))
      .where(
        and(
          chatbotServed,
          or(isNull(chatbotRuns.leaseUntil), lt(chatbotRuns.leaseUntil, sql`now()`)),
          sql`${lastMessage} like 'customer:%'`,
          // Its own job is due by then (the longest response delay is a minute): only a lost one is replaced.
          lt(conversations.lastMessageAt, sql`now() - interval '90 seconds'`),
          sql`coalesce(${chatbotRuns.wakeAt}, '-infinity') <= now()`,
        ),
      )
      .limit(limit);
    return rows.map((r) => r.id);
  },
};
