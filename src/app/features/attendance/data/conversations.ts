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
import type { Payload } from '../../../../shared/contract';
import type { Conversation } from '../../../../shared/contract/conversations';
import { api } from '../../../lib/api';

export type ConversationFilter = NonNullable<Payload<'get-conversations-with-last-message'>['filter']>;
export type ConversationPage = { conversations: Conversation[]; load_more: boolean };

export const LIST_KEY = ['attendance', 'list'] as const;
export const PAGE_SIZE = 15;

/** Where a conversation sorts: its last message's time, or its creation. */
export const activityOf = (c: Conversation) => c.last_message?.created ?? c.created;

export const conversationListQuery = (filter: ConversationFilter) =>
  infiniteQueryOptions({
    queryKey: [...LIST_KEY, filter] as const,
    initialPageParam: undefined as { last_message_at: string; _id: string } | undefined,
    queryFn: ({ pageParam }) =>
      api('get-conversations-with-last-message', { filter, limit: PAGE_SIZE, after: pageParam }),
    getNextPageParam: (last: ConversationPage) => {
      const tail = last.conversations.at(-1);
      return last.load_more && tail ? { last_message_at: activityOf(tail), _id: tail._id } : undefined;
    },
  });

export const conversationQuery = (id: string) =>
  queryOptions({
    queryKey: ['attendance', 'conversation', id] as const,
    queryFn: async () =>
      (await api('get-conversations-with-last-message', { conversation_id: id })).conversations[0] ?? null,
  });

export const useConversation = (id: string | null) =>
  useQuery({ ...conversationQuery(id ?? ''), enabled: Boolean(id) });

type ListData = InfiniteData<ConversationPage>;

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

/** Takes a conversation out of every list (finished, transferred away). */
export function dropConversation(client: QueryClient, id: string) {
  client.setQueriesData<ListData>({ queryKey: LIST_KEY }, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((p) => ({ ...p, conversations: p.conversations.filter((c) => c._id !== id) })),
        }
      : data,
  );
}
