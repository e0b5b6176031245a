// Sending from the command bar: the message shows at once as provisional (a clock), and goes through the
// device's outbox (src/app/offline/outbox.ts) under a message_id named once, before the first try, so a
// retry after a lost answer sends it once. A send the server refused leaves the pane and says why (spec 2 §4).
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { notifyError } from '@/app/lib/notify';
import { isOnline } from '@/app/lib/online';
import { useCurrentUser } from '@/app/lib/user';
import { onOutbox, outbox, requestBackgroundSync } from '@/app/offline/app-offline';
import { newId } from '@/shared/ids';
import { previewOwnSend } from '../data/conversations';
import { addProvisional, dropProvisional, putMessage } from '../data/messages';
import { type Attachment, provisionalMessage, type StoredMedia } from '../data/provisional';

export interface Draft {
  text: string;
  attachment: Attachment | null;
  stored?: StoredMedia;
  /** Audio recorded in the app: sent as a voice note. */
  ptt?: boolean;
}

/** The signature as the server applies it (spec 2 §6): the user's name in bold before the text. */
export const signed = (text: string, name: string, signature: boolean) =>
  signature && text ? `*${name}*:\n${text}` : text;

/**
 * Sends through the outbox: the provisional message shows at once and the draft is written to the device's
 * outbox under a message_id named there, so a retry (now, after a reload, or from the service worker) sends
 * it once. Answers true when the server stored it or it waits in the outbox for the network; false when the
 * server refused it (the message then leaves the pane and the error shows, spec 2 §4).
 */
export async function sendDraft(
  client: QueryClient,
  conversationId: string,
  draft: Draft,
  user: { _id: string; name: string; signature: boolean },
): Promise<boolean> {
  const text = draft.text.trim();
  const { attachment } = draft;
  // Only audio can be a voice note (the server ignores the flag on anything else too).
  const ptt = draft.ptt === true && (attachment?.type ?? draft.stored?.type) === 'audio';
  const messageId = newId();
  const provisional = provisionalMessage(
    conversationId,
    messageId,
    signed(text, user.name, user.signature),
    user._id,
    attachment,
    draft.stored,
    ptt,
  );
  addProvisional(client, provisional);
  previewOwnSend(client, provisional);
  const settled = new Promise<boolean>((resolve) => {
    const stop = onOutbox({
      sent(_, message) {
        if (message.message_id !== messageId) return;
        stop();
        putMessage(client, message);
        resolve(true);
      },
      // Stored on the server, its send still under way: shown as the server has it (a clock).
      pending(_, message) {
        if (message.message_id !== messageId) return;
        putMessage(client, message);
        resolve(true);
      },
      rejected(_, id) {
        if (id !== messageId) return;
        stop();
        dropProvisional(client, conversationId, messageId);
        resolve(false);
      },
      queued(id) {
        if (id === messageId) resolve(true);
      },
    });
  });
  try {
    await outbox.enqueue({
      message_id: messageId,
      conversation_id: conversationId,
      user_id: user._id,
      text,
      body: provisional.message,
      file: attachment
        ? { blob: attachment.file, type: attachment.type, file_name: attachment.file.name }
        : null,
      uploaded: draft.stored ?? null,
      ...(ptt && { ptt }),
      created: provisional.created,
    });
  } catch (err) {
    // The device could not store it (no IndexedDB): nothing was sent.
    dropProvisional(client, conversationId, messageId);
    notifyError(err);
    return false;
  }
  if (!isOnline()) {
    void requestBackgroundSync();
    return true;
  }
  return settled;
}

/** Stable while the user and conversation are: the composer does not re-render when messages arrive. */
export function useSendMessage(conversationId: string) {
  const client = useQueryClient();
  const { _id, name, config } = useCurrentUser();
  const signature = config.user_signature;
  // Sends that were waiting from before a reload land in the pane too (or leave it, when refused).
  useEffect(
    () =>
      onOutbox({
        sent: (_, message) => putMessage(client, message),
        pending: (_, message) => putMessage(client, message),
        rejected: (conversation, messageId) => dropProvisional(client, conversation, messageId),
      }),
    [client],
  );
  return useCallback(
    (draft: Draft) => sendDraft(client, conversationId, draft, { _id, name, signature }),
    [client, conversationId, _id, name, signature],
  );
}
