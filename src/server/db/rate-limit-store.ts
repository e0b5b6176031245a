// @fastify/rate-limit's store for the integrations' limits (public API, webhooks), in the database: its own
// in-memory store counts per process, so behind N processes a key would get N times its limit. One row per
// key and route (table rate_limits), counted by one upsert, the window's start and end by the database's
// clock: every process reads the same count. It lives in db/ as storage for the HTTP layer: a counter per key
// shared by the processes, of no account and no domain.
import { lt, sql } from 'drizzle-orm';
import type { Db } from './index';
import { rateLimits } from './schema';

type Answer = { current: number; ttl: number };
type Callback = (err: Error | null, res?: Answer) => void;

const answerOf = (result: unknown): Answer => {
  const row = (result as { rows: Record<string, unknown>[] }).rows[0];
  return {
    current: Number(row?.count ?? 0),
    ttl: Math.max(0, Math.ceil(Number(row?.ttl ?? 0))),
  };
};

/** The store class the plugin instantiates (`store` option); `db` is the server's database. */
export function databaseRateStore(db: Db) {
  return class DatabaseRateStore {
    constructor(
      _options?: unknown,
      private readonly route = '',
    ) {}

    incr(key: string, cb: Callback, timeWindow: number) {
      const id = `${this.route} ${key}`;
      // A window that has ended starts again at 1; the count and its end change together, under the row's lock.
      db.execute(sql`
        insert into rate_limits (key, count, window_ends)
        values (${id}, 1, now() + ${timeWindow} * interval '1 millisecond')
        on conflict (key) do update set
          count = case when rate_limits.window_ends <= now() then 1 else rate_limits.count + 1 end,
          window_ends = case when rate_limits.window_ends <= now() then excluded.window_ends
                        else rate_limits.window_ends end
        returning count, extract(epoch from window_ends - now()) * 1000 as ttl`).then(
        (result) => cb(null, answerOf(result)),
        (err: Error) => cb(err),
      );
    }

    /** The count as it stands, without counting (the plugin's `{ increment: false }`). */
    read(key: string, cb: Callback) {
      db.execute(sql`
        select count, extract(epoch from window_ends - now()) * 1000 as ttl from rate_limits
        where key = ${`${this.route} ${key}`} and window_ends > now()`).then(
        (result) => cb(null, answerOf(result)),
        (err: Error) => cb(err),
      );
    }

    /** Each route counts apart, as the plugin's own store does. */
    child(options: object) {
      const { method = '', url = '' } =
        (options as { routeInfo?: { method?: unknown; url?: string } }).routeInfo ?? {};
      return new DatabaseRateStore(options, `${String(method)} ${url}`);
    }
  };
}

/** Housekeeping: windows over for an hour (a key seen again starts a new one anyway). */
export async function pruneRateLimits(db: Db) {
  await db.delete(rateLimits).where(lt(rateLimits.windowEnds, sql`now() - interval '1 hour'`));
}
