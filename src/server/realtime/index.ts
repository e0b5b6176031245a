// socket.io at /sock/ on the HTTP server. Two kinds of socket:
// - a signed-in user (handshake auth.token): joins the account room, its own user room, its session's
//   room, and the conversation rooms its role allows (every conversation for owners and managers, its
//   departments' for attendants), so a conversation event reaches only who may see it. Ending a session
//   (logout, password change or reset, a deleted user) closes its sockets by room, which an adapter
//   carries to every process;
// - a simulator page (handshake auth.simulator + phone): joins that customer's room on that chip.
// Scale-out later: @socket.io/postgres-adapter, no code change here.
import type { Server as HttpServer } from 'node:http';
import { and, eq } from 'drizzle-orm';
import { Server, type Socket } from 'socket.io';
import type { UserRole } from '../../shared/constants';
import { calls } from '../../shared/contract';
import {
  accountRoom,
  allConversationsRoom,
  type ClientToServerEvents,
  type ConversationEvent,
  campaignRoom,
  departmentRoom,
  type ReceiveMessage,
  type ServerToClientEvents,
  type SimulatorEvent,
  simulatorRoom,
} from '../../shared/contract/events';
import { messages } from '../../shared/messages';
import { departmentLimit } from '../../shared/rules/access';
import { assertMayCall, userActor } from '../access';
import type { Db } from '../db';
import { campaigns } from '../db/schema';
import { authenticate } from '../domains/auth/auth.service';

interface SocketData {
  accountId: string;
  userId: string;
  sessionId: string;
  /** Set for a simulator page's socket instead of a user. */
  simulatorRoom?: string;
}

type AppServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
type AppSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/** Resolves a simulator socket's handshake to its room, or null. Given by the simulator channel. */
export type SimulatorAuth = (token: string, phone: string) => Promise<string | null>;

export interface Realtime {
  io: AppServer;
  toAccount(accountId: string, event: ReceiveMessage): void;
  /** A conversation event: to owners and managers, and to the attendants of `departmentId`. */
  toConversation(accountId: string, departmentId: string | null, event: ConversationEvent): void;
  toSimulator(chipId: string, phone: string, event: SimulatorEvent): void;
  /** A campaign's follow dialogs (its room). */
  toCampaign(campaignId: string, event: Extract<ReceiveMessage, { type: 'campaign_progress' }>): void;
  /** A user's role or departments changed: their open sockets move to the right rooms. */
  refreshUser(user: {
    id: string;
    accountId: string;
    userRole: UserRole;
    departments: string[];
  }): Promise<void>;
  /** A deleted user, or their sessions ended: their open sockets are closed (but `keepSessionId`'s). */
  dropUser(userId: string, opts?: { keepSessionId?: string }): Promise<void>;
  /** A session ended: its open sockets are closed. */
  dropSession(sessionId: string): void;
  setSimulatorAuth(auth: SimulatorAuth): void;
  close(): void;
}

const userRoom = (userId: string) => `user_${userId}`;
const sessionRoom = (sessionId: string) => `session_${sessionId}`;

function conversationRooms(u: { accountId: string; userRole: UserRole; departments: string[] }) {
  const limit = departmentLimit(u);
  return limit ? limit.map((d) => departmentRoom(u.accountId, d)) : [allConversationsRoom(u.accountId)];
}

export function createRealtime(server: HttpServer, db: Db): Realtime {
  const io: AppServer = new Server(server, { path: '/sock/', serveClient: false, cors: { origin: false } });
  let simulatorAuth: SimulatorAuth = async () => null;

  io.use(async (socket, next) => {
    const auth = socket.handshake.auth as { token?: unknown; simulator?: unknown; phone?: unknown };
    if (typeof auth.simulator === 'string' && typeof auth.phone === 'string') {
      const room = await simulatorAuth(auth.simulator, auth.phone).catch(() => null);
      if (!room) return next(new Error(messages.unauthorized));
      socket.data.simulatorRoom = room;
      return next();
    }
    // 'unauthorized' signs the app out, so a database failure must not be reported as one.
    let session: Awaited<ReturnType<typeof authenticate>> = null;
    try {
      session = typeof auth.token === 'string' ? await authenticate(db, auth.token) : null;
    } catch {
      return next(new Error(messages.internalError));
    }
    if (!session) return next(new Error(messages.unauthorized));
    socket.data.accountId = session.user.accountId;
    socket.data.userId = session.user.id;
    socket.data.sessionId = session.sessionId;
    socket.join([
      accountRoom(session.user.accountId),
      userRoom(session.user.id),
      sessionRoom(session.sessionId),
      ...conversationRooms(session.user),
    ]);
    next();
  });

  /**
   * A campaign's room is for a user who may make the campaign calls now (the one access rule: area and plan,
   * read again, as a role may have changed since the handshake), for a campaign of their own account.
   */
  async function mayFollowCampaign(token: string, accountId: string, campaignId: string) {
    const session = await authenticate(db, token);
    if (!session || session.user.accountId !== accountId) return false;
    try {
      assertMayCall(userActor(session.user), calls['get-campaign-realtime'].access);
    } catch {
      return false;
    }
    const [row] = await db
      .select({ id: campaigns.id })
      .from(campaigns)
      .where(
        and(eq(campaigns.id, campaignId), eq(campaigns.accountId, accountId), eq(campaigns.filed, false)),
      )
      .limit(1);
    return Boolean(row);
  }

  io.on('connection', (socket: AppSocket) => {
    if (socket.data.simulatorRoom) {
      socket.join(socket.data.simulatorRoom);
      return;
    }
    // A session ended between the handshake's check and now was closed by room while this socket was not
    // yet connected, which skips it: look once more, now that a later close would reach it.
    const token = (socket.handshake.auth as { token: string }).token;
    authenticate(db, token)
      .catch(() => null)
      .then((session) => {
        if (session?.sessionId !== socket.data.sessionId) socket.disconnect(true);
      });
    const own = accountRoom(socket.data.accountId);
    socket.on('join-room', (room, ack) => {
      // The spec's client sends the account id; our room name is also accepted. Other rooms are refused.
      if (typeof room === 'string' && room.startsWith(campaignRoom(''))) {
        void mayFollowCampaign(token, socket.data.accountId, room.slice(campaignRoom('').length))
          .catch(() => false)
          .then((allowed) => {
            if (allowed) {
              // One campaign followed at a time (spec 3 §4: it leaves the other rooms).
              for (const r of socket.rooms) if (r.startsWith(campaignRoom('')) && r !== room) socket.leave(r);
              socket.join(room);
            }
            if (typeof ack === 'function') ack(allowed);
          });
        return;
      }
      const allowed = room === own || room === socket.data.accountId;
      if (typeof ack === 'function') ack(allowed);
    });
  });

  return {
    io,
    toAccount: (accountId, event) => io.to(accountRoom(accountId)).emit('receive-message', event),
    toConversation(accountId, departmentId, event) {
      const rooms = [allConversationsRoom(accountId)];
      if (departmentId) rooms.push(departmentRoom(accountId, departmentId));
      // One emit to several rooms reaches each socket once.
      io.to(rooms).emit('receive-message', event);
    },
    toSimulator: (chipId, phone, event) => io.to(simulatorRoom(chipId, phone)).emit('simulator', event),
    toCampaign: (campaignId, event) => io.to(campaignRoom(campaignId)).emit('receive-message', event),
    async refreshUser(user) {
      const sockets = await io.in(userRoom(user.id)).fetchSockets();
      const prefix = `${accountRoom(user.accountId)}:`;
      for (const s of sockets) {
        for (const room of s.rooms) if (room.startsWith(prefix)) s.leave(room);
        s.join(conversationRooms(user));
      }
    },
    async dropUser(userId, opts = {}) {
      const sockets = io.in(userRoom(userId));
      (opts.keepSessionId ? sockets.except(sessionRoom(opts.keepSessionId)) : sockets).disconnectSockets(
        true,
      );
    },
    dropSession(sessionId) {
      io.in(sessionRoom(sessionId)).disconnectSockets(true);
    },
    setSimulatorAuth(auth) {
      simulatorAuth = auth;
    },
    close() {
      io.disconnectSockets(true);
      io.engine.close();
    },
  };
}
