// A conversation's messages in the query cache, as the pane shows them: the last 25 first, older pages of 25
// on 'Carregar mais' (spec 2 §9), events and sends merged in by id. A send shows at once as a provisional
// message named by its message_id; the server's message with that message_id takes its place.
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/app/lib/api';
import { isNetworkFailure, outbox } from '@/app/offline/app-offline';
import { CACHED_MESSAGES, recentMessages } from '@/app/offline/cache';
import { offlineDb } from '@/app/offline/db';
import type { Message } from '@/shared/contract/conversations';
import { type PaneMessage, pendingMessage } from './provisional';

export interface MessagesData {
  /** Oldest first. */
  messages: PaneMessage[];
  /** Older messages exist on the server beyond the first one here. */
  hasOlder: boolean;
  /** Answered by the device's cache (offline): it may miss messages the catch-up does not bring, so it is asked again. */
  fromDevice?: true;
}

export const MESSAGE_PAGE = 25;

export const messagesKey = (conversationId: string) => ['attendance', 'messages', conversationId] as const;

const compare = (a: PaneMessage, b: PaneMessage) =>
  a.created < b.created ? -1 : a.created > b.created ? 1 : a._id < b._id ? -1 : a._id > b._id ? 1 : 0;

const sameMessage = (a: PaneMessage, b: Message) =>
  a._id === b._id || (b.message_id !== null && a.message_id === b.message_id);

/**
 * The newer news of a message wins, except that a status never goes back (a late 'sent' after 'read') unless
 * it failed, and a deleted message stays deleted.
 */
export function mergeMessage(current: PaneMessage, incoming: Message): PaneMessage {
  const status =
    incoming.status < 0 || current.provisional ? incoming.status : Math.max(current.status, incoming.status);
  const deleted = current.deleted || incoming.deleted;
  return {
    ...incoming,
    status,
    deleted,
    message: deleted ? '' : incoming.message,
    media_url: deleted ? null : incoming.media_url,
  };
}

/** The list with `incoming` put in (a new one in time order, a known one merged). */
export function upsert(list: readonly PaneMessage[], incoming: Message): PaneMessage[] {
  const at = list.findIndex((m) => sameMessage(m, incoming));
  if (at >= 0) {
    const next = [...list];
    next[at] = mergeMessage(list[at] as PaneMessage, incoming);
    return next.sort(compare);
  }
  const last = list.at(-1);
  if (!last || compare(last, incoming) <= 0) return [...list, incoming];
  return [...list, incoming].sort(compare);
}

/** A refetch of the latest page into what the cache holds: kept together when they meet, else replaced. */
export function mergeLatest(cached: MessagesData | undefined, latest: Message[]): MessagesData {
  const complete = latest.length < MESSAGE_PAGE;
  if (!cached) return { messages: latest, hasOlder: !complete };
  const oldest = latest[0];
  const meets = complete || (oldest !== undefined && cached.messages.some((m) => m._id === oldest._id));
  const pending = cached.messages.filter((m) => m.provisional);
  let messages: PaneMessage[] = meets ? cached.messages.filter((m) => !m.provisional) : [];
  for (const m of latest) messages = upsert(messages, m);
  for (const m of pending) messages = upsert(messages, m);
  return { messages, hasOlder: complete ? false : meets ? cached.hasOlder : true };
}

/** The outbox's messages for this conversation, still waiting, as pending bubbles (after a reload too). */
async function withPending(data: MessagesData, conversationId: string): Promise<MessagesData> {
  const pending = await outbox.pendingFor(conversationId).catch(() => []);
  let messages = data.messages;
  for (const entry of pending) {
    if (!messages.some((m) => m.message_id === entry.message_id))
      messages = upsert(messages, pendingMessage(entry));
  }
  return messages === data.messages ? data : { ...data, messages };
}

export const messagesQuery = (conversationId: string) =>
  queryOptions({
    queryKey: messagesKey(conversationId),
    networkMode: 'offlineFirst',
    queryFn: async ({ client, queryKey }): Promise<MessagesData> => {
      const cached = client.getQueryData<MessagesData>(queryKey);
      let latest: Message[];
      try {
        latest = await api('get-messages-by-conversation', {
          conversation_id: conversationId,
          limit: MESSAGE_PAGE,
        });
      } catch (err) {
        // Offline: what this screen held, or what the device kept from before (src/app/offline/cache.ts).
        if (!isNetworkFailure(err)) throw err;
        if (cached) return cached;
        const local = await recentMessages(offlineDb(), conversationId);
        if (local.length === 0) throw err;
        return withPending(
          { messages: local, hasOlder: local.length >= CACHED_MESSAGES, fromDevice: true },
          conversationId,
        );
      }
      return withPending(mergeLatest(cached, latest), conversationId);
    },
    // Events keep an open pane current; a pane opened again asks for what it missed.
    staleTime: 0,
    gcTime: 10 * 60_000,
    // A reconnect is the catch-up's (data/catch-up.ts).
    refetchOnReconnect: false,
  });

export const useMessages = (conversationId: string) => useQuery(messagesQuery(conversationId));

function update(client: QueryClient, conversationId: string, change: (data: MessagesData) => MessagesData) {
  client.setQueryData<MessagesData>(messagesKey(conversationId), (data) => (data ? change(data) : data));
}

/**
 * A message from an event or an answer: added, or merged into the one with its id or message_id. One older
 * than the window held, while older ones are still to load (a catch-up's), is left to 'Carregar mais',
 * which brings it in its place: added now, it would open a gap in the window.
 */
export function putMessage(client: QueryClient, message: Message) {
  update(client, message.conversation_id, (d) => {
    const oldest = d.messages.find((m) => !m.provisional);
    const beforeWindow = d.hasOlder && oldest !== undefined && compare(message, oldest) < 0;
    if (beforeWindow && !d.messages.some((m) => sameMessage(m, message))) return d;
    return { ...d, messages: upsert(d.messages, message) };
  });
}

export function addProvisional(client: QueryClient, message: PaneMessage) {
  update(client, message.conversation_id, (d) => ({
    ...d,
    messages: upsert(d.messages, { ...message, provisional: true } as PaneMessage),
  }));
}

/** A send that failed before the server stored it leaves the pane (spec 2 §4). */
export function dropProvisional(client: QueryClient, conversationId: string, messageId: string) {
  update(client, conversationId, (d) => ({
    ...d,
    messages: d.messages.filter((m) => !(m.provisional && m.message_id === messageId)),
  }));
}

/** message_read: the status only moves forward. */
export function raiseStatus(client: QueryClient, conversationId: string, id: string, status: number) {
  update(client, conversationId, (d) => ({
    ...d,
    messages: d.messages.map((m) =>
      m._id === id && m.status >= 0 && status > m.status ? { ...m, status } : m,
    ),
  }));
}

export const hasMessage = (client: QueryClient, message: Message) =>
  client
    .getQueryData<MessagesData>(messagesKey(message.conversation_id))
    ?.messages.some((m) => sameMessage(m, message)) ?? false;

/**
 * 'Carregar mais': the 25 before the oldest one held. Asked from just after the oldest one's time, so
 * messages sharing its millisecond are not skipped; those already held are not added twice.
 */
export async function loadOlder(client: QueryClient, conversationId: string) {
  const data = client.getQueryData<MessagesData>(messagesKey(conversationId));
  const oldest = data?.messages.find((m) => !m.provisional);
  if (!data || !oldest) return;
  const tied = data.messages.filter((m) => m.created === oldest.created).length;
  const limit = MESSAGE_PAGE + tied;
  const older = await api('get-messages-by-conversation', {
    conversation_id: conversationId,
    before: new Date(Date.parse(oldest.created) + 1).toISOString(),
    limit,
  });
  update(client, conversationId, (d) => {
    const known = new Set(d.messages.map((m) => m._id));
    const added = older.filter((m) => !known.has(m._id)).sort(compare);
    // Older than everything held (asked from before the oldest): no need to sort thousands again.
    const last = added.at(-1);
    const first = d.messages[0];
    const messages =
      last && first && compare(last, first) > 0
        ? [...added, ...d.messages].sort(compare)
        : [...added, ...d.messages];
    return { messages, hasOlder: older.length === limit };
  });
}
