// The offline layer as the app uses it: the outbox bound to the API client and the query cache, the Dexie
// cache kept as a mirror of the query cache, and the catch-up after a reconnect.
import type { Query, QueryClient } from '@tanstack/react-query';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { ApiError, api, session, upload } from '@/app/lib/api';
import { onConversationEvent } from '@/app/lib/conversation-events';
import { notifyError } from '@/app/lib/notify';
import { queryClient } from '@/app/lib/query';
import type { Conversation, Message } from '@/shared/contract/conversations';
import { CACHED_MESSAGES, forgetConversations, saveConversations, saveMessages } from './cache';
import { CHANGES_CURSOR_KEY, claimFor, type OfflineDb, offlineDb, SESSION_KEY, wipe } from './db';
import { createOutbox, type FailureKind } from './outbox';

/** A failure worth retrying: no answer at all, or a gateway that could not reach the server. */
export function classifyFailure(err: unknown): FailureKind {
  if (!(err instanceof ApiError)) return 'retry';
  if (err.status === 0 || err.status === 502 || err.status === 503 || err.status === 504) return 'retry';
  if (err.status === 401) return 'hold';
  return 'reject';
}

export const isNetworkFailure = (err: unknown) => err instanceof ApiError && err.status === 0;

type OutboxListener = {
  /** The server has it sent, or failed with its reason: it left the outbox. */
  sent(conversationId: string, message: Message): void;
  /** The server has it, still pending (its send was cut off and is being resumed): it stays in the outbox. */
  pending?(conversationId: string, message: Message): void;
  rejected(conversationId: string, messageId: string, err: unknown): void;
  queued?(messageId: string): void;
};
const outboxListeners = new Set<OutboxListener>();

/** The app's outbox (one per page). */
export const outbox = createOutbox({
  db: offlineDb(),
  transport: {
    upload: (file, type, fileName) => upload('upload-file', file, fileName, { type, filename: fileName }),
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

// ---- the cache mirror -------------------------------------------------------------------------------

const MIRROR_DELAY_MS = 300;

// What is already on the device, by id: the query cache keeps an unchanged conversation or message as the
// same object, so each change writes only what is new. Writing the whole list again (10,000 conversations,
// or a 5,000-message history) at each page made IndexedDB's copying a long task that grew with every page.
// (Maps, not WeakSets: thousands of weak entries made each full garbage collection a long task.)
const mirrored = new Map<string, object>();

function fresh<T extends { _id: string }>(kind: string, items: readonly T[]): T[] {
  const out: T[] = [];
  for (const item of items) {
    const key = `${kind}:${item._id}`;
    if (mirrored.get(key) === item) continue;
    mirrored.set(key, item);
    out.push(item);
  }
  return out;
}

// Conversations that left the user's view on this page (finished, transferred away): the mirror keeps them
// off the device even while a screen still holds them (an open pane), until a list shows them again.
const gone = new Set<string>();

/** Takes conversations off the device with their messages (not the outbox): the user may no longer see them. */
export function forgetOffline(ids: readonly string[], db: OfflineDb = offlineDb()) {
  for (const id of ids) gone.add(id);
  return forgetConversations(db, ids).catch(() => undefined);
}

function mirror(query: Query) {
  const db = offlineDb();
  const [scope, kind] = query.queryKey as unknown[];
  if (scope !== 'attendance') return;
  const data = query.state.data as unknown;
  if (!data) return;
  if (kind === 'messages') {
    const list = (data as { messages: (Message & { provisional?: true })[] }).messages;
    if (list[0] && gone.has(list[0].conversation_id)) return;
    // Only the newest CACHED_MESSAGES are kept: older pages never reach the device.
    const newest = list.filter((m) => !m.provisional).slice(-CACHED_MESSAGES);
    void saveMessages(db, fresh('m', newest)).catch(() => undefined);
  } else if (kind === 'list') {
    const pages = (data as { pages: { conversations: Conversation[] }[] }).pages;
    const listed = pages.flatMap((p) => p.conversations);
    // A list is the server's word that the user sees them (a resumed conversation comes back).
    for (const c of listed) gone.delete(c._id);
    void saveConversations(db, fresh('c', listed)).catch(() => undefined);
  } else if (kind === 'conversation') {
    const c = data as Conversation;
    if (c.finished || gone.has(c._id)) return;
    void saveConversations(db, fresh('c', [c])).catch(() => undefined);
  }
}

/** Keeps Dexie in step with the query cache's service-screen entries (batched per entry). */
function startMirror(client: QueryClient) {
  // A new start is a new user or a wiped device: everything is written again.
  mirrored.clear();
  gone.clear();
  const due = new Map<string, Query>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const unsubscribe = client.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated') return;
    if ((event.query.queryKey as unknown[])[0] !== 'attendance') return;
    due.set(event.query.queryHash, event.query);
    timer ??= setTimeout(() => {
      timer = undefined;
      const list = [...due.values()];
      due.clear();
      for (const q of list) mirror(q);
    }, MIRROR_DELAY_MS);
  });
  // What arrived before the mirror started (the device was being claimed meanwhile).
  for (const q of client.getQueryCache().findAll({ queryKey: ['attendance'] })) mirror(q);
  return () => {
    unsubscribe();
    clearTimeout(timer);
  };
}

// ---- connection state -------------------------------------------------------------------------------

/**
 * Catches up on what changed while the device was away (the attendance data's get-changes-since): answers
 * false when it could not, and the lists are then asked again whole.
 */
export type CatchUp = (client: QueryClient) => Promise<boolean>;
let catchUp: CatchUp | null = null;
let catchingUp: Promise<void> | null = null;
let again = false;
/** The device claimed for the signed-in user: no catch-up writes to it before (a socket may connect first). */
let claimed: Promise<unknown> = Promise.resolve();

/** One catch-up at a time; a reconnect during one runs another right after (nothing between them missed). */
function runCatchUp(client: QueryClient) {
  if (catchingUp) {
    again = true;
    return catchingUp;
  }
  catchingUp = (async () => {
    await claimed;
    do {
      again = false;
      const done = catchUp ? await catchUp(client).catch(() => false) : false;
      if (!done) await client.invalidateQueries({ queryKey: ['attendance'] });
    } while (again);
  })().finally(() => {
    catchingUp = null;
  });
  return catchingUp;
}

/**
 * Back in touch (the network came back, or the socket reconnected): send what waits, and catch up on what
 * changed meanwhile, merged by id (nothing twice).
 */
export function reconnected(client: QueryClient = queryClient) {
  // Another user's outbox is wiped by the claim, never sent with this user's session.
  void claimed.then(() => outbox.kick());
  void runCatchUp(client);
}

/** The catch-up's cursor on this device (null before the first catch-up, and after a wipe). */
export async function changesCursor(db: OfflineDb = offlineDb()): Promise<string | null> {
  const entry = await db.meta.get(CHANGES_CURSOR_KEY);
  return typeof entry?.value === 'string' ? entry.value : null;
}

export const saveChangesCursor = (cursor: string, db: OfflineDb = offlineDb()) =>
  db.meta.put({ key: CHANGES_CURSOR_KEY, value: cursor });

/**
 * The catch-up could not tell what changed (no cursor yet, or one too old): the cached conversations and
 * messages are dropped (what the user may no longer see must not outlive a reload) and everything loaded is
 * asked again; the mirror writes the answers back. The outbox stays.
 */
export async function reloadOfflineCache(client: QueryClient, db: OfflineDb = offlineDb()) {
  await db
    .transaction('rw', [db.conversations, db.messages], async () => {
      await Promise.all([db.conversations.clear(), db.messages.clear()]);
    })
    .catch(() => undefined);
  mirrored.clear();
  await client.invalidateQueries({ queryKey: ['attendance'] });
}

/** Starts the offline layer for the signed-in user; answers its stop. */
export function startOffline(client: QueryClient, userId: string, withCatchUp?: CatchUp) {
  catchUp = withCatchUp ?? null;
  const db = offlineDb();
  let stopMirror: (() => void) | null = null;
  let live = true;
  claimed = claimFor(db, userId)
    .then(() => db.meta.put({ key: SESSION_KEY, value: session.token }))
    .catch(() => undefined);
  void claimed.then(() => {
    if (!live) return;
    stopMirror = startMirror(client);
    void outbox.kick();
    // What changed since this device last caught up (maybe a reload after a time offline).
    if (navigator.onLine && catchUp) void runCatchUp(client);
  });
  const online = () => reconnected(client);
  const fromWorker = (event: MessageEvent) => {
    if ((event.data as { type?: string } | null)?.type === 'outbox-sync') void outbox.kick();
  };
  window.addEventListener('online', online);
  navigator.serviceWorker?.addEventListener('message', fromWorker);
  // A message the server held pending is settled by its message_updated (sent or failed), at once.
  const stopSettling = onConversationEvent((event) => {
    if (event.type === 'message_updated' || event.type === 'new_message')
      void claimed.then(() => outbox.settled(event.message.message));
  });
  return () => {
    live = false;
    stopSettling();
    catchUp = null;
    stopMirror?.();
    outbox.stop();
    window.removeEventListener('online', online);
    navigator.serviceWorker?.removeEventListener('message', fromWorker);
  };
}

/** Sign-out: nothing of this user stays on the device. */
export async function wipeOffline() {
  outbox.stop();
  await wipe(offlineDb());
}

// ---- hooks --------------------------------------------------------------------------------------------

const onlineStore = {
  subscribe(cb: () => void) {
    window.addEventListener('online', cb);
    window.addEventListener('offline', cb);
    return () => {
      window.removeEventListener('online', cb);
      window.removeEventListener('offline', cb);
    };
  },
  get: () => navigator.onLine,
};

/** The device's connection state (navigator.onLine, live). */
export const useOnline = () => useSyncExternalStore(onlineStore.subscribe, onlineStore.get);

/** How many messages wait in the outbox (live). */
export function useOutboxWaiting() {
  const [waiting, setWaiting] = useState(0);
  useEffect(() => outbox.subscribe(setWaiting), []);
  return waiting;
}
