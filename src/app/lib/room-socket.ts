// A socket of its own that joins one room of the account's socket server and hears its receive-message
// events until closed: a campaign's follow dialog (campaign_<id>), a webhook's test event (webhook_<id>).
// The shell's socket is not used: these rooms are joined only while a screen waits for them, and leaving is
// closing. socket.io-client loads on first use (it is not in the first paint of these screens).
import { session } from '@/app/lib/api';
import type { ReceiveMessage } from '@/shared/contract/events';

/** Opens the socket; answers the function that closes it (safe to call before the socket is made). */
export function openRoomSocket(
  server: string | null | undefined,
  room: string,
  on: { event(event: ReceiveMessage): void; joined?(ok: boolean): void },
): () => void {
  let closed = false;
  let cleanup = () => {};
  void import('socket.io-client').then(({ io }) => {
    if (closed) return;
    // The account's socket server; in development Vite proxies /sock/ from the page's origin.
    const address = import.meta.env.DEV ? window.location.origin : server || window.location.origin;
    const socket = io(address, {
      path: '/sock/',
      transports: ['websocket'],
      auth: (cb) => cb({ token: session.token }),
    });
    // The server answers whether the room was joined (the one access rule decides).
    socket.on('connect', () => socket.emit('join-room', room, (ok: boolean) => on.joined?.(ok)));
    socket.on('disconnect', () => on.joined?.(false));
    socket.on('receive-message', (event: ReceiveMessage) => on.event(event));
    cleanup = () => {
      socket.removeAllListeners();
      socket.disconnect();
    };
  });
  return () => {
    closed = true;
    cleanup();
  };
}
