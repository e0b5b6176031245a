// Helpers for tests that drive channels: a simulator chip connected the way a user connects one (the QR
// code's link opened), sockets that collect events, and waiting for an event that must arrive.
import type { Socket } from 'socket.io-client';
import { io } from 'socket.io-client';
import type { ReceiveMessage, SimulatorEvent } from '@/shared/contract/events';
import type { TestServer } from './helpers';

export const connected = (sock: Socket) =>
  new Promise<void>((resolve, reject) => {
    if (sock.connected) return resolve();
    sock.once('connect', () => resolve());
    sock.once('connect_error', reject);
  });

/** Collects a socket's receive-message events; `next(type)` waits for the next one of that type. */
export function collect(sock: Socket) {
  const events: ReceiveMessage[] = [];
  const waiters: { type: string; resolve: (e: ReceiveMessage) => void }[] = [];
  sock.on('receive-message', (e: ReceiveMessage) => {
    const i = waiters.findIndex((w) => w.type === e.type);
    if (i >= 0) waiters.splice(i, 1)[0]?.resolve(e);
    else events.push(e);
  });
  return {
    sock,
    events,
    next<T extends ReceiveMessage['type']>(
      type: T,
      ms = 5000,
    ): Promise<Extract<ReceiveMessage, { type: T }>> {
      const i = events.findIndex((e) => e.type === type);
      if (i >= 0) return Promise.resolve(events.splice(i, 1)[0] as Extract<ReceiveMessage, { type: T }>);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${type} event within ${ms} ms`)), ms);
        waiters.push({
          type,
          resolve: (e) => {
            clearTimeout(timer);
            resolve(e as Extract<ReceiveMessage, { type: T }>);
          },
        });
      });
    },
  };
}

/** A signed-in user's socket, connected, with its events collected. */
export async function listen(t: TestServer, email: string) {
  const sock = t.socket(await t.login(email));
  await connected(sock);
  return collect(sock);
}

/** A round trip on the socket: every event emitted before it has arrived by the time it answers. */
export const roundTrip = (sock: Socket) =>
  new Promise<boolean>((resolve) => sock.emit('join-room', 'x', resolve));

/** Creates a simulator chip and connects it as a user would: connect, read the QR link, open it. */
export async function connectedSimulatorChip(
  t: TestServer,
  token: string,
  opts: { name?: string; department: string; redirect?: 'human' | 'ai_chatbot' | 'flow_chatbot' },
) {
  const sock = t.socket(token);
  await connected(sock);
  const events = collect(sock);
  const chip = await t.call(
    'create-or-update-chip',
    { name: opts.name ?? 'Simulador', redirect: opts.redirect ?? 'human', department: opts.department },
    token,
  );
  await t.call('connect-chip', { _id: chip._id, connect: true }, token);
  const qr = await events.next('qrcode');
  const link = new URL(qr.message, t.url);
  const [, , linkToken] = link.pathname.split('/');
  const pair = link.searchParams.get('pair') ?? undefined;
  await t.call('simulator-open', { token: linkToken, pair });
  const status = await events.next('status');
  sock.close();
  return { chip, simulatorToken: linkToken as string, status: status.message, link };
}

/** The simulator page's socket for one customer. */
export function simulatorSocket(t: TestServer, token: string, phone: string) {
  const sock = io(t.url, {
    path: '/sock/',
    auth: { simulator: token, phone },
    transports: ['websocket'],
    reconnection: false,
  });
  const events: SimulatorEvent[] = [];
  sock.on('simulator', (e: SimulatorEvent) => events.push(e));
  return { sock, events };
}

export async function until<T>(read: () => T | undefined | Promise<T | undefined>, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (v !== undefined && v !== null && v !== false) return v;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}
