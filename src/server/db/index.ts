// Opens the database: embedded PGlite in DATA_DIR by default, PostgreSQL when DATABASE_URL is set.
// Both get the same schema and the same migrations, run at start.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { Pool } from 'pg';
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
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    // An idle connection the server ends (restart, failover) must not crash the process: the pool
    // drops it and opens another on the next query.
    const idleEnded = (err: Error) => console.warn(`PostgreSQL: conexão ociosa encerrada (${err.message})`);
    pool.on('error', idleEnded);
    const db = drizzle(pool, { schema });
    await migrate(db, { migrationsFolder });
    const eventsPool = new pg.Pool({ connectionString: opts.databaseUrl, max: 6 });
    eventsPool.on('error', idleEnded);
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
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder });
  return {
    db: db as unknown as Db,
    kind: 'pglite',
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

/** Every table, for test resets. */
export const allTables = Object.values(schema).filter(
  (t) => typeof t === 'object' && t !== null && Symbol.for('drizzle:IsDrizzleTable') in t,
);
