// The socket client (spec 1 §7, §8): socket.io at /sock/ with the token, joins the account room. While the
// address is unknown, or when a connection fails, it retries up to 3 times, waiting 500 ms + 2 s × attempt;
// then it gives up and the shell asks for a page refresh.
import type { Socket } from 'socket.io-client';
import { SOCKET_RETRY_LIMIT, socketRetryDelayMs } from '@/shared/constants';
import {
  accountRoom,
  type ClientToServerEvents,
  type ReceiveMessage,
  type ServerToClientEvents,
} from '@/shared/contract/events';
import { messages } from '@/shared/messages';

export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
export type SocketStatus = 'waiting-address' | 'connecting' | 'connected' | 'failed' | 'paused';

export interface SocketClientOptions {
  /** The socket server's address; null while not yet known. */
  address(): string | null;
  token(): string | null;
  accountId: string;
  onStatus(status: SocketStatus): void;
  onEvent(event: ReceiveMessage): void;
  /** The server refused the token (the session was ended: logout elsewhere, password changed or reset). */
  onUnauthorized?(): void;
  /** Injected by tests; socket.io by default. */
  create?(address: string, token: () => string | null): AppSocket | Promise<AppSocket>;
}

// socket.io-client is loaded by the first connection, not with the shell: the first paint does not wait for it.
const createSocketIo = async (address: string, token: () => string | null): Promise<AppSocket> => {
  const { io } = await import('socket.io-client');
  return io(address, {
    path: '/sock/',
    transports: ['websocket'],
    autoConnect: false,
    // Our own retry rule replaces socket.io's exponential one.
    reconnection: false,
    auth: (cb) => cb({ token: token() }),
  });
};

export function createSocketClient(opts: SocketClientOptions) {
  const create = opts.create ?? createSocketIo;
  let socket: AppSocket | null = null;
  let failures = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = false;
  /** The socket being created (socket.io loading): a second attempt meanwhile waits for it. */
  let creating = false;

  const status = (s: SocketStatus) => {
    if (running || s === 'paused') opts.onStatus(s);
  };

  function retry() {
    if (!running) return;
    failures += 1;
    if (failures > SOCKET_RETRY_LIMIT) {
      running = false;
      opts.onStatus('failed');
      return;
    }
    clearTimeout(timer);
    timer = setTimeout(attempt, socketRetryDelayMs(failures));
  }

  function attempt() {
    if (!running) return;
    const address = opts.address();
    if (!address) {
      status('waiting-address');
      return retry();
    }
    status('connecting');
    if (socket) {
      socket.connect();
      return;
    }
    if (creating) return;
    const made = create(address, opts.token);
    if (!('then' in made)) {
      wire(made);
      made.connect();
      return;
    }
    creating = true;
    made.then(
      (s) => {
        creating = false;
        // Stopped or paused meanwhile: the next start creates it again.
        if (!running) return;
        wire(s);
        s.connect();
      },
      () => {
        creating = false;
        retry();
      },
    );
  }

  function wire(s: AppSocket) {
    s.on('connect', () => {
      failures = 0;
      status('connected');
      s.emit('join-room', accountRoom(opts.accountId));
    });
    s.on('connect_error', (err) => {
      // A refused token will not get better by retrying: the session is over.
      if (err?.message === messages.unauthorized) {
        running = false;
        opts.onUnauthorized?.();
        return;
      }
      retry();
    });
    s.on('disconnect', (reason) => {
      // Our own close, or a pause: not a failure.
      if (!running || reason === 'io client disconnect') return;
      status('connecting');
      retry();
    });
    s.on('receive-message', (event) => opts.onEvent(event));
    socket = s;
  }

  return {
    /** (Re)starts with a fresh retry budget: at start and when the device comes back online. */
    start() {
      if (running && socket?.connected) return;
      running = true;
      failures = 0;
      clearTimeout(timer);
      attempt();
    },
    /** Offline: stop trying without counting failures. */
    pause() {
      running = false;
      clearTimeout(timer);
      socket?.disconnect();
      opts.onStatus('paused');
    },
    stop() {
      running = false;
      clearTimeout(timer);
      socket?.removeAllListeners();
      socket?.disconnect();
      socket = null;
    },
    get connected() {
      return socket?.connected ?? false;
    },
  };
}

export type SocketClient = ReturnType<typeof createSocketClient>;

/** The socket's failure in the words of the screen it happens on: the templates screen has its own (spec 3 §4). */
export const socketFailedText = (pathname: string) =>
  pathname.startsWith('/templates') ? messages.socketFailedTemplates : messages.socketFailed;
