// Sending from the command bar: the message shows at once as provisional, its file is uploaded, and the send
// is made under a message_id named once, before the first try, so a retry after a lost answer sends it
// once. A send the server refused leaves the pane and says why (spec 2 §4).
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { MediaType, Message } from '../../../../shared/contract/conversations';
import { newId } from '../../../../shared/ids';
import { ApiError, api, upload } from '../../../lib/api';
import { notifyError } from '../../../lib/notify';
import { useCurrentUser } from '../../../lib/user';
import { addProvisional, dropProvisional, putMessage } from '../data/messages';

export interface Attachment {
  file: File;
  type: MediaType;
  /** An object URL for images, shown before the upload ends. */
  preview: string | null;
}

export interface Draft {
  text: string;
  attachment: Attachment | null;
}

const RETRIES = 2;
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Tries again only when the answer was lost on the way (no status): anything the server said is final. */
export async function withRetry<T>(work: () => Promise<T>, delay = 1000): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 0) || attempt >= RETRIES) throw err;
      await wait(delay * 2 ** attempt);
    }
  }
}

/** The signature as the server applies it (spec 2 §6): the user's name in bold before the text. */
export const signed = (text: string, name: string, signature: boolean) =>
  signature && text ? `*${name}*:\n${text}` : text;

export function provisionalMessage(
  conversationId: string,
  messageId: string,
  body: string,
  userId: string,
  attachment: Attachment | null,
): Message {
  return {
    _id: `local-${messageId}`,
    conversation_id: conversationId,
    message: body,
    origin: 'user',
    type: attachment?.type ?? 'text',
    media_url: attachment?.preview ?? null,
    file_name: attachment ? attachment.file.name : null,
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

export async function sendDraft(
  client: QueryClient,
  conversationId: string,
  draft: Draft,
  user: { _id: string; name: string; signature: boolean },
): Promise<boolean> {
  const text = draft.text.trim();
  const { attachment } = draft;
  const messageId = newId();
  addProvisional(
    client,
    provisionalMessage(
      conversationId,
      messageId,
      signed(text, user.name, user.signature),
      user._id,
      attachment,
    ),
  );
  try {
    let media: { type: MediaType; url: string; file_name: string } | undefined;
    if (attachment) {
      const file = attachment.file;
      const stored = await withRetry(() =>
        upload('upload-file', file, file.name, { type: attachment.type, filename: file.name }),
      );
      media = { type: attachment.type, url: stored.url, file_name: stored.file_name };
    }
    const sent = await withRetry(() =>
      api('send-conversation-message', {
        conversation_id: conversationId,
        message_id: messageId,
        text,
        media,
      }),
    );
    putMessage(client, sent);
    return true;
  } catch (err) {
    dropProvisional(client, conversationId, messageId);
    notifyError(err);
    return false;
  } finally {
    // The bubble shows the server's copy now (or is gone): the local preview is no longer needed.
    if (attachment?.preview) {
      const url = attachment.preview;
      setTimeout(() => URL.revokeObjectURL(url), 5000);
    }
  }
}

/** Stable while the user and conversation are: the composer does not re-render when messages arrive. */
export function useSendMessage(conversationId: string) {
  const client = useQueryClient();
  const { _id, name, config } = useCurrentUser();
  const signature = config.user_signature;
  return useCallback(
    (draft: Draft) => sendDraft(client, conversationId, draft, { _id, name, signature }),
    [client, conversationId, _id, name, signature],
  );
}
