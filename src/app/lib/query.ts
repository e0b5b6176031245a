// Server state: one QueryClient; queries marked `meta.persist` survive reloads (localStorage), so the shell
// opens offline with the last known user.

import { createSyncStoragePersister } from '@tanstack/query-sync-storage-persister';
import { hydrate, QueryClient, queryOptions } from '@tanstack/react-query';
import {
  type PersistedClient,
  type Persister,
  persistQueryClientSubscribe,
} from '@tanstack/react-query-persist-client';
import type { CallName, Payload } from '@/shared/contract';
import { ApiError, api, session } from './api';
import { forgetFirstPaint } from './first-paint';
// The connection state is set before the first query runs.
import './online';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: { persist?: boolean };
  }
}

const CACHE_KEY = 'painel-cache';
const DAY_MS = 24 * 60 * 60 * 1000;

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      gcTime: DAY_MS,
      // A refused call is final; only a lost connection is worth retrying.
      retry: (failures, err) => !(err instanceof ApiError && err.status !== 0) && failures < 2,
    },
  },
});

/** The session being saved, or null while signed out (nothing is saved then). */
let saving: { unsubscribe(): void } | null = null;

// localStorage that refuses writes while signed out: the persister's throttled save may fire after a
// sign-out, and must not bring the last user's data back.
const guardedStorage = {
  getItem: (key: string) => localStorage.getItem(key),
  setItem: (key: string, value: string) => {
    if (saving) localStorage.setItem(key, value);
  },
  removeItem: (key: string) => localStorage.removeItem(key),
};

type SavedQuery = PersistedClient['clientState']['queries'][number];

/**
 * A query as it is saved: one that failed its last refetch is restored as answered (its error was about a
 * network that is gone by the next start; an Error does not survive JSON anyway), so screens read its data as
 * usual; an infinite list keeps its first page only (what the first screen shows).
 */
function forSaving(q: SavedQuery): SavedQuery {
  let state = q.state;
  if (state.status === 'error')
    state = { ...state, status: 'success', error: null, fetchFailureReason: null };
  const data = state.data as { pages?: unknown[]; pageParams?: unknown[] } | undefined;
  if (Array.isArray(data?.pages) && Array.isArray(data.pageParams) && data.pages.length > 1)
    state = { ...state, data: { pages: data.pages.slice(0, 1), pageParams: data.pageParams.slice(0, 1) } };
  return state === q.state ? q : { ...q, state };
}

const asSaved = (client: PersistedClient): PersistedClient => ({
  ...client,
  clientState: { ...client.clientState, queries: client.clientState.queries.map(forSaving) },
});

/** The card's sync-storage persister (saves throttled to 1 s), plus a flush for page hide. */
function localStoragePersister(key: string) {
  const base = createSyncStoragePersister({ storage: guardedStorage, key, throttleTime: 1000 });
  let latest: PersistedClient | undefined;
  return {
    persistClient(saved: PersistedClient) {
      const client = asSaved(saved);
      latest = client;
      return base.persistClient(client);
    },
    restoreClient: () => base.restoreClient(),
    removeClient() {
      latest = undefined;
      return base.removeClient();
    },
    /** A reload right after a change must not lose it to the throttle. */
    flush() {
      if (latest) guardedStorage.setItem(key, JSON.stringify(latest));
      latest = undefined;
    },
  } satisfies Persister & { flush(): void };
}

const persister = localStoragePersister(CACHE_KEY);

/** FNV-1a: a short fingerprint, so the cache names its session without storing the token twice. */
function fingerprint(text: string) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

// The cache names the session it belongs to (a fingerprint of its token, taken when the session started):
// a cache of another session, or of older shapes ('v1'), is dropped, never misread.
const busterOf = (token: string | null) => `v1-${fingerprint(token ?? '')}`;

/** The small lists the screens read offline (issue 7): kept with the persisted queries. */
const OFFLINE_LISTS = new Set<unknown>([
  'get-departments-by-user',
  'get-tags-by-user',
  'get-chip-numbers-by-user',
  'get-quick-messages-by-user',
]);

/**
 * What is saved: the marked queries and the offline lists, whenever they hold data. A failed refetch (the
 * server unreachable while the device is online) leaves a query in status 'error' with its data kept: it is
 * saved all the same, or the next offline start would have no user and wait on the network forever (issue 15).
 */
export const shouldPersistQuery = (q: {
  state: { data: unknown };
  meta?: { persist?: boolean };
  queryKey: readonly unknown[];
}) => q.state.data !== undefined && (q.meta?.persist === true || OFFLINE_LISTS.has(q.queryKey[0]));

const dehydrateOptions = { shouldDehydrateQuery: shouldPersistQuery };

const MAX_AGE_MS = 30 * DAY_MS;

/**
 * The saved queries back into the cache, synchronously (the first render reads them: the offline start shows
 * the user and the lists at once, with no promise to wait for). A cache of another session, too old, or
 * unreadable is dropped.
 */
function restoreSaved() {
  try {
    const raw = localStorage.getItem(CACHE_KEY);
    if (!raw) return;
    const saved = JSON.parse(raw) as PersistedClient;
    const valid =
      saved.buster === busterOf(session.token) &&
      typeof saved.timestamp === 'number' &&
      Date.now() - saved.timestamp <= MAX_AGE_MS;
    if (valid) hydrate(queryClient, saved.clientState);
    else localStorage.removeItem(CACHE_KEY);
  } catch {
    localStorage.removeItem(CACHE_KEY);
  }
}

/** Restores the persisted queries before the first render (synchronously), then keeps saving them. */
export function startPersistence() {
  restoreSaved();
  // Restored answers show at once but are refreshed as soon as a screen reads them (when online).
  void queryClient.invalidateQueries();
  if (session.token) followSession();
  // A reload right after a change must not lose it to the throttle.
  window.addEventListener('pagehide', persister.flush);
}

/** After a sign-in: what is saved from now on belongs to the new token. */
export function followSession() {
  saving?.unsubscribe();
  const buster = busterOf(session.token);
  saving = { unsubscribe: persistQueryClientSubscribe({ queryClient, persister, buster, dehydrateOptions }) };
}

/** Forgets every cached answer (sign-out): memory and localStorage, and saves nothing until the next sign-in. */
export function clearServerState() {
  saving?.unsubscribe();
  saving = null;
  queryClient.clear();
  persister.removeClient();
  forgetFirstPaint();
}

/**
 * Query options for a call, fetched through the one API client. THE query-key convention of the app: a server
 * call's answer is cached under [call, payload] (payload {} when there is none), so the same call with the
 * same payload is one cache entry wherever it is read, and `someQuery.queryKey` is what a change invalidates
 * (useCallMutation's `invalidates`). The account's shared lists are declared once in lib/lists.ts. Only the
 * attendance feature's own caches (its conversation lists and panes, kept by its data layer and the offline
 * mirror) use keys of their own, ['attendance', ...].
 */
export const callQuery = <N extends CallName>(call: N, payload?: Payload<N>) =>
  queryOptions({
    queryKey: [call, payload ?? {}] as const,
    queryFn: () => api(call, payload),
  });
