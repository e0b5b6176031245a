// The bubble a send shows before the server has it: built from the draft, or from its outbox entry.
import type { OutboxEntry } from '@/app/offline/db';
import type { MediaType, Message } from '@/shared/contract/conversations';

/** A message as the pane shows it: the server's, or a send's bubble before the server has it. */
export type PaneMessage = Message & { provisional?: true };

export interface Attachment {
  file: File;
  type: MediaType;
  /** An object URL for images, shown before the upload ends. */
  preview: string | null;
}

/** A file the server already keeps (a media library item): sent by its URL, not uploaded again. */
export interface StoredMedia {
  type: MediaType;
  url: string;
  file_name: string;
}

export function provisionalMessage(
  conversationId: string,
  messageId: string,
  body: string,
  userId: string,
  attachment: Attachment | null,
  stored?: StoredMedia,
  ptt = false,
): Message {
  if (stored) {
    const base = provisionalMessage(conversationId, messageId, body, userId, null, undefined, ptt);
    return { ...base, type: stored.type, media_url: stored.url, file_name: stored.file_name };
  }
  return {
    _id: `local-${messageId}`,
    conversation_id: conversationId,
    message: body,
    origin: 'user',
    type: attachment?.type ?? 'text',
    media_url: attachment?.preview ?? null,
    file_name: attachment ? attachment.file.name : null,
    ptt,
    canonical_url: null,
    deleted: false,
    status: 0,
    failure: null,
    created: new Date().toISOString(),
    user: userId,
    message_id: messageId,
    platform_message_id: null,
    event: null,
    reply_message: null,
    location: null,
  };
}

/** The pending bubble of an outbox entry (after a reload, the entry is all that is left of the send). */
export function pendingMessage(entry: OutboxEntry): PaneMessage {
  const isImage = entry.file?.type === 'image';
  return {
    ...provisionalMessage(
      entry.conversation_id,
      entry.message_id,
      entry.body,
      entry.user_id,
      null,
      undefined,
      entry.ptt === true,
    ),
    type: entry.file?.type ?? 'text',
    media_url: entry.uploaded?.url ?? (isImage && entry.file ? URL.createObjectURL(entry.file.blob) : null),
    file_name: entry.file?.file_name ?? null,
    created: entry.created,
    provisional: true,
  };
}
