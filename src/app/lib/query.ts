// Server state: one QueryClient; queries marked `meta.persist` survive reloads (localStorage), so the shell
// opens offline with the last known user.
import { createSyncStoragePersister } from '@tanstack/query-sync-storage-persister';
import { dehydrate, onlineManager, QueryClient, queryOptions } from '@tanstack/react-query';
import { persistQueryClientRestore, persistQueryClientSubscribe } from '@tanstack/react-query-persist-client';
import type { CallName, Payload } from '../../shared/contract';
import { ApiError, api, session } from './api';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: { persist?: boolean };
  }
}

const CACHE_KEY = 'painel-cache';
const DAY_MS = 24 * 60 * 60 * 1000;

// React Query assumes 'online' until an event says otherwise; a page opened offline must start offline.
if (typeof navigator !== 'undefined') onlineManager.setOnline(navigator.onLine);

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

export const persister = createSyncStoragePersister({
  storage: typeof window === 'undefined' ? undefined : window.localStorage,
  key: CACHE_KEY,
});

/** FNV-1a: a short fingerprint, so the cache names its session without storing the token twice. */
function fingerprint(text: string) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

const persistOptions = () => ({
  queryClient,
  persister,
  // A cache from another session (another token) or of older shapes ('v1') is dropped, never misread.
  buster: `v1-${fingerprint(session.token ?? '')}`,
  dehydrateOptions: {
    shouldDehydrateQuery: (q: { state: { status: string }; meta?: { persist?: boolean } }) =>
      q.state.status === 'success' && q.meta?.persist === true,
  },
});

let unsubscribe = () => {};

/** Restores the persisted queries before the first render, then keeps saving them. */
export async function startPersistence() {
  await persistQueryClientRestore({ ...persistOptions(), maxAge: 30 * DAY_MS });
  // Restored answers show at once but are refreshed as soon as a screen reads them (when online).
  void queryClient.invalidateQueries();
  followSession();
  // Saves are throttled: a reload right after a change must not lose it, so the last one is written now.
  window.addEventListener('pagehide', () => {
    const { buster, dehydrateOptions } = persistOptions();
    const snapshot = { buster, timestamp: Date.now(), clientState: dehydrate(queryClient, dehydrateOptions) };
    localStorage.setItem(CACHE_KEY, JSON.stringify(snapshot));
  });
}

/** After a sign-in: what is saved from now on belongs to the new token. */
export function followSession() {
  unsubscribe();
  unsubscribe = persistQueryClientSubscribe(persistOptions());
}

/** Forgets every cached answer (sign-out): memory and localStorage. */
export function clearServerState() {
  queryClient.clear();
  void persister.removeClient();
}

/** Query options for a call: key [call, payload], fetched through the one API client. */
export const callQuery = <N extends CallName>(call: N, payload?: Payload<N>) =>
  queryOptions({
    queryKey: [call, payload ?? {}] as const,
    queryFn: () => api(call, payload),
  });
