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
import { systemActor } from '../../access';
import type { Db } from '../../db';
import { type MessageRow, messagesRepo } from './messages.repo';
import type { Sender } from './sender';

/** The one rule: a message answers the customer when a user sends it (their own, or scheduled by them). */
export const answersCustomer = (sender: Sender): boolean => !('chatbot' in sender) && !sender.campaign;

/** Whether this stored send answers once accepted (as its sender was judged when it was stored). */
export const sendAnswers = (row: MessageRow): boolean => row.outbound?.answers ?? row.origin === 'user';

/**
 * The channel accepted a team message: the conversation is no longer new, and no longer waiting unless the
 * customer wrote after that message. Answers whether the conversation changed.
 */
export async function markAnswered(tx: Db, sent: MessageRow): Promise<boolean> {
  const actor = systemActor(sent.accountId, 'delivery');
  await messagesRepo.lockConversation(tx, actor, sent.conversationId);
  const newer = await messagesRepo.customerAfter(tx, actor, sent);
  return messagesRepo.markAnswered(tx, actor, sent.conversationId, Boolean(newer));
}

/**
 * A team message the channel had accepted failed afterwards: the customer waits again when the last message
 * that did reach one side or the other is the customer's. Answers whether the conversation changed.
 */
export async function reopenUnanswered(tx: Db, failed: MessageRow): Promise<boolean> {
  if (failed.origin !== 'user') return false;
  const actor = systemActor(failed.accountId, 'delivery');
  await messagesRepo.lockConversation(tx, actor, failed.conversationId);
  const last = await messagesRepo.lastReached(tx, actor, failed.conversationId);
  if (last?.origin !== 'customer') return false;
  return messagesRepo.reopenWaiting(tx, actor, failed.conversationId);
}
