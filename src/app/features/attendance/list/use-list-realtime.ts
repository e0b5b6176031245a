// The list's real time (spec 2 §4): socket events into the conversations' cache for the whole session (a
// conversation resumed from /conversas is in Atendimento's list when the user comes back to it, not after a
// reload), and the 'Nova conversa' toast and sound while the screen is open.
// A new conversation is fetched 2 s after its event and an updated one 1 s after (one fetch per conversation
// however many events arrive meanwhile); a message moves its conversation to the top at once.
import { notifications } from '@mantine/notifications';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { onConversationEvent } from '@/app/lib/conversation-events';
import { displayName } from '@/app/ui/contact-name';
import { MESSAGE_STATUS } from '@/shared/constants';
import type { Conversation, Message } from '@/shared/contract/conversations';
import type { ConversationEvent } from '@/shared/contract/events';
import { messages } from '@/shared/messages';
import {
  cachedConversation,
  conversationQuery,
  dropConversation,
  LIST_KEY,
  patchLastMessage,
  placeConversation,
} from '../data/conversations';
import { matchesFilter } from './list-view';
import { playNotificationSound } from './notification-sound';

export const NEW_CONVERSATION_DELAY_MS = 2000;
export const UPDATED_CONVERSATION_DELAY_MS = 1000;
const NEW_CONVERSATION_TOAST = 'new-conversation';

/** Whether a list or the conversation's own entry is in the cache: else there is nothing to keep live. */
const cachedAnywhere = (client: QueryClient, id: string) =>
  client.getQueryData(conversationQuery(id).queryKey) !== undefined ||
  client.getQueriesData({ queryKey: LIST_KEY }).some(([, data]) => data !== undefined);

interface Options {
  /** The user's choice (user.config.disable_notification_sound). */
  sound: boolean;
  /** The signed-in user: a conversation they opened themselves is not announced to them. */
  userId: string;
  /** Opens a conversation (the notification's click). */
  onOpen(id: string): void;
}

/** Asks the server for the conversation and puts it where it belongs; gone from view means out of the lists. */
async function refresh(client: QueryClient, id: string) {
  let fresh: Conversation | null;
  try {
    fresh = await client.fetchQuery({ ...conversationQuery(id), staleTime: 0 });
  } catch {
    // Not visible any more (moved to a department the attendant does not serve).
    dropConversation(client, id);
    return;
  }
  if (!fresh) dropConversation(client, id);
  else placeConversation(client, fresh, (filter) => matchesFilter(fresh, filter));
}

/** A message arrived or was sent: the new preview, the waiting flag, and the top of the list. */
function applyMessage(client: QueryClient, id: string, message: Message, fetchLater: (id: string) => void) {
  // A team note does not change the conversation's place or preview (the server keeps its last message).
  if (message.type === 'system') return;
  const current = cachedConversation(client, id);
  if (!current) {
    // Not loaded (further down the list, or filtered out before): ask the server where it stands.
    fetchLater(id);
    return;
  }
  // A team message answers only once the channel accepts it (the server then says conversation_updated).
  const waiting =
    message.origin === 'customer'
      ? true
      : message.origin === 'user' && message.status >= MESSAGE_STATUS.sent
        ? false
        : current.waiting_response;
  const next = { ...current, last_message: message, waiting_response: waiting };
  placeConversation(client, next, (filter) => matchesFilter(next, filter));
}

/** The 'Nova conversa' toast and sound, while Atendimento is open (its cache is kept by useListCache). */
export function useListRealtime({ sound, userId, onOpen }: Options) {
  // The latest options, read when an event arrives, so the listener is registered once.
  const options = useRef({ sound, userId, onOpen });
  options.current = { sound, userId, onOpen };

  useEffect(() => {
    // One 'Nova conversa' at a time: the newest replaces the one shown, so they never stack.
    const notifyNew = (conversation: Conversation) => {
      notifications.hide(NEW_CONVERSATION_TOAST);
      notifications.show({
        id: NEW_CONVERSATION_TOAST,
        color: 'green',
        title: messages.newConversationPushTitle,
        message: displayName(conversation.contact),
        style: { cursor: 'pointer' },
        // The one toast that is a control (a tap opens the conversation): it takes the pointer (toasts.css).
        className: 'toast-action',
        onClick: (e) => {
          // Its close button only closes it.
          if ((e.target as Element).closest('button')) return;
          notifications.hide(NEW_CONVERSATION_TOAST);
          options.current.onOpen(conversation._id);
        },
      });
      if (options.current.sound) playNotificationSound();
    };
    return onConversationEvent((event) => {
      if (event.type === 'new_conversation' && event.user !== options.current.userId)
        notifyNew(event.message);
    });
  }, []);
}

/**
 * The conversation events into the lists and conversations the cache holds, for the whole signed-in session:
 * every change that brings a conversation into a list (a new one, a resume, a transfer in) reaches it live.
 */
export function useListCache() {
  const client = useQueryClient();
  useEffect(() => {
    const timers = new Map<string, ReturnType<typeof setTimeout>>();
    const fetchAfter = (id: string, ms: number) => {
      if (timers.has(id) || !cachedAnywhere(client, id)) return;
      timers.set(
        id,
        setTimeout(() => {
          timers.delete(id);
          void refresh(client, id);
        }, ms),
      );
    };

    const handle = (event: ConversationEvent) => {
      switch (event.type) {
        case 'new_conversation':
          fetchAfter(event.message._id, NEW_CONVERSATION_DELAY_MS);
          break;
        case 'new_message':
          applyMessage(client, event.message.conversation_id, event.message.message, (id) =>
            fetchAfter(id, UPDATED_CONVERSATION_DELAY_MS),
          );
          break;
        case 'conversation_updated':
          fetchAfter(event.message._id, UPDATED_CONVERSATION_DELAY_MS);
          break;
        case 'conversation_finished':
          dropConversation(client, event.message._id);
          // The pane reads the conversation's own entry: it is finished now.
          client.setQueryData(conversationQuery(event.message._id).queryKey, (c) =>
            c && !c.finished ? { ...c, finished: new Date().toISOString() } : c,
          );
          break;
        case 'set_manual': {
          const current = cachedConversation(client, event.message._id);
          if (current) {
            const next = { ...current, is_manual: true };
            placeConversation(client, next, (filter) => matchesFilter(next, filter));
          }
          break;
        }
        case 'message_updated':
          patchLastMessage(
            client,
            event.message.conversation_id,
            event.message.message._id,
            event.message.message,
          );
          break;
        case 'message_read':
          patchLastMessage(client, event.message.conversation_id, event.message._id, {
            status: event.message.status,
          });
          break;
      }
    };

    const stop = onConversationEvent(handle);
    return () => {
      stop();
      for (const t of timers.values()) clearTimeout(t);
    };
  }, [client]);
}
