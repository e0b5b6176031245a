// The open conversation's socket events (spec 2 §4): messages come into the pane's cache as they happen; a
// customer's message after a 1 s 'digitando…' indicator; the pane is cleared when the conversation is
// finished, or leaves an attendant's departments.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { onConversationEvent } from '@/app/lib/conversation-events';
import type { Conversation, Message } from '@/shared/contract/conversations';
import { hasMessage, putMessage, raiseStatus } from '../data/messages';

/** How long the typing indicator shows before a customer's message (spec 2 §4). */
export const TYPING_MS = 1000;

interface Handlers {
  /** The conversation was finished, by `user` (null: the system). */
  onFinished(user: string | null): void;
  /** The conversation changed, by `by` when a user did it. */
  onUpdated(conversation: Conversation, by: string | undefined): void;
}

export function useLiveConversation(conversationId: string, handlers: Handlers): { typing: boolean } {
  const client = useQueryClient();
  const [typing, setTyping] = useState(false);
  const latest = useRef(handlers);
  latest.current = handlers;

  useEffect(() => {
    // Customer messages waiting out their typing time, by id.
    const waiting = new Map<string, { message: Message; timer: ReturnType<typeof setTimeout> }>();
    const show = (id: string) => {
      const entry = waiting.get(id);
      waiting.delete(id);
      if (entry) putMessage(client, entry.message);
      setTyping(waiting.size > 0);
    };
    const off = onConversationEvent((event) => {
      switch (event.type) {
        case 'new_message': {
          const { conversation_id, message } = event.message;
          if (conversation_id !== conversationId) return;
          if (message.origin !== 'customer' || hasMessage(client, message)) {
            putMessage(client, message);
            return;
          }
          const entry = waiting.get(message._id);
          if (entry) entry.message = message;
          else waiting.set(message._id, { message, timer: setTimeout(() => show(message._id), TYPING_MS) });
          setTyping(true);
          return;
        }
        case 'message_updated': {
          const { conversation_id, message } = event.message;
          if (conversation_id !== conversationId) return;
          const entry = waiting.get(message._id);
          if (entry) entry.message = message;
          else putMessage(client, message);
          return;
        }
        case 'message_read':
          if (event.message.conversation_id === conversationId)
            raiseStatus(client, conversationId, event.message._id, event.message.status);
          return;
        case 'conversation_finished':
          if (event.message._id === conversationId) latest.current.onFinished(event.message.user);
          return;
        case 'conversation_updated':
          if (event.message._id === conversationId) latest.current.onUpdated(event.message, event.by);
          return;
        default:
          return;
      }
    });
    return () => {
      off();
      // Leaving early: what was waiting is kept, not lost.
      for (const { message, timer } of waiting.values()) {
        clearTimeout(timer);
        putMessage(client, message);
      }
      waiting.clear();
      setTyping(false);
    };
  }, [client, conversationId]);

  return { typing };
}
