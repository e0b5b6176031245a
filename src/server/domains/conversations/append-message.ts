// The one operation that appends a message to a conversation, for every writer: the inbound pipeline, the
// attendants' sends, the AI summary and the system notes. The message and what it changes on the
// conversation (last message, waiting response, new, reply window) are written in ONE transaction, so a
// crash never leaves a stored message behind a stale conversation; the socket event goes out after commit.
import { newId } from '../../../shared/ids';
import { type Actor, systemActor } from '../../access';
import type { Db } from '../../db';
import type { Services } from '../../services';
import { type AppendEffect, appendRepo, type ConversationEffect } from './append.repo';
import type { ConversationRow, MessageKey, MessageRow, NewMessageRow } from './messages.repo';
import { toMessage } from './present';

export type { ConversationEffect };

export interface AppendInput {
  conversation: { id: string; chipId: string; departmentId: string | null };
  message: Omit<NewMessageRow, 'id' | 'accountId' | 'conversationId' | 'chipId'>;
  effect: ConversationEffect;
  /** Official numbers: the reply window's new deadline (a customer's message). */
  contextWindow?: Date;
  /** The unique key of this message when it may be stored already (a replayed webhook, a retried send). */
  existing?: MessageKey;
  /** Announce new_message after commit (default); the caller may announce otherwise (new_conversation). */
  announce?: boolean;
  /**
   * More of the same change, in the same transaction, when the message is new (the inbound auto-tags). It
   * runs before the conversation's update: every writer locks a contact before its conversations.
   */
  alsoWrite?: (tx: Db) => Promise<unknown>;
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
  const values = {
    ...input.message,
    id: newId(),
    accountId: actor.accountId,
    conversationId: conversation.id,
    chipId: conversation.chipId,
  };
  const result =
    (!input.alsoWrite && (await appendRepo.inOneStatement(db, actor, input, values))) ||
    (await db.transaction(async (tx) => {
      const stored = await appendRepo.insertOnce(tx as Db, actor, values, input.existing);
      if (!stored) throw new Error('message insert returned nothing');
      if (stored.created && input.alsoWrite) await input.alsoWrite(tx as Db);
      // Already stored (a replay, a retry): its conversation is repaired if it missed it. A key reused in
      // another conversation (a message_id sent twice elsewhere) changes nothing here.
      const changed =
        stored.created || stored.row.conversationId === conversation.id
          ? await appendRepo.applyToConversation(tx as Db, actor, input, stored.row, !stored.created)
          : null;
      return { ...stored, conversation: changed };
    }));
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
export const repairConversation = async (db: Db, input: AppendEffect, row: MessageRow) =>
  (await appendRepo.applyToConversation(db, systemActor(row.accountId, 'pipeline'), input, row, true)) !==
  null;
