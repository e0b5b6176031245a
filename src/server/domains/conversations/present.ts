// Rows to the contract's shapes, and the conversation as the app shows it (its rows from
// conversation-views.repo.ts).
import { MESSAGE_STATUS } from '../../../shared/constants';
import type { Contact, Conversation, Message } from '../../../shared/contract/conversations';
import { type AutoFollowUpSetting, followUpApplies } from '../../../shared/rules/follow-up';
import type { Db } from '../../db';
import {
  type ContactRow,
  type ConversationRow,
  type ConversationViewRow,
  conversationViewsRepo,
  type MessageRow,
} from './conversation-views.repo';

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
 * The conversation as the contract shapes it. `followUp`: its chip's automatic follow-up setting; `assignee`:
 * the name of who holds it.
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

/** A conversation with its contact and last message, as the contract shapes it; null when not found. */
export async function loadConversation(db: Db, conversationId: string): Promise<Conversation | null> {
  const [one] = await loadConversations(db, [conversationId]);
  return one ?? null;
}

export const conversationView = (r: ConversationViewRow) =>
  toConversation(r.conversation, r.contact, r.last, r.followUp, r.assignee);

/**
 * Several conversations, as loadConversation shapes each (those not found are left out). The ids come from
 * rows the caller already reached in its scope.
 */
export async function loadConversations(db: Db, ids: string[]): Promise<Conversation[]> {
  if (!ids.length) return [];
  return (await conversationViewsRepo.byIds(db, ids)).map(conversationView);
}
