// The offline layer as the app uses it: the page's outbox bound to the API client, and the signed-in session's
// sync engine (src/app/offline/sync-engine.ts), started by the composition root (src/app/signed-in.tsx) with the
// features' adapters.
import type { QueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ApiError, api, classifyFailure, isNetworkFailure, session, upload } from '@/app/lib/api';
import { onConversationEvent } from '@/app/lib/conversation-events';
import { notifyError } from '@/app/lib/notify';
import type { Message } from '@/shared/contract/conversations';
import { messages } from '@/shared/messages';
import { forgetConversations } from './cache';
import { offlineDb, wipe } from './db';
import { createOutbox } from './outbox';
import { createSyncEngine, currentSync } from './sync-engine';

export { useOnline } from '@/app/lib/online';
export { classifyFailure, isNetworkFailure };

type OutboxListener = {
  /** The server has it sent, or failed with its reason: it left the outbox. */
  sent(conversationId: string, message: Message): void;
  /** The server has it, still pending (its send was cut off and is being resumed): it stays in the outbox. */
  pending?(conversationId: string, message: Message): void;
  rejected(conversationId: string, messageId: string, err: unknown): void;
  queued?(messageId: string): void;
};
const outboxListeners = new Set<OutboxListener>();

/** The app's outbox (one per page: the device's table; the session's engine kicks and stops it). */
export const outbox = createOutbox({
  db: offlineDb(),
  transport: {
    upload: (file, type, fileName) =>
      upload('upload-file', file, fileName, { type, filename: fileName }).catch((err: unknown) => {
        // Spec 2 §8: an image the server refused says so in the spec's words (a retry stays a retry).
        if (type === 'image' && err instanceof ApiError && classifyFailure(err) === 'reject')
          throw new ApiError(messages.imageUploadFailed, err.status);
        throw err;
      }),
    send: (payload) => api('send-conversation-message', payload),
    classify: classifyFailure,
  },
  onSent(entry, message) {
    for (const l of outboxListeners) l.sent(entry.conversation_id, message);
  },
  onPending(entry, message) {
    for (const l of outboxListeners) l.pending?.(entry.conversation_id, message);
  },
  onRejected(entry, err) {
    for (const l of outboxListeners) l.rejected(entry.conversation_id, entry.message_id, err);
    notifyError(err);
  },
  onQueued(entry) {
    void requestBackgroundSync();
    for (const l of outboxListeners) l.queued?.(entry.message_id);
  },
});

/** The pane's hooks into the outbox: the sent message replaces the provisional one, a refusal removes it. */
export function onOutbox(listener: OutboxListener) {
  outboxListeners.add(listener);
  return () => {
    outboxListeners.delete(listener);
  };
}

/** Asks the service worker to send the outbox when the connection comes back (Background Sync). */
export async function requestBackgroundSync() {
  try {
    const reg = await navigator.serviceWorker?.getRegistration();
    const sync = (
      reg as (ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }) | undefined
    )?.sync;
    await sync?.register('outbox');
  } catch {
    // No Background Sync here: 'online' and the socket's reconnect do the same while the page is open.
  }
}

/** Starts the sync engine of the signed-in user's session (the caller registers the adapters, and disposes it). */
export function startSync(client: QueryClient, userId: string) {
  return createSyncEngine({
    client,
    userId,
    db: offlineDb(),
    outbox,
    token: () => session.token,
    // A message the server held pending is settled by its message_updated (sent or failed), at once.
    onSettled: (settle) =>
      onConversationEvent((event) => {
        if (event.type === 'message_updated' || event.type === 'new_message') settle(event.message.message);
      }),
    onWorkerSync(kick) {
      const fromWorker = (event: MessageEvent) => {
        if ((event.data as { type?: string } | null)?.type === 'outbox-sync') kick();
      };
      navigator.serviceWorker?.addEventListener('message', fromWorker);
      return () => navigator.serviceWorker?.removeEventListener('message', fromWorker);
    },
  });
}

/** The socket reconnected: the session's engine sends what waits and catches up. */
export const reconnected = () => currentSync()?.reconnected();

/** Takes conversations off the device with their messages (not the outbox): the user may no longer see them. */
export function forgetOffline(ids: readonly string[]) {
  return currentSync()?.forget(ids) ?? forgetConversations(offlineDb(), ids).catch(() => undefined);
}

/** Sign-out: the session's engine stops, and nothing of this user stays on the device. */
export async function wipeOffline() {
  currentSync()?.dispose();
  outbox.stop();
  await wipe(offlineDb());
}

/** How many messages wait in the outbox (live). */
export function useOutboxWaiting() {
  const [waiting, setWaiting] = useState(0);
  useEffect(() => outbox.subscribe(setWaiting), []);
  return waiting;
}
