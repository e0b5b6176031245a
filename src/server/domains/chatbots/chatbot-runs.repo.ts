// The AI chatbot engine's statements (engine.ts is their one caller): the conversation's position and claim,
// the customer input and history it answers, the contact, the reply already stored, and the sweep. A reply's
// job names only its conversation, so the reads that find it (and the sweep over every account) act as the
// platform's job; once the conversation is read, the engine acts as the system of its account. Reads and
// writes by conversation id stay by id: its claim (chatbot_lease_until) names the holder, not the account.
import { and, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { ChatbotContext } from '../../../shared/contract/chatbots';
import type { Actor, PlatformJob } from '../../access';
import type { Db } from '../../db';
import { chatbots, contacts, conversations, messages } from '../../db/schema';
import { claimsRepo } from '../conversations/claims.repo';
import type { ConversationChange } from '../conversations/conversations.repo';
import type { ConversationRow, MessageRow } from '../conversations/messages.repo';

/** The engine before it knows the conversation's account (a job names only the conversation), or after. */
export type ChatbotEngineActor = Actor | PlatformJob;

/** Served by its AI chatbot: not taken by a person, open, naming a chatbot. */
const chatbotServed = and(
  eq(conversations.chatbotType, 'chatbot'),
  eq(conversations.isManual, false),
  isNull(conversations.finishedAt),
  sql`${conversations.chatbotId} is not null`,
);

const iso = (d: Date) => d.toISOString();

/** The origin and message_id of the conversation's last message, for the sweep. */
const lastMessage = sql`(select m.origin || ':' || coalesce(m.message_id, '') from ${messages} m where m.id = ${conversations.lastMessageId})`;

export const chatbotRunsRepo = {
  /** Takes the conversation's chatbot claim for `seconds`, when free or run out and the chatbot serves it. */
  claim: (db: Db, _actor: ChatbotEngineActor, conversationId: string, seconds: number) =>
    claimsRepo.claim(db, 'chatbotLeaseUntil', conversationId, seconds, chatbotServed),

  async conversation(db: Db, _actor: ChatbotEngineActor, conversationId: string) {
    const [c] = await db.select().from(conversations).where(eq(conversations.id, conversationId));
    return c as ConversationRow | undefined;
  },

  /** The conversation, while this claim holds it. */
  async claimed(db: Db, _actor: ChatbotEngineActor, conversationId: string, lease: Date) {
    const [c] = await db
      .select()
      .from(conversations)
      .where(and(eq(conversations.id, conversationId), eq(conversations.chatbotLeaseUntil, lease)));
    return c as ConversationRow | undefined;
  },

  /** The served conversation with its last message and its chatbot's response delay. */
  async withLastMessage(db: Db, _actor: ChatbotEngineActor, conversationId: string) {
    const [row] = await db
      .select({ conversation: conversations, last: messages, delay: chatbots.responseDelay })
      .from(conversations)
      .innerJoin(messages, eq(messages.id, conversations.lastMessageId))
      .innerJoin(chatbots, eq(chatbots.id, conversations.chatbotId))
      .where(and(eq(conversations.id, conversationId), chatbotServed));
    return row;
  },

  /**
   * The position (and `set`, more of the same change), renewing the claim for `seconds`, while the holder
   * holds it and the chatbot serves: answers the new claim, or null when it was lost.
   */
  async advance(
    tx: Db,
    _actor: ChatbotEngineActor,
    conversationId: string,
    lease: Date,
    ctx: ChatbotContext,
    set: ConversationChange,
    seconds: number,
  ): Promise<Date | null> {
    const [row] = await tx
      .update(conversations)
      .set({ chatbotContext: ctx, ...set, chatbotLeaseUntil: claimsRepo.leaseFor(seconds) })
      .where(
        and(eq(conversations.id, conversationId), eq(conversations.chatbotLeaseUntil, lease), chatbotServed),
      )
      .returning({ lease: conversations.chatbotLeaseUntil });
    return row?.lease ?? null;
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

  /** Served conversations whose last message is the customer's, 90 s old, nobody on it, no retry waiting. */
  async lost(db: Db, _actor: PlatformJob, limit: number) {
    const rows = await db
      .select({ id: conversations.id })
      .from(conversations)
      .where(
        and(
          chatbotServed,
          or(isNull(conversations.chatbotLeaseUntil), lt(conversations.chatbotLeaseUntil, sql`now()`)),
          sql`${lastMessage} like 'customer:%'`,
          // Its own job is due by then (the longest response delay is a minute): only a lost one is replaced.
          lt(conversations.lastMessageAt, sql`now() - interval '90 seconds'`),
          sql`coalesce((${conversations.chatbotContext}->>'retry_at')::timestamptz, '-infinity') <= now()`,
        ),
      )
      .limit(limit);
    return rows.map((r) => r.id);
  },
};
