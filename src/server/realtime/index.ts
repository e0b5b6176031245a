// socket.io at /sock/ on the HTTP server. Two kinds of socket:
// - a signed-in user (handshake auth.token): joins the account room, its own user room, its session's
//   room, and the conversation rooms its role allows (every conversation for owners and managers, its
//   departments' for attendants), so a conversation event reaches only who may see it. Ending a session
//   (logout, password change or reset, a deleted user) closes its sockets by room, which an adapter
//   carries to every process;
// - a simulator page (handshake auth.simulator + phone): joins that customer's room on that chip.
// Several processes on one PostgreSQL: @socket.io/postgres-adapter carries every room emit, every socket
// disconnect by room and fetchSockets to the other processes (NOTIFY on the database), so nothing else here
// knows how many processes there are. On PGlite (one process) socket.io's in-memory adapter.
import type { Server as HttpServer } from 'node:http';
import { createAdapter } from '@socket.io/postgres-adapter';
import type { FastifyBaseLogger } from 'fastify';
import type { Pool, PoolClient } from 'pg';
import { Server, type Socket } from 'socket.io';
import type { AccessArea, UserRole } from '../../shared/constants';
import { calls } from '../../shared/contract';
import type { CallAccess } from '../../shared/contract/define';
import {
  accountRoom,
  allConversationsRoom,
  type ClientToServerEvents,
  type ConversationEvent,
  campaignRoom,
  dashboardRoom,
  departmentRoom,
  type ReceiveMessage,
  type ServerToClientEvents,
  simulatorRoom,
  webhookRoom,
} from '../../shared/contract/events';
import { messages } from '../../shared/messages';
import { departmentLimit, mayCall } from '../../shared/rules/access';
import { type Actor, assertMayCall, userActor } from '../access';
import type { Db } from '../db';
import { authenticate } from '../domains/auth/auth.service';
import { campaignsRepo } from '../domains/campaigns/campaigns.repo';
import { webhooksRepo } from '../domains/webhooks/webhooks.repo';
import { nestedDeeperThan } from '../http/json';
import type { AppServer, Realtime, RealtimeListener, SocketData } from './port';

type AppSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/** Resolves a simulator socket's handshake to its room, or null. Given by the simulator channel. */
export type SimulatorAuth = (token: string, phone: string) => Promise<string | null>;

/** Realtime as the domains see it (port.ts), and what app.ts wires and closes. */
export interface RealtimeServer extends Realtime {
  setSimulatorAuth(auth: SimulatorAuth): void;
  /** Told of every conversation event this process emits, and of every user socket connecting to it. */
  setListener(listener: RealtimeListener): void;
  close(): void;
}

const userRoom = (userId: string) => `user_${userId}`;
const sessionRoom = (sessionId: string) => `session_${sessionId}`;

/**
 * The dashboard's live hints (load_realtime, load_open_conversations) go to the users who may ask for the
 * real-time cards (the one access rule): their sockets are put in its room at the handshake and again when
 * their role or areas change, so the app's one socket hears them without asking.
 */
function dashboardRooms(u: { accountId: string; userRole: UserRole; accessAreas: AccessArea[] }) {
  const subject = { userRole: u.userRole, accessAreas: u.accessAreas, departments: [], admin: false };
  return mayCall(subject, calls['get-dashboard-real-time-data'].access) ? [dashboardRoom(u.accountId)] : [];
}

function conversationRooms(u: { accountId: string; userRole: UserRole; departments: string[] }) {
  const limit = departmentLimit(u);
  return limit ? limit.map((d) => departmentRoom(u.accountId, d)) : [allConversationsRoom(u.accountId)];
}

/**
 * The pool as the socket adapter uses it, with a LISTEN connection that survives the database ending it (a
 * restart, a failover). The adapter keeps one client checked out for its LISTEN and, when that connection ends,
 * listens again on a new one without releasing the old: after a few restarts the pool would have no slot left
 * for the events' NOTIFY. Released here, broken, the pool discards it. While no LISTEN was held, the other
 * processes' events to this process's sockets were lost (NOTIFY keeps nothing): once listening again,
 * `onResumed` has the sockets catch up.
 */
function listenerPool(pool: Pool, onResumed: () => void) {
  let lost = false;
  /** What the adapter holds: normally one client; two when a reconnect raced another during a restart. */
  const held = new Set<PoolClient>();
  /** The client whose LISTEN succeeded last: the adapter's. */
  let current: PoolClient | undefined;
  const connect = async () => {
    const client = await pool.connect();
    held.add(client);
    // Wrapped for as long as the adapter holds it: the pool hands the client to others once released.
    const { query, release } = client;
    let released = false;
    client.release = (err?: Error | boolean) => {
      if (released) return;
      released = true;
      held.delete(client);
      Object.assign(client, { query, release });
      release(err);
    };
    // The adapter's own close removes this listener before it releases the client: not a loss.
    client.once('end', () => {
      lost = true;
      client.release(new Error('LISTEN connection ended'));
    });
    client.query = ((...args: Parameters<typeof query>) => {
      const done = (query as (...a: unknown[]) => unknown).apply(client, args);
      if (typeof args[0] === 'string' && args[0].startsWith('LISTEN') && done instanceof Promise)
        void done.then(() => listening(client), noop);
      return done;
    }) as typeof query;
    return client;
  };
  /**
   * A LISTEN succeeded on `client`. The adapter may have raced two reconnects (the failed LISTEN's and the ended
   * connection's): the older listener is let go, or each event would reach this process's sockets twice.
   */
  function listening(client: PoolClient) {
    if (current !== client) {
      const older = current;
      current = client;
      if (older && held.has(older)) {
        older.removeAllListeners('end'); // not a loss: nothing to reconnect
        older.release(new Error('LISTEN replaced'));
      }
    }
    if (!lost) return;
    lost = false;
    onResumed();
  }
  return {
    pool: new Proxy(pool, {
      get: (target, prop) => {
        if (prop === 'connect') return connect;
        const value = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }),
    /** At shutdown, after the adapter's close: a client it lost track of would hold the pool's end forever. */
    releaseAll() {
      for (const client of [...held]) client.release();
    },
  };
}

const noop = () => {};

/** The events a client may emit (the app's and the simulator page's sockets). */
const CLIENT_EVENTS = new Set<string>(['join-room'] satisfies (keyof ClientToServerEvents)[]);
const SOCKET_MESSAGE_LIMIT = 64 * 1024;

export function createRealtime(
  server: HttpServer,
  db: Db,
  opts: { pool?: Pool; log?: Pick<FastifyBaseLogger, 'warn'> } = {},
): RealtimeServer {
  const io: AppServer = new Server(server, {
    path: '/sock/',
    serveClient: false,
    cors: { origin: false },
    // What a client sends is a room name and an ack: a message past this closes its connection (the default
    // is 1 MB, for nothing the app needs).
    maxHttpBufferSize: SOCKET_MESSAGE_LIMIT,
  });
  const listening =
    opts.pool &&
    listenerPool(opts.pool, () => {
      // The app's and the simulator page's sockets connect again at once and catch up from their cursor
      // (get-changes-since, the simulator's history): what they missed meanwhile is not lost to them.
      opts.log?.warn('socket adapter (PostgreSQL): listening again; sockets asked to reconnect and catch up');
      io.local.disconnectSockets();
    });
  if (listening)
    io.adapter(
      createAdapter(listening.pool, {
        errorHandler: (err) => opts.log?.warn({ err }, 'socket adapter (PostgreSQL) error'),
      }),
    );
  let simulatorAuth: SimulatorAuth = async () => null;
  let listener: RealtimeListener | null = null;

  io.use(async (socket, next) => {
    const auth = socket.handshake.auth as { token?: unknown; simulator?: unknown; phone?: unknown };
    if (typeof auth.simulator === 'string' && typeof auth.phone === 'string') {
      // As for the app below: a database failure is not a wrong link, and the page tries again.
      let room: string | null;
      try {
        room = await simulatorAuth(auth.simulator, auth.phone);
      } catch {
        return next(new Error(messages.internalError));
      }
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
      ...dashboardRooms(session.user),
    ]);
    next();
  });

  /**
   * The socket's user as the access rule sees them now, when they may make calls of `access` (role, area and
   * plan read again: they may have changed since the handshake); null otherwise or once the session ended.
   */
  async function actorWhoMay(token: string, access: CallAccess): Promise<Actor | null> {
    const session = await authenticate(db, token);
    if (!session) return null;
    const actor = userActor(session.user);
    try {
      assertMayCall(actor, access);
    } catch {
      return null;
    }
    return actor;
  }

  /** A campaign's room: for a user who may make the campaign calls, for a campaign of their account. */
  async function mayFollowCampaign(token: string, campaignId: string) {
    const actor = await actorWhoMay(token, calls['get-campaign-realtime'].access);
    return Boolean(actor && (await campaignsRepo.find(db, actor, campaignId)));
  }

  /** A webhook's room: the same rule as a campaign's, for a webhook of the user's account. */
  async function mayWaitForWebhook(token: string, webhookId: string) {
    const actor = await actorWhoMay(token, calls['get-webhook-by-id'].access);
    return Boolean(actor && (await webhooksRepo.find(db, actor, webhookId)));
  }

  /** The dashboard's room: for a user who may ask for the real-time cards. */
  async function mayWatchDashboard(token: string) {
    return Boolean(await actorWhoMay(token, calls['get-dashboard-real-time-data'].access));
  }

  const hints = dashboardHints((accountId, event) =>
    io.to(dashboardRoom(accountId)).emit('receive-message', event),
  );

  io.on('connection', (socket: AppSocket) => {
    // Untrusted input, as an HTTP body is: an event the server does not listen to, or arguments nested past
    // the bodies' limit, cut the socket off before any handler walks them.
    socket.use(([event, ...args], next) => {
      if (!CLIENT_EVENTS.has(event) || nestedDeeperThan(args))
        return next(new Error(messages.invalidPayload));
      next();
    });
    socket.on('error', () => socket.disconnect(true));
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
    listener?.userConnected(socket.data.accountId, socket.data.userId);
    socket.on('join-room', (room, ack) => {
      if (typeof room === 'string' && room === dashboardRoom(socket.data.accountId)) {
        void mayWatchDashboard(token)
          .catch(() => false)
          .then((allowed) => {
            if (allowed) socket.join(room);
            if (typeof ack === 'function') ack(allowed);
          });
        return;
      }
      // The spec's client sends the account id; our room name is also accepted. Other rooms are refused.
      if (typeof room === 'string' && room.startsWith(campaignRoom(''))) {
        void mayFollowCampaign(token, room.slice(campaignRoom('').length))
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
      if (typeof room === 'string' && room.startsWith(webhookRoom(''))) {
        void mayWaitForWebhook(token, room.slice(webhookRoom('').length))
          .catch(() => false)
          .then((allowed) => {
            if (allowed) socket.join(room);
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
      const hint = dashboardHintOf(event);
      if (hint) hints.push(accountId, hint.type, hint.chipId);
      listener?.conversationEvent(accountId, departmentId, event);
    },
    toSimulator: (chipId, phone, event) => io.to(simulatorRoom(chipId, phone)).emit('simulator', event),
    toCampaign: (campaignId, event) => io.to(campaignRoom(campaignId)).emit('receive-message', event),
    toWebhook: (webhookId, event) => io.to(webhookRoom(webhookId)).emit('receive-message', event),
    async refreshUser(user) {
      const sockets = await io.in(userRoom(user.id)).fetchSockets();
      const prefix = `${accountRoom(user.accountId)}:`;
      for (const s of sockets) {
        for (const room of s.rooms) if (room.startsWith(prefix)) s.leave(room);
        s.leave(dashboardRoom(user.accountId));
        s.join([...conversationRooms(user), ...dashboardRooms(user)]);
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
    async onlineUsers(accountId) {
      const sockets = await io.in(accountRoom(accountId)).fetchSockets();
      return new Set(sockets.map((s) => s.data.userId).filter(Boolean));
    },
    setListener(l) {
      listener = l;
    },
    close() {
      hints.close();
      io.disconnectSockets(true);
      io.engine.close();
      // The PostgreSQL adapter's LISTEN connection goes back to the pool, or the pool's end waits for it.
      // (Not io.close(): it would close the HTTP server, which Fastify closes.)
      void io.of('/').adapter.close();
      listening?.releaseAll();
    },
  };
}

type DashboardHint = Extract<ReceiveMessage, { type: 'load_open_conversations' | 'load_realtime' }>;

/**
 * The dashboard's hint for a conversation event (spec 3 §2.1): opened or finished changes the open count,
 * the rest the other real-time cards (waiting response, human, chatbot). A team or chatbot message changes
 * no card by itself: its 'answered' change comes as conversation_updated.
 */
export function dashboardHintOf(
  event: ConversationEvent,
): { type: DashboardHint['type']; chipId: string | null } | null {
  switch (event.type) {
    case 'new_conversation':
      return { type: 'load_open_conversations', chipId: event.message.chip };
    case 'conversation_finished':
      return { type: 'load_open_conversations', chipId: null };
    case 'conversation_updated':
      return { type: 'load_realtime', chipId: event.message.chip };
    case 'set_manual':
      return { type: 'load_realtime', chipId: null };
    case 'new_message':
      return event.message.message.origin === 'customer' ? { type: 'load_realtime', chipId: null } : null;
    default:
      return null;
  }
}

/** At most one dashboard hint of each kind per account in this window (the first goes at once). */
export const DASHBOARD_HINT_MS = 250;

/**
 * Throttles the dashboard hints per account: the first at once, then what came meanwhile once per window
 * (trailing), so a burst of messages costs each dashboard one reload per window. A hint names its chip when
 * every event it stands for was on that chip, null otherwise (a dashboard filtered by chip may skip others').
 */
export function dashboardHints(emit: (accountId: string, event: DashboardHint) => void) {
  const accounts = new Map<
    string,
    { pending: Map<DashboardHint['type'], string | null>; timer: ReturnType<typeof setTimeout> }
  >();
  const send = (accountId: string, type: DashboardHint['type'], chipId: string | null) =>
    emit(accountId, { type, message: { chip_id: chipId } });
  const schedule = (accountId: string) => {
    const timer = setTimeout(() => {
      const state = accounts.get(accountId);
      if (!state) return;
      if (!state.pending.size) {
        accounts.delete(accountId);
        return;
      }
      const due = [...state.pending];
      state.pending.clear();
      state.timer = schedule(accountId);
      for (const [type, chipId] of due) send(accountId, type, chipId);
    }, DASHBOARD_HINT_MS);
    timer.unref?.();
    return timer;
  };
  return {
    push(accountId: string, type: DashboardHint['type'], chipId: string | null) {
      const state = accounts.get(accountId);
      if (!state) {
        accounts.set(accountId, { pending: new Map(), timer: schedule(accountId) });
        send(accountId, type, chipId);
        return;
      }
      const was = state.pending.get(type);
      state.pending.set(type, was === undefined || was === chipId ? chipId : null);
    },
    close() {
      for (const state of accounts.values()) clearTimeout(state.timer);
      accounts.clear();
    },
  };
}
