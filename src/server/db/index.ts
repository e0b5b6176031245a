// Opens the database: embedded PGlite in DATA_DIR by default, PostgreSQL when DATABASE_URL is set.
// Both get the same schema and the same migrations, run at start.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { Pool } from 'pg';
import { type HoldMeter, meterHolds } from './holds';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** Raw SQL on the database's own client: `values` make one parametrized statement; without them `text` may hold several. */
export type ExecuteSql = (text: string, values?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** For the job runner (pg-boss), which speaks SQL text rather than Drizzle. */
  executeSql: ExecuteSql;
  /**
   * PostgreSQL only: a pool of its own for the socket adapter's LISTEN/NOTIFY. The adapter sends an event's
   * NOTIFY before it emits to this process's own sockets: queued behind a busy pool's queries, every event would
   * wait for them, and one a process was killed meanwhile would be lost to the others.
   */
  eventsPool?: Pool;
  /** PGlite only: how long each operation held its one connection (issue 37: none over 250 ms). */
  holds?: HoldMeter;
  close(): Promise<void>;
}

interface RawClient {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

/**
 * executeSql on the client behind a Drizzle database or transaction (a pg Pool or PoolClient, a PGlite or its
 * transaction), so a job can be queued in the same transaction as the rows it is about.
 */
export function executeSqlOn(db: Db): ExecuteSql {
  const client = (db as unknown as { session?: { client?: RawClient } }).session?.client;
  if (!client) throw new Error('no SQL client behind this database');
  return (text, values) => client.query(text, values ?? []);
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** `dataDir` 'memory://' gives a throw-away in-memory PGlite (tests). */
export async function openDatabase(opts: { databaseUrl?: string; dataDir: string }): Promise<Database> {
  if (opts.databaseUrl) {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    // A connection the database ends (a restart, a failover, pg_terminate_backend) must not crash the
    // process. An idle one reports to its pool's 'error', which drops it; one checked out (a transaction, the
    // socket adapter's LISTEN) reports to its own client, whose query fails and which its pool drops when it
    // is released. Without a listener either 'error' is an unhandled event that ends the process.
    const ended = (err: Error) => console.warn(`PostgreSQL: conexão encerrada (${err.message})`);
    const lost = (err: Error) => ended(markUnavailable(err));
    const resilient = (pool: Pool) => {
      pool.on('error', lost);
      pool.on('connect', (client) => client.on('error', lost));
      // A connection the pool could not open (the database refusing or out of reach) is marked too: its
      // socket's codes (ECONNREFUSED…) are the same as any other service's, which are not the database's.
      const connect = pool.connect.bind(pool) as (cb?: (...a: unknown[]) => void) => unknown;
      (pool as unknown as { connect: typeof connect }).connect = (cb) =>
        cb
          ? connect((err, ...rest) => cb(err ? markUnavailable(err as Error) : err, ...rest))
          : (connect() as Promise<unknown>).catch((err: Error) => {
              throw markUnavailable(err);
            });
      return pool;
    };
    const pool = resilient(new pg.Pool({ connectionString: opts.databaseUrl, max: 10 }));
    const db = drizzle(pool, { schema });
    await migrate(db, { migrationsFolder });
    const eventsPool = resilient(new pg.Pool({ connectionString: opts.databaseUrl, max: 6 }));
    return {
      db: db as unknown as Db,
      kind: 'postgres',
      eventsPool,
      executeSql: async (text, values) => {
        if (values?.length) return pool.query(text, values);
        // A script (pg-boss's BEGIN … COMMIT) that fails must not hand its connection back mid-transaction.
        const client = await pool.connect();
        try {
          // Several statements answer a list of results: the last one is the script's.
          const result: unknown = await client.query(text);
          const last = (Array.isArray(result) ? result.at(-1) : result) as {
            rows?: Record<string, unknown>[];
          };
          return { rows: last?.rows ?? [] };
        } catch (err) {
          if (/^\s*BEGIN\b/i.test(text)) await client.query('ROLLBACK').catch(() => undefined);
          throw err;
        } finally {
          client.release();
        }
      },
      close: async () => {
        await eventsPool.end();
        await pool.end();
      },
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  let location = opts.dataDir;
  if (!location.startsWith('memory://')) {
    location = path.join(opts.dataDir, 'pgdata');
    mkdirSync(location, { recursive: true });
  }
  const client = await PGlite.create(location);
  const holds = meterHolds(client);
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder });
  holds.reset(); // the migrations' holds are the start's, not the server's
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    holds,
    // PGlite's query() takes one statement; several without parameters (pg-boss's schema install) go to exec().
    executeSql: async (text, values) => {
      if (values?.length) return client.query<Record<string, unknown>>(text, values);
      try {
        const results = await client.exec(text);
        return { rows: (results.at(-1)?.rows ?? []) as Record<string, unknown>[] };
      } catch (err) {
        // A script that opened a transaction and failed must not leave the one session in an aborted one.
        if (/^\s*BEGIN\b/i.test(text)) await client.exec('ROLLBACK').catch(() => undefined);
        throw err;
      }
    },
    close: () => client.close(),
  };
}

const UNAVAILABLE_CODES = new Set([
  // PostgreSQL: shut down by an administrator, a crash or a restart; starting up; no connection.
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '53300',
]);
// node-postgres' own texts for a connection that went away or could not be had, which carry no code.
const UNAVAILABLE_TEXT =
  /Connection terminated|not queryable|timeout exceeded when trying to connect|Client was closed|Cannot use a pool after calling end/;
/** Set on an error the database's own connection raised (its socket failing: ECONNRESET, ECONNREFUSED…). */
const UNAVAILABLE = Symbol('database unavailable');

function markUnavailable<E>(err: E): E {
  if (err && typeof err === 'object') (err as Record<symbol, boolean>)[UNAVAILABLE] = true;
  return err;
}

/**
 * Whether a failure is the database being out of reach (restarting, failing over) rather than the request's:
 * the statement did not run, or ran in a transaction that was rolled back. Drizzle wraps the driver's error in
 * `cause`. A network failure of anything else (a provider, the bucket, SMTP) is not one.
 */
export function isDatabaseUnavailable(e: unknown): boolean {
  for (let err = e as { code?: unknown; message?: unknown; cause?: unknown } | undefined; err; ) {
    if ((err as Record<symbol, unknown>)[UNAVAILABLE]) return true;
    if (typeof err.code === 'string' && UNAVAILABLE_CODES.has(err.code)) return true;
    if (typeof err.message === 'string' && UNAVAILABLE_TEXT.test(err.message)) return true;
    err = typeof err.cause === 'object' ? (err.cause as typeof err) : undefined;
  }
  return false;
}

/**
 * Runs `step` again while the database is out of reach, for up to `ms` (a restart or a failover takes
 * seconds): for a write that must follow something already done outside the database, such as recording a
 * provider's acceptance, where giving up would leave the claim to run out and the send to be made again.
 */
export async function whileUnavailable<T>(step: () => Promise<T>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (let wait = 250; ; wait = Math.min(wait * 2, 2000)) {
    try {
      return await step();
    } catch (err) {
      if (!isDatabaseUnavailable(err) || Date.now() + wait > deadline) throw err;
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}

/** Every table, for test resets. */
export const allTables = Object.values(schema).filter(
  (t) => typeof t === 'object' && t !== null && Symbol.for('drizzle:IsDrizzleTable') in t,
);
