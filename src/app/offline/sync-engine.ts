// The sync engine: one object per signed-in session (created when the signed-in app starts, disposed at
// sign-out or when the user changes) that owns what keeps the device and the server in step: the claim of the
// device for the user, the mirror of the query cache into Dexie, the conversations that left the user's view,
// the catch-up loop after a reconnect, and the outbox's kicks. Features register typed adapters: which query
// keys they own, how each kind of query is written to the device, and how to catch up on what changed. The one
// connectivity source is TanStack's onlineManager (src/app/lib/online.ts).
import type { Query, QueryClient } from '@tanstack/react-query';
import { isOnline as onlineNow, onOnlineChange } from '@/app/lib/online';
import { forgetConversations } from './cache';
import { changesCursor, claimFor, type OfflineDb, SESSION_KEY, saveChangesCursor } from './db';
import type { Outbox } from './outbox';

/** What a mirror function may use of the device. */
export interface MirrorDevice {
  readonly db: OfflineDb;
  /**
   * The items not written yet by this session (the query cache keeps an unchanged item as the same object):
   * each change writes only what is new. Writing a whole list again (10,000 conversations, or a 5,000-message
   * history) at each page made IndexedDB's copying a long task that grew with every page.
   */
  fresh<T extends { _id: string }>(kind: string, items: readonly T[]): T[];
  /** Left the user's view on this page (finished, transferred away): kept off the device. */
  isGone(id: string): boolean;
  /** A list is the server's word that the user sees them (a resumed conversation comes back). */
  shown(ids: Iterable<string>): void;
}

/** What a catch-up may use: the query cache, the device, the server cursor, and a whole reload. */
export interface CatchUpSession {
  readonly client: QueryClient;
  readonly db: OfflineDb;
  /** The catch-up's cursor on this device (null before the first catch-up, and after a wipe). */
  cursor(): Promise<string | null>;
  saveCursor(cursor: string): Promise<void>;
  /**
   * The catch-up could not tell what changed (no cursor yet, or one too old): the device's cached
   * conversations and messages are dropped (what the user may no longer see must not outlive a reload) and
   * every query of the adapter is asked again; the mirror writes the answers back. The outbox stays.
   */
  reload(): Promise<void>;
}

/**
 * A feature's part in the sync: the query keys it owns (`[scope, kind, ...]`), how each kind of query is
 * written to the device, typed by the data its queries hold (`Shapes`: kind → data), and its catch-up.
 */
export interface SyncAdapter<Shapes extends object> {
  readonly scope: string;
  readonly mirror: { readonly [K in keyof Shapes]?: (data: Shapes[K], device: MirrorDevice) => void };
  /** Catches up on what changed while away; false when its queries must be asked again whole. */
  catchUp?(session: CatchUpSession): Promise<boolean>;
}

/** Declares an adapter with its shapes (inference from the mirror functions' data types). */
export const defineSyncAdapter = <Shapes extends object>(adapter: SyncAdapter<Shapes>) => adapter;

/** An adapter as the engine keeps it: its mirror functions are called with the data of their own kind. */
interface AnyAdapter {
  readonly scope: string;
  readonly mirror: { readonly [kind: string]: ((data: never, device: MirrorDevice) => void) | undefined };
  catchUp?(session: CatchUpSession): Promise<boolean>;
}

export interface SyncEngineOptions {
  client: QueryClient;
  userId: string;
  db: OfflineDb;
  outbox: Outbox;
  /** The session token, left on the device for the service worker's Background Sync. */
  token(): string | null;
  /** Messages the server settled (the socket's message_updated/new_message): the outbox takes them out. */
  onSettled?(listener: (message: Parameters<Outbox['settled']>[0]) => void): () => void;
  /** The service worker's 'outbox-sync' (Background Sync while a page is open). */
  onWorkerSync?(listener: () => void): () => void;
  /** Batching of the mirror's writes. */
  mirrorDelayMs?: number;
}

export interface SyncEngine {
  readonly userId: string;
  /** Resolves once the device belongs to this session's user. */
  readonly claimed: Promise<unknown>;
  /** Registers a feature's adapter; answers its removal. */
  register<Shapes extends object>(adapter: SyncAdapter<Shapes>): () => void;
  /**
   * Back in touch (the network came back, or the socket reconnected): send what waits, and catch up on what
   * changed meanwhile, merged by id (nothing twice).
   */
  reconnected(): Promise<void>;
  /** Takes conversations off the device with their messages (not the outbox): the user may no longer see them. */
  forget(ids: readonly string[]): Promise<void>;
  dispose(): void;
}

const MIRROR_DELAY_MS = 300;

/** A catch-up's session over `client` and `db` for the queries under `scope` (the engine's, or a test's). */
export function catchUpSession(
  client: QueryClient,
  db: OfflineDb,
  scope: string,
  forgetWritten: () => void = () => undefined,
): CatchUpSession {
  return {
    client,
    db,
    cursor: () => changesCursor(db),
    saveCursor: (cursor) => saveChangesCursor(cursor, db),
    async reload() {
      await db
        .transaction('rw', [db.conversations, db.messages], async () => {
          await Promise.all([db.conversations.clear(), db.messages.clear()]);
        })
        .catch(() => undefined);
      forgetWritten();
      await client.invalidateQueries({ queryKey: [scope] });
    },
  };
}

let active: SyncEngine | null = null;
/** The signed-in session's engine, if one runs (features reach it through src/app/offline/app-offline.ts). */
export const currentSync = () => active;

export function createSyncEngine(opts: SyncEngineOptions): SyncEngine {
  const { client, db, outbox } = opts;
  const adapters = new Map<string, AnyAdapter>();
  // What is already on the device, by kind and id (Maps, not WeakSets: thousands of weak entries made each
  // full garbage collection a long task).
  const mirrored = new Map<string, object>();
  // Conversations that left the user's view on this page: kept off the device even while a screen still
  // holds them (an open pane), until a list shows them again.
  const gone = new Set<string>();
  const stops: (() => void)[] = [];
  let live = true;
  let ready = false;
  let catchingUp: Promise<void> | null = null;
  let again = false;

  const device: MirrorDevice = {
    db,
    fresh(kind, items) {
      const out: (typeof items)[number][] = [];
      for (const item of items) {
        const key = `${kind}:${item._id}`;
        if (mirrored.get(key) === item) continue;
        mirrored.set(key, item);
        out.push(item);
      }
      return out;
    },
    isGone: (id) => gone.has(id),
    shown(ids) {
      for (const id of ids) gone.delete(id);
    },
  };

  function mirror(query: Query) {
    const [scope, kind] = query.queryKey as readonly unknown[];
    const adapter = adapters.get(scope as string);
    const write = adapter?.mirror[kind as string];
    const data = query.state.data;
    if (!write || data === undefined || data === null) return;
    write(data as never, device);
  }

  // The device claimed for the signed-in user: nothing is sent or written before (a socket may connect first,
  // and another user's outbox is wiped by the claim, never sent with this user's session).
  const claimed: Promise<unknown> = claimFor(db, opts.userId)
    .then(() => db.meta.put({ key: SESSION_KEY, value: opts.token() }))
    .catch(() => undefined);

  function startMirror() {
    const due = new Map<string, Query>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unsubscribe = client.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated') return;
      if (!adapters.has((event.query.queryKey as unknown[])[0] as string)) return;
      due.set(event.query.queryHash, event.query);
      timer ??= setTimeout(() => {
        timer = undefined;
        const list = [...due.values()];
        due.clear();
        for (const q of list) mirror(q);
      }, opts.mirrorDelayMs ?? MIRROR_DELAY_MS);
    });
    stops.push(() => {
      unsubscribe();
      clearTimeout(timer);
    });
  }

  /** What arrived before the mirror started (the device was being claimed meanwhile), or before `register`. */
  const sweep = (scope: string) => {
    for (const q of client.getQueryCache().findAll({ queryKey: [scope] })) mirror(q);
  };

  const session = (adapter: AnyAdapter) => catchUpSession(client, db, adapter.scope, () => mirrored.clear());

  /** Sends what waits, once the device is this user's. */
  function kick() {
    void claimed.then(() => {
      if (live) void outbox.kick();
    });
  }

  /** One catch-up at a time; a reconnect during one runs another right after (nothing between them missed). */
  function catchUp(): Promise<void> {
    if (catchingUp) {
      again = true;
      return catchingUp;
    }
    catchingUp = (async () => {
      await claimed;
      do {
        again = false;
        for (const adapter of [...adapters.values()]) {
          if (!live) return;
          const done = adapter.catchUp ? await adapter.catchUp(session(adapter)).catch(() => false) : false;
          if (!done) await client.invalidateQueries({ queryKey: [adapter.scope] });
        }
      } while (again && live);
    })().finally(() => {
      catchingUp = null;
    });
    return catchingUp;
  }

  const engine: SyncEngine = {
    userId: opts.userId,
    claimed,
    register(adapter) {
      adapters.set(adapter.scope, adapter as unknown as AnyAdapter);
      if (ready) sweep(adapter.scope);
      return () => {
        if (adapters.get(adapter.scope) === (adapter as unknown)) adapters.delete(adapter.scope);
      };
    },
    reconnected() {
      if (!live) return Promise.resolve();
      kick();
      return catchUp();
    },
    forget(ids) {
      for (const id of ids) gone.add(id);
      return forgetConversations(db, ids).catch(() => undefined);
    },
    dispose() {
      if (!live) return;
      live = false;
      for (const stop of stops.splice(0)) stop();
      adapters.clear();
      outbox.stop();
      if (active === engine) active = null;
    },
  };

  // The one 'online' listener that starts work (the socket's own reconnect lands in `reconnected` too).
  stops.push(
    onOnlineChange((online) => {
      if (online) void engine.reconnected();
    }),
  );
  if (opts.onWorkerSync) stops.push(opts.onWorkerSync(kick));
  if (opts.onSettled)
    stops.push(
      opts.onSettled((message) => {
        void claimed.then(() => {
          if (live) void outbox.settled(message);
        });
      }),
    );

  void claimed.then(() => {
    if (!live) return;
    ready = true;
    startMirror();
    for (const scope of adapters.keys()) sweep(scope);
    void outbox.kick();
    // What changed since this device last caught up (maybe a reload after a time offline).
    if (onlineNow() && [...adapters.values()].some((a) => a.catchUp)) void catchUp();
  });

  active?.dispose();
  active = engine;
  return engine;
}
