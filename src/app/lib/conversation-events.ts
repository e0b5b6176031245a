// The socket's conversation events (spec 2 §4), for the screens that show conversations: the shell's
// socket publishes them here and each screen listens while it is open. One socket, many listeners.
import type { ConversationEvent } from '@/shared/contract/events';

type Listener = (event: ConversationEvent) => void;
const listeners = new Set<Listener>();

export function onConversationEvent(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function publishConversationEvent(event: ConversationEvent) {
  for (const listener of listeners) listener(event);
}
