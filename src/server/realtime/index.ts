// socket.io at /sock/ on the HTTP server. A socket must present a valid token (handshake auth.token);
// it then joins its account room. Scale-out later: @socket.io/postgres-adapter, no code change here.
import type { Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import {
  accountRoom,
  type ClientToServerEvents,
  type ReceiveMessage,
  type ServerToClientEvents,
} from '../../shared/contract/events';
import { messages } from '../../shared/messages';
import type { Db } from '../db';
import { authenticate } from '../domains/auth/auth.service';

export interface Realtime {
  io: Server<ClientToServerEvents, ServerToClientEvents>;
  toAccount(accountId: string, event: ReceiveMessage): void;
  close(): void;
}

export function createRealtime(server: HttpServer, db: Db): Realtime {
  const io = new Server<
    ClientToServerEvents,
    ServerToClientEvents,
    Record<string, never>,
    { accountId: string }
  >(server, { path: '/sock/', serveClient: false, cors: { origin: false } });

  io.use(async (socket, next) => {
    const token = (socket.handshake.auth as { token?: unknown }).token;
    const session = typeof token === 'string' ? await authenticate(db, token).catch(() => null) : null;
    if (!session) return next(new Error(messages.unauthorized));
    socket.data.accountId = session.user.accountId;
    next();
  });

  io.on('connection', (socket) => {
    const own = accountRoom(socket.data.accountId);
    socket.join(own);
    socket.on('join-room', (room, ack) => {
      // The spec's client sends the account id; our room name is also accepted. Other rooms are refused.
      const allowed = room === own || room === socket.data.accountId;
      if (allowed) socket.join(own);
      if (typeof ack === 'function') ack(allowed);
    });
  });

  return {
    io,
    toAccount: (accountId, event) => io.to(accountRoom(accountId)).emit('receive-message', event),
    close() {
      io.disconnectSockets(true);
      io.engine.close();
    },
  };
}
