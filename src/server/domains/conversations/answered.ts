// When a conversation counts as answered (spec 2 §4: waiting_response becomes false when the user *sends* a
// message; is_new likewise). Only a user answers: an engine's own message (a flow's, an AI chatbot's and its
// transfer message, a follow-up, a campaign, the public API, a webhook) leaves the customer waiting, so a
// conversation an engine hands over shows as 'AGUARDANDO RESPOSTA' to the team. A team message is stored pending and only answers the customer once the channel accepts it: a
// send that fails (a disconnected chip, a provider error, a send given up) leaves the customer waiting, and a
// send the provider fails later (a Cloud API 'failed' status) gives the wait back when nothing else answered.
// Both run inside the transaction that records the send's outcome. They lock the conversation first, then read
// the messages in a statement of their own: on PostgreSQL (read committed) that read sees every customer
// message committed before the lock was granted, and a customer message still being appended waits for the
// lock and sets waiting_response after us.
import { and, eq, gt, gte, inArray, notInArray, sql } from 'drizzle-orm';
import { MESSAGE_STATUS } from '../../../shared/constants';
import type { Db } from '../../db';
import { conversations, messages } from '../../db/schema';
import type { Sender } from './sender';

type MessageRow = typeof messages.$inferSelect;

/** The one rule: a message answers the customer when a user sends it (their own, or scheduled by them). */
export const answersCustomer = (sender: Sender): boolean => !('chatbot' in sender) && !sender.campaign;

/** Whether this stored send answers once accepted (as its sender was judged when it was stored). */
export const sendAnswers = (row: MessageRow): boolean => row.outbound?.answers ?? row.origin === 'user';

const lock = (tx: Db, conversationId: string) =>
  tx
    .select({ id: conversations.id })
    .from(conversations)
    .where(eq(conversations.id, conversationId))
    .for('update');

/**
 * The channel accepted a team message: the conversation is no longer new, and no longer waiting unless the
 * customer wrote after that message. Answers whether the conversation changed.
 */
export async function markAnswered(tx: Db, sent: MessageRow): Promise<boolean> {
  await lock(tx, sent.conversationId);
  const [newer] = await tx
    .select({ id: messages.id })
    .from(messages)
    .where(
      and(
        eq(messages.conversationId, sent.conversationId),
        eq(messages.origin, 'customer'),
        // The sent row's own time, to the microsecond (a JS Date keeps milliseconds only).
        gt(messages.createdAt, sql`(select created_at from messages where id = ${sent.id})`),
      ),
    )
    .limit(1);
  const changed = await tx
    .update(conversations)
    .set({ isNew: false, ...(!newer && { waitingResponse: false }) })
    .where(
      and(
        eq(conversations.id, sent.conversationId),
        newer
          ? eq(conversations.isNew, true)
          : sql`(${conversations.isNew} or ${conversations.waitingResponse})`,
      ),
    )
    .returning({ id: conversations.id });
  return changed.length > 0;
}

/**
 * A team message the channel had accepted failed afterwards: the customer waits again when the last message
 * that did reach one side or the other is the customer's. Answers whether the conversation changed.
 */
export async function reopenUnanswered(tx: Db, failed: MessageRow): Promise<boolean> {
  if (failed.origin !== 'user') return false;
  await lock(tx, failed.conversationId);
  const [last] = await tx
    .select({ origin: messages.origin })
    .from(messages)
    .where(
      and(
        eq(messages.conversationId, failed.conversationId),
        inArray(messages.origin, ['customer', 'user']),
        // Reached the other side: a pending send has not answered yet (its outcome decides then).
        gte(messages.status, MESSAGE_STATUS.sent),
        notInArray(messages.type, ['summary', 'system']),
      ),
    )
    .orderBy(sql`${messages.createdAt} desc, ${messages.id} desc`)
    .limit(1);
  if (last?.origin !== 'customer') return false;
  const changed = await tx
    .update(conversations)
    .set({ waitingResponse: true })
    .where(and(eq(conversations.id, failed.conversationId), eq(conversations.waitingResponse, false)))
    .returning({ id: conversations.id });
  return changed.length > 0;
}
