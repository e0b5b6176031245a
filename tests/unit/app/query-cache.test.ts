// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { session } from '@/app/lib/api';
import { clearServerState, followSession, queryClient, startPersistence } from '@/app/lib/query';

const KEY = 'painel-cache';
const userQuery = (name: string, persist = true) => ({
  queryKey: ['get-user', {}],
  queryFn: async () => ({ name }),
  meta: { persist },
});
const stored = () =>
  JSON.parse(localStorage.getItem(KEY) ?? 'null') as { clientState: { queries: unknown[] } } | null;

beforeEach(() => {
  vi.useFakeTimers();
  localStorage.clear();
  queryClient.clear();
});
afterEach(() => {
  clearServerState();
  // The persister lives for the whole module: let its pending save run before the fake clock goes away.
  vi.runOnlyPendingTimers();
  vi.useRealTimers();
});

describe('the persisted query cache (offline start)', () => {
  it('saves marked queries (throttled), flushes on page hide, and restores them for the same session', async () => {
    session.set('token-A');
    await startPersistence();
    await queryClient.fetchQuery(userQuery('Ana'));
    await queryClient.fetchQuery({ queryKey: ['get-team', {}], queryFn: async () => [] });
    // A small list the screens read offline (issue 7) is kept too.
    await queryClient.fetchQuery({ queryKey: ['get-chip-numbers-by-user', {}], queryFn: async () => [] });
    expect(stored()).toBeNull(); // throttled
    window.dispatchEvent(new Event('pagehide'));
    // Only the marked query and the offline lists.
    const saved = (stored()?.clientState.queries ?? []) as { queryKey: unknown[] }[];
    expect(saved.map((q) => q.queryKey[0]).sort()).toEqual(['get-chip-numbers-by-user', 'get-user']);

    queryClient.clear();
    await startPersistence();
    expect(queryClient.getQueryData(['get-user', {}])).toEqual({ name: 'Ana' });
    // Restored data is shown but refreshed on first use.
    expect(queryClient.getQueryState(['get-user', {}])?.isInvalidated).toBe(true);
  });

  it('keeps a query that has data after a failed refetch (issue 15: the offline start needs the user)', async () => {
    session.set('token-A');
    await startPersistence();
    await queryClient.fetchQuery(userQuery('Ana'));
    await queryClient.fetchQuery({ queryKey: ['get-departments-by-user', {}], queryFn: async () => ['SUP'] });
    // The server is unreachable: a background refetch fails, the queries keep their data in status 'error'.
    const unreachable = async () => {
      throw new Error('Failed to fetch');
    };
    await queryClient
      .fetchQuery({
        queryKey: ['get-user', {}],
        queryFn: unreachable,
        retry: false,
        staleTime: 0,
        meta: { persist: true },
      })
      .catch(() => undefined);
    await queryClient
      .fetchQuery({
        queryKey: ['get-departments-by-user', {}],
        queryFn: unreachable,
        retry: false,
        staleTime: 0,
      })
      .catch(() => undefined);
    expect(queryClient.getQueryState(['get-user', {}])?.status).toBe('error');
    window.dispatchEvent(new Event('pagehide'));
    const saved = (stored()?.clientState.queries ?? []) as { queryKey: unknown[] }[];
    expect(saved.map((q) => q.queryKey[0]).sort()).toEqual(['get-departments-by-user', 'get-user']);

    // The next start (offline) has them at once.
    queryClient.clear();
    await startPersistence();
    expect(queryClient.getQueryData(['get-user', {}])).toEqual({ name: 'Ana' });
    expect(queryClient.getQueryData(['get-departments-by-user', {}])).toEqual(['SUP']);
    // Restored as answered: screens read the data as usual.
    expect(queryClient.getQueryState(['get-user', {}])?.status).toBe('success');
  });

  it('saves a persisted infinite list with its first page only (the first screen of the next start)', async () => {
    session.set('token-A');
    await startPersistence();
    const list = {
      queryKey: ['attendance', 'list', {}],
      queryFn: async ({ pageParam }: { pageParam: number }) => ({ items: [pageParam] }),
      initialPageParam: 0,
      getNextPageParam: (_: unknown, all: unknown[]) => all.length,
      meta: { persist: true },
      pages: 3,
    };
    await queryClient.fetchInfiniteQuery(list);
    window.dispatchEvent(new Event('pagehide'));
    queryClient.clear();
    await startPersistence();
    expect(queryClient.getQueryData(['attendance', 'list', {}])).toEqual({
      pages: [{ items: [0] }],
      pageParams: [0],
    });
  });

  it('never saves a query without data (a first fetch that failed)', async () => {
    session.set('token-A');
    await startPersistence();
    await queryClient
      .fetchQuery({
        queryKey: ['get-user', {}],
        queryFn: async () => {
          throw new Error('Failed to fetch');
        },
        retry: false,
        meta: { persist: true },
      })
      .catch(() => undefined);
    await queryClient.fetchQuery({ queryKey: ['get-tags-by-user', {}], queryFn: async () => [] });
    window.dispatchEvent(new Event('pagehide'));
    const saved = (stored()?.clientState.queries ?? []) as { queryKey: unknown[] }[];
    expect(saved.map((q) => q.queryKey[0])).toEqual(['get-tags-by-user']);
  });

  it('drops a cache that belongs to another token', async () => {
    session.set('token-A');
    await startPersistence();
    await queryClient.fetchQuery(userQuery('Ana'));
    window.dispatchEvent(new Event('pagehide'));

    // Another session in this browser (the token changed without this page's sign-in).
    session.set('token-B');
    queryClient.clear();
    await startPersistence();
    expect(queryClient.getQueryData(['get-user', {}])).toBeUndefined();
  });

  it('a sign-out removes the cache, cancels the pending save and saves nothing until the next sign-in', async () => {
    session.set('token-A');
    await startPersistence();
    await queryClient.fetchQuery(userQuery('Ana'));
    clearServerState();
    vi.advanceTimersByTime(5000);
    window.dispatchEvent(new Event('pagehide'));
    expect(localStorage.getItem(KEY)).toBeNull();

    session.set('token-B');
    followSession();
    await queryClient.fetchQuery(userQuery('Bruno'));
    vi.advanceTimersByTime(1000);
    expect(JSON.stringify(stored())).toContain('Bruno');
  });
});
