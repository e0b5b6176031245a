// A team member's socket as the benches watch it: when each customer text first arrived, and how many times.
import { performance } from 'node:perf_hooks';
import type { Socket } from 'socket.io-client';
import type { ReceiveMessage } from '@/shared/contract/events';

export function listen(sock: Socket) {
  const arrivals = new Map<string, number>();
  const counts = new Map<string, number>();
  sock.on('receive-message', (e: ReceiveMessage) => {
    const text =
      e.type === 'new_message'
        ? e.message.message.message
        : e.type === 'new_conversation'
          ? e.message.last_message?.message
          : undefined;
    if (!text) return;
    if (!arrivals.has(text)) arrivals.set(text, performance.now());
    counts.set(text, (counts.get(text) ?? 0) + 1);
  });
  return { arrivals, counts };
}
