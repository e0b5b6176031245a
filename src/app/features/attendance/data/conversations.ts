// The service screen's conversations in the query cache: the list (pages of 15 for the current filter)
// and each conversation on its own (the pane reads it). Events and actions write through patchConversation
// and dropConversation, so the list, the pane and the header never disagree.
import {
  type InfiniteData,
  infiniteQueryOptions,
  type QueryClient,
  queryOptions,
  useQuery,
} from '@tanstack/react-query';
import { api, isNetworkFailure } from '@/app/lib/api';
import { isOnline } from '@/app/lib/online';
import type { Conversation, Message } from '@/shared/contract/conversations';
import { type ConversationFilter, matchesFilter } from '../list/list-view';

/**
 * The device's copy (Dexie, src/app/offline) loads after the first screen, not before it (issue 37): only an
 * answer that must come from the device waits for it.
 */
const deviceCopy = async () => {
  const [cache, { offlineDb }] = await Promise.all([
    import('@/app/offline/cache'),
    import('@/app/offline/db'),
  ]);
  return { ...cache, db: offlineDb() };
};

export type ConversationPage = {
  conversations: Conversation[];
  load_more: boolean;
  /** Answered by the device's cache (offline): the catch-up asks the server for it again. */
  from_device?: true;
};

/** The attendance feature's query keys all start here (its sync adapter's scope: data/sync.ts). */
export const ATTENDANCE_KEY = ['attendance'] as const;
export const LIST_KEY = ['attendance', 'list'] as const;
export const PAGE_SIZE = 15;

/** Where a conversation sorts: its last message's time, or its creation. */
export const activityOf = (c: Conversation) => c.last_message?.created ?? c.created;

export const conversationListQuery = (filter: ConversationFilter) =>
  infiniteQueryOptions({
    queryKey: [...LIST_KEY, filter] as const,
    initialPageParam: undefined as { last_message_at: string; _id: string } | undefined,
    queryFn: async ({ pageParam }): Promise<ConversationPage> => {
      // Known to be offline: the device answers at once (no request to fail first).
      if (!pageParam && !isOnline())
        return { conversations: await offlineList(filter), load_more: false, from_device: true };
      try {
        return await api('get-conversations-with-last-message', {
          filter,
          limit: PAGE_SIZE,
          // The persisted cache keeps the first page's param as null (JSON has no undefined): the first page
          // again, not a cursor the server refuses.
          after: pageParam ?? undefined,
        });
      } catch (err) {
        // Offline: the first page is what the device kept (src/app/offline/cache.ts), filtered here.
        if (pageParam || !isNetworkFailure(err)) throw err;
        return { conversations: await offlineList(filter), load_more: false, from_device: true };
      }
    },
    // Offline the query still runs once: it answers from the device's cache.
    networkMode: 'offlineFirst',
    // Its first page is saved with the session's cache: the next start shows it on the first render.
    meta: { persist: true },
    // A reconnect is the catch-up's (data/catch-up.ts): only what changed, not every loaded page again.
    refetchOnReconnect: false,
    getNextPageParam: (last: ConversationPage) => {
      const tail = last.conversations.at(-1);
      return last.load_more && tail ? { last_message_at: activityOf(tail), _id: tail._id } : undefined;
    },
  });

export const conversationQuery = (id: string) =>
  queryOptions({
    queryKey: ['attendance', 'conversation', id] as const,
    networkMode: 'offlineFirst',
    refetchOnReconnect: false,
    queryFn: async () => {
      try {
        return (
          (await api('get-conversations-with-last-message', { conversation_id: id })).conversations[0] ?? null
        );
      } catch (err) {
        if (!isNetworkFailure(err)) throw err;
        const { cachedConversation, db } = await deviceCopy();
        const local = await cachedConversation(db, id);
        if (!local) throw err;
        return local;
      }
    },
  });

export const useConversation = (id: string | null) =>
  useQuery({ ...conversationQuery(id ?? ''), enabled: Boolean(id) });

type ListData = InfiniteData<ConversationPage>;

/**
 * The cached conversations a filter shows offline: the filter's rules client side, and a text also finds
 * the conversations whose cached messages contain it.
 */
async function offlineList(filter: ConversationFilter): Promise<Conversation[]> {
  const { cachedConversations, conversationsWithText, db } = await deviceCopy();
  const all = await cachedConversations(db);
  const withText = filter.text.trim() ? await conversationsWithText(db, filter.text) : new Set<string>();
  return all.filter(
    (c) => matchesFilter(c, filter) || (withText.has(c._id) && matchesFilter(c, { ...filter, text: '' })),
  );
}

/** Writes a changed conversation into its own entry and wherever a list page holds it. */
export function patchConversation(client: QueryClient, conversation: Conversation) {
  client.setQueryData(conversationQuery(conversation._id).queryKey, conversation);
  client.setQueriesData<ListData>({ queryKey: LIST_KEY }, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((p) => ({
            ...p,
            conversations: p.conversations.map((c) => (c._id === conversation._id ? conversation : c)),
          })),
        }
      : data,
  );
}

/** Takes conversations out of every list, and off the device with their messages (finished, transferred away). */
export function dropConversations(client: QueryClient, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return Promise.resolve();
  const out = new Set(ids);
  client.setQueriesData<ListData>({ queryKey: LIST_KEY }, (data) =>
    data?.pages.some((p) => p.conversations.some((c) => out.has(c._id)))
      ? {
          ...data,
          pages: data.pages.map((p) => ({
            ...p,
            conversations: p.conversations.filter((c) => !out.has(c._id)),
          })),
        }
      : data,
  );
  return import('@/app/offline/app-offline').then((m) => m.forgetOffline(ids));
}

export const dropConversation = (client: QueryClient, id: string) => {
  void dropConversations(client, [id]);
};

/** Newest activity first, then the larger id: the server's order. */
const sortsBefore = (a: Conversation, b: Conversation) => {
  const d = Date.parse(activityOf(a)) - Date.parse(activityOf(b));
  return d > 0 || (d === 0 && a._id > b._id);
};

/** A list's pages with the conversation put where its activity sorts (or left out when beyond the loaded tail). */
export function placeInPages(data: ListData, conversation: Conversation): ListData {
  const loaded = data.pages.some((p) => p.conversations.some((c) => c._id === conversation._id));
  const pages = data.pages.map((p) => ({
    ...p,
    conversations: p.conversations.filter((c) => c._id !== conversation._id),
  }));
  for (const page of pages) {
    const at = page.conversations.findIndex((c) => sortsBefore(conversation, c));
    if (at >= 0) {
      page.conversations.splice(at, 0, conversation);
      return { ...data, pages };
    }
  }
  const last = pages.at(-1);
  // After everything loaded: it comes with 'Carregar mais' when there is more, else it is the new tail.
  // One already loaded stays the tail (a change of the last one, or of every one at once in a catch-up, must
  // not empty the list from its end).
  if (last && (!last.load_more || loaded)) last.conversations.push(conversation);
  else if (!last) return data;
  return { ...data, pages };
}

/**
 * Writes a changed conversation everywhere: its own entry, and every loaded list, where it moves to the place
 * its activity sorts when it belongs (`belongs(filter)`), and leaves when it no longer does.
 */
export function placeConversation(
  client: QueryClient,
  conversation: Conversation,
  belongs: (filter: ConversationFilter) => boolean,
) {
  client.setQueryData(conversationQuery(conversation._id).queryKey, conversation);
  placeInLists(client, conversation, belongs);
}

/** placeConversation for the loaded lists only. */
export function placeInLists(
  client: QueryClient,
  conversation: Conversation,
  belongs: (filter: ConversationFilter) => boolean,
) {
  for (const [key, data] of client.getQueriesData<ListData>({ queryKey: LIST_KEY })) {
    if (!data) continue;
    const filter = key[2] as ConversationFilter | undefined;
    if (!filter) continue;
    const next = belongs(filter)
      ? placeInPages(data, conversation)
      : {
          ...data,
          pages: data.pages.map((p) => ({
            ...p,
            conversations: p.conversations.filter((c) => c._id !== conversation._id),
          })),
        };
    client.setQueryData(key, next);
  }
}

/** The conversation as the cache knows it (its own entry, or a list page), if loaded anywhere. */
export function cachedConversation(client: QueryClient, id: string): Conversation | undefined {
  const own = client.getQueryData(conversationQuery(id).queryKey);
  if (own) return own;
  for (const [, data] of client.getQueriesData<ListData>({ queryKey: LIST_KEY })) {
    for (const page of data?.pages ?? []) {
      const found = page.conversations.find((c) => c._id === id);
      if (found) return found;
    }
  }
  return undefined;
}

/** Our own send, shown at once as the list's preview (offline it waits in the outbox, typed and queued). */
export function previewOwnSend(client: QueryClient, message: Message) {
  const current = cachedConversation(client, message.conversation_id);
  if (!current) return;
  const next = { ...current, last_message: message };
  placeConversation(client, next, (filter) => matchesFilter(next, filter));
}

/** A message changed (status, deleted): the list's preview follows when it is the last message. */
export function patchLastMessage(
  client: QueryClient,
  conversationId: string,
  messageId: string,
  change: Partial<Message>,
) {
  const current = cachedConversation(client, conversationId);
  if (current?.last_message?._id !== messageId) return;
  patchConversation(client, { ...current, last_message: { ...current.last_message, ...change } });
}
