// Rows to the contract's shapes, and the one query that loads a conversation with its contact and last
// message.

import { eq, inArray, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { MESSAGE_STATUS } from '../../../shared/constants';
import type { Contact, Conversation, Message } from '../../../shared/contract/conversations';
import { type AutoFollowUpSetting, followUpApplies } from '../../../shared/rules/follow-up';
import type { Db } from '../../db';
import { contacts, conversations, followUpSettings, messages, users } from '../../db/schema';

type MessageRow = typeof messages.$inferSelect;
type ContactRow = typeof contacts.$inferSelect;
type ConversationRow = typeof conversations.$inferSelect;

export const toMessage = (m: MessageRow): Message => ({
  _id: m.id,
  conversation_id: m.conversationId,
  message: m.deleted ? '' : m.message,
  origin: m.origin,
  source: m.source,
  type: m.type,
  media_url: m.deleted ? null : m.mediaUrl,
  file_name: m.fileName,
  ptt: m.ptt,
  audio_seconds: m.audioSeconds,
  canonical_url: m.canonicalUrl,
  deleted: m.deleted,
  status: m.status,
  // A send waiting for its provider keeps the reason it would fail with: not shown while it may still go.
  failure: m.status === MESSAGE_STATUS.pending ? null : m.failure,
  created: m.createdAt.toISOString(),
  typed_at: m.typedAt?.toISOString() ?? null,
  user: m.userId,
  message_id: m.messageId,
  platform_message_id: m.platformMessageId,
  event: m.event,
  reply_message: m.replyMessage ?? null,
  location: m.deleted ? null : (m.location ?? null),
  interactive: m.deleted ? null : (m.interactive ?? null),
});

export const toContact = (c: ContactRow): Contact => ({
  _id: c.id,
  name: c.name,
  override_name: c.overrideName,
  phone: c.phone,
  tags: c.tags,
  ignore: c.ignore,
  profile_picture: c.profilePicture,
  channel_contact_id: c.channelContactId,
  created: c.createdAt.toISOString(),
});

/**
 * Its chip's automatic follow-up setting (enabled and types), or null when none is saved: a column to add to a
 * select of conversations, handed to toConversation for `follow_up_applies`.
 */
export const chipFollowUp = sql<AutoFollowUpSetting | null>`(select json_build_object('enabled', ${followUpSettings.enabled}, 'types', ${followUpSettings.types}) from ${followUpSettings} where ${followUpSettings.chipId} = ${conversations.chipId})`;

/** The name of who holds it under equal distribution: a column to add to a select of conversations. */
export const assigneeName = sql<
  string | null
>`(select ${users.name} from ${users} where ${users.id} = ${conversations.assignedUserId})`;

/**
 * The conversation as the contract shapes it. `followUp`: its chip's automatic follow-up setting; `assignee`:
 * the name of who holds it (assigneeName).
 */
export const toConversation = (
  c: ConversationRow,
  contact: ContactRow,
  last: MessageRow | null,
  followUp: AutoFollowUpSetting | null = null,
  assignee: string | null = null,
): Conversation => {
  const view = {
    _id: c.id,
    contact: toContact(contact),
    chip: c.chipId,
    chatbot: c.chatbotId,
    chatbot_type: c.chatbotType,
    flow: c.flowId,
    department: c.departmentId,
    created: c.createdAt.toISOString(),
    finished: c.finishedAt?.toISOString() ?? null,
    is_manual: c.isManual,
    is_new: c.isNew,
    waiting_response: c.waitingResponse,
    auto_follow_up: c.autoFollowUp,
    context_window: c.contextWindow?.toISOString() ?? null,
    channel_type: c.channelType,
    last_message: last ? toMessage(last) : null,
    start_flow: c.startFlow,
    assigned_user: c.assignedUserId,
    assigned_user_name: c.assignedUserId ? assignee : null,
  };
  return { ...view, follow_up_applies: followUpApplies(view, followUp) };
};

const lastMessage = alias(messages, 'last_message');

/** A conversation with its contact and last message, as the contract shapes it; null when not found. */
export async function loadConversation(db: Db, conversationId: string): Promise<Conversation | null> {
  const [one] = await loadConversations(db, [conversationId]);
  return one ?? null;
}

/**
 * The one select of conversations as the app shows them (with their contact, last message, follow-up setting
 * and holder), for a load, the list and the catch-up; `at`: the column the catch-up pages by (null for the
 * others). Each row goes through conversationView.
 */
export function selectConversationViews<T = null>(db: Db, at: SQL<T> = sql<T>`null`) {
  return db
    .select({
      conversation: conversations,
      contact: contacts,
      last: lastMessage,
      followUp: chipFollowUp,
      assignee: assigneeName,
      at,
    })
    .from(conversations)
    .innerJoin(contacts, eq(contacts.id, conversations.contactId))
    .leftJoin(lastMessage, eq(lastMessage.id, conversations.lastMessageId));
}

export const conversationView = (r: {
  conversation: ConversationRow;
  contact: ContactRow;
  last: MessageRow | null;
  followUp: AutoFollowUpSetting | null;
  assignee: string | null;
}) => toConversation(r.conversation, r.contact, r.last, r.followUp, r.assignee);

/** Several conversations, as loadConversation shapes each (those not found are left out). */
export async function loadConversations(db: Db, ids: string[]): Promise<Conversation[]> {
  if (!ids.length) return [];
  const rows = await selectConversationViews(db).where(
    ids.length === 1 ? eq(conversations.id, ids[0] as string) : inArray(conversations.id, ids),
  );
  return rows.map(conversationView);
}
