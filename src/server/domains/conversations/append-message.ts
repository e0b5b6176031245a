// The one operation that appends a message to a conversation, for every writer: the inbound pipeline, the
// attendants' sends, the AI summary and the system notes. The message and what it changes on the
// conversation (last message, waiting response, new, reply window) are written in ONE transaction, so a
// crash never leaves a stored message behind a stale conversation; the socket event goes out after commit.
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { newId } from '../../../shared/ids';
import type { Actor } from '../../access';
import type { Db } from '../../db';
import { insertOnce } from '../../db/insert-once';
import { conversations, messages } from '../../db/schema';
import type { Services } from '../../services';
import { toMessage } from './present';

type MessageRow = typeof messages.$inferSelect;
type ConversationRow = typeof conversations.$inferSelect;

/**
 * What the message changes on its conversation:
 * - customer: the customer wrote: waiting for an answer, and the reply window moves on (official numbers);
 * - team: the team's message: the list's preview and order; it answers the customer (no longer waiting, no
 *   longer new) only once the channel accepts it (answered.ts, from delivery.ts): a failed send does not;
 * - follow_up: an automatic follow-up (jobs/follow-ups.ts): like team, but it keeps the follow-up's clock
 *   where it is (team starts it again, customer stops it);
 * - summary: shown as the list's preview, the list's order unchanged;
 * - none: a note in the timeline (or an ignored contact's message): the conversation is unchanged.
 */
export type ConversationEffect = 'customer' | 'team' | 'follow_up' | 'summary' | 'none';

export interface AppendInput {
  conversation: { id: string; chipId: string; departmentId: string | null };
  message: Omit<typeof messages.$inferInsert, 'id' | 'accountId' | 'conversationId' | 'chipId'>;
  effect: ConversationEffect;
  /** Official numbers: the reply window's new deadline (a customer's message). */
  contextWindow?: Date;
  /** The unique key of this message when it may be stored already (a replayed webhook, a retried send). */
  existing?: SQL;
  /** Announce new_message after commit (default); the caller may announce otherwise (new_conversation). */
  announce?: boolean;
  /**
   * More of the same change, in the same transaction, when the message is new (the inbound auto-tags). It
   * runs before the conversation's update: every writer locks a contact before its conversations.
   */
  alsoWrite?: (tx: Db) => Promise<unknown>;
}

/**
 * True when the conversation's last message is older than `messageId` (or there is none): the pointer only
 * moves forward, whatever order concurrent appends commit in. It reads the conversation's own columns, not
 * the last message's row: an update that waited for another one's lock sees the row that one wrote, while
 * a subquery would still see its older snapshot (PostgreSQL, read committed).
 */
const isNewer = (messageId: string) =>
  sql`(coalesce(${conversations.lastMessageAt}, '-infinity'::timestamptz), coalesce(${conversations.lastMessageId}, '')) < (select created_at, id from messages where id = ${messageId})`;

type Effect = Pick<AppendInput, 'conversation' | 'effect' | 'contextWindow'>;

function conversationChange(input: Effect, row: MessageRow) {
  const newer = isNewer(row.id);
  const pointer = {
    lastMessageId: sql`case when ${newer} then ${row.id} else ${conversations.lastMessageId} end`,
  };
  const moved = {
    ...pointer,
    lastMessageAt: sql`case when ${newer} then (select created_at from messages where id = ${row.id}) else ${conversations.lastMessageAt} end`,
  };
  // The automatic follow-up's clock (jobs/follow-ups.ts), only for the conversation's newest message: the
  // business's message starts it (its anchor, to the millisecond the engine compares it with), the customer's
  // stops it. Both in this transaction: a reply is never missed by a follow-up claimed after it.
  const followUp = (anchor: SQL) => ({
    followUpAnchor: sql`case when ${newer} then ${anchor} else ${conversations.followUpAnchor} end`,
    followUpStep: sql`case when ${newer} then 0 else ${conversations.followUpStep} end`,
    followUpLastAt: sql`case when ${newer} then null else ${conversations.followUpLastAt} end`,
    followUpDueAt: sql`case when ${newer} then null else ${conversations.followUpDueAt} end`,
  });
  switch (input.effect) {
    case 'customer':
      return {
        ...moved,
        ...followUp(sql`null`),
        waitingResponse: true,
        ...(input.contextWindow && {
          contextWindow: sql`greatest(${conversations.contextWindow}, ${input.contextWindow})`,
        }),
      };
    case 'team':
      return {
        ...moved,
        ...followUp(sql`date_trunc('milliseconds', (select created_at from messages where id = ${row.id}))`),
      };
    case 'follow_up':
      return moved;
    case 'summary':
      return pointer;
    case 'none':
      return null;
  }
}

/**
 * Writes the message's change on its conversation; a repair applies it only if it was never applied. Answers
 * the conversation as that write left it (under its row lock), or null when nothing was written.
 */
async function applyToConversation(
  db: Db,
  input: Effect,
  row: MessageRow,
  repair: boolean,
): Promise<ConversationRow | null> {
  const set = conversationChange(input, row);
  if (!set) return null;
  const [updated] = await db
    .update(conversations)
    .set(set)
    .where(and(eq(conversations.id, input.conversation.id), repair ? isNewer(row.id) : undefined))
    .returning();
  return updated ?? null;
}

/**
 * Stores the message and updates its conversation in one transaction. With `existing`, a message already
 * stored under that key is answered (created: false) and its conversation repaired if it had missed it.
 */
export async function appendMessage(
  services: Pick<Services, 'db' | 'realtime'>,
  actor: Actor,
  input: AppendInput,
): Promise<{ row: MessageRow; created: boolean; conversation: ConversationRow | null }> {
  const { db, realtime } = services;
  const { conversation } = input;
  const result = await db.transaction(async (tx) => {
    const values = {
      ...input.message,
      id: newId(),
      accountId: actor.accountId,
      conversationId: conversation.id,
      chipId: conversation.chipId,
    };
    const stored = await insertOnce(tx as Db, messages, values, input.existing);
    if (!stored) throw new Error('message insert returned nothing');
    if (stored.created && input.alsoWrite) await input.alsoWrite(tx as Db);
    // Already stored (a replay, a retry): its conversation is repaired if it missed it. A key reused in
    // another conversation (a message_id sent twice elsewhere) changes nothing here.
    const changed =
      stored.created || stored.row.conversationId === conversation.id
        ? await applyToConversation(tx as Db, input, stored.row, !stored.created)
        : null;
    return { ...stored, conversation: changed };
  });
  if (result.created && input.announce !== false) {
    realtime.toConversation(actor.accountId, conversation.departmentId, {
      type: 'new_message',
      message: { conversation_id: conversation.id, message: toMessage(result.row) },
    });
  }
  return result;
}

/**
 * A replay of a stored message (a webhook sent again): the conversation gets the change it missed, if it
 * ever did (a message stored before appends were one transaction). Answers whether anything changed.
 */
export const repairConversation = async (db: Db, input: Effect, row: MessageRow) =>
  (await applyToConversation(db, input, row, true)) !== null;
