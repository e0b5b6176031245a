// The real server in-process for a test file: fresh database (PGlite copied from the migrated template, or a
// new PostgreSQL database when DATABASE_URL is set), fresh DATA_DIR, a random port. reset() empties it and re-seeds the demo.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getTableName, sql } from 'drizzle-orm';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createServer, type Server } from '@/server/app';
import { loadConfig } from '@/server/config';
import { allTables } from '@/server/db';
import { hashPassword } from '@/server/domains/auth/passwords';
import { DEMO_PASSWORD, seedDemo } from '@/server/seed/demo';
import type { Answer, CallName, Envelope } from '@/shared/contract';
import { copyMigrated } from '../db-template';

let demoHash: Promise<string> | null = null;

export async function dropDatabase(url: string) {
  const u = new URL(url);
  const name = u.pathname.slice(1);
  u.pathname = '/postgres';
  const c = new pg.Client({ connectionString: u.toString() });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await c.end();
}

/** A new, empty PostgreSQL database next to `baseUrl`'s; answers its URL. */
export async function freshPostgres(baseUrl: string) {
  const name = `t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Every table's DELETE in one statement, with foreign keys and triggers off for the transaction. */
const emptyAll = sql.raw(
  `WITH ${allTables.map((table, i) => `d${i} AS (DELETE FROM "${getTableName(table)}")`).join(', ')} SELECT 1`,
);
const truncateAll = sql.raw(`TRUNCATE ${allTables.map((t) => `"${getTableName(t)}"`).join(', ')} CASCADE`);

/**
 * Empties every table between tests. One DELETE statement with foreign keys off is about 30 times faster than
 * TRUNCATE on PGlite (which makes new files for 40 tables: over a second, on every test), and as fast on
 * PostgreSQL. It needs a superuser (session_replication_role), as both test databases are; another user
 * gets the TRUNCATE.
 */
async function emptyTables(db: Server['services']['db']) {
  let superuser = true;
  // On PostgreSQL a job still finishing the last test's work can meet the reset's locks in a deadlock, and
  // PostgreSQL aborts one side: when it picks the reset, it is simply done again.
  for (let attempt = 1; ; attempt++) {
    try {
      if (!superuser) return void (await db.execute(truncateAll));
      return await db.transaction(async (tx) => {
        await tx.execute(sql.raw('SET LOCAL session_replication_role = replica'));
        await tx.execute(emptyAll);
      });
    } catch (err) {
      const code = (err as { cause?: { code?: string } }).cause?.code;
      if (code === '42501') superuser = false;
      else if (attempt >= 5 || (code !== '40P01' && code !== '55P03')) throw err;
    }
  }
}

export interface TestServer {
  url: string;
  server: Server;
  dataDir: string;
  reset(): Promise<Awaited<ReturnType<typeof seedDemo>>>;
  post(call: string, body?: unknown, token?: string): Promise<{ status: number; body: Envelope<unknown> }>;
  call<N extends CallName>(call: N, body: unknown, token?: string): Promise<Answer<N>>;
  login(email: string, password?: string): Promise<string>;
  socket(token: string | undefined): Socket;
  /** The PostgreSQL database of this server, when DATABASE_URL is set. */
  databaseUrl: string | null;
  close(opts?: { keepDatabase?: boolean }): Promise<void>;
}

export async function startTestServer(
  env: Record<string, string> = {},
  dataDir?: string,
  serverOpts: Parameters<typeof createServer>[1] = {},
): Promise<TestServer> {
  const dir = dataDir ?? (await mkdtemp(path.join(tmpdir(), 'painel-test-')));
  // An explicit DATABASE_URL reopens that database (restart tests); otherwise a fresh one is made.
  const databaseUrl =
    env.DATABASE_URL ?? (process.env.DATABASE_URL ? await freshPostgres(process.env.DATABASE_URL) : null);
  // A first start on the embedded database (a new directory, or one a restart test made empty) is a copy.
  if (!databaseUrl && !existsSync(path.join(dir, 'pgdata'))) await copyMigrated(dir);
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error', // warn shows the expected provider failures too
    SEED_DEMO: 'false',
    DATA_DIR: dir,
    ...(databaseUrl && { DATABASE_URL: databaseUrl }),
    ...env,
  });
  const server = await createServer(config, serverOpts);
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = server.app.server.address() as { port: number };
  const url = `http://127.0.0.1:${port}`;
  const sockets: Socket[] = [];

  const post: TestServer['post'] = async (call, body, token) => {
    const res = await fetch(`${url}/api/${call}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Envelope<unknown> };
  };

  const t: TestServer = {
    url,
    server,
    dataDir: dir,
    async reset() {
      await emptyTables(server.services.db);
      demoHash ??= hashPassword(DEMO_PASSWORD);
      return seedDemo(server.services.db, await demoHash);
    },
    post,
    async call(call, body, token) {
      const { body: env } = await post(call, body, token);
      if (env.error) throw new Error(`${call}: ${env.message}`);
      return env.message as never;
    },
    async login(email, password = DEMO_PASSWORD) {
      return (await t.call('auth', { email, password })).token;
    },
    socket(token) {
      const s = io(url, {
        path: '/sock/',
        auth: token ? { token } : {},
        transports: ['websocket'],
        reconnection: false,
      });
      sockets.push(s);
      return s;
    },
    databaseUrl,
    async close(opts = {}) {
      for (const s of sockets) s.close();
      await server.close();
      if (databaseUrl && !opts.keepDatabase) await dropDatabase(databaseUrl);
      if (!dataDir) await rm(dir, { recursive: true, force: true });
    },
  };
  return t;
}

/** Registers the usual hooks: one server for the file, a fresh demo before each test. */
export function testServerPerFile(
  env: Record<string, string> = {},
  serverOpts: Parameters<typeof createServer>[1] = {},
) {
  const ctx = {} as { t: TestServer; seed: Awaited<ReturnType<TestServer['reset']>> };
  beforeAll(async () => {
    ctx.t = await startTestServer(env, undefined, serverOpts);
  });
  afterAll(() => ctx.t.close());
  beforeEach(async () => {
    ctx.seed = await ctx.t.reset();
  });
  return ctx;
}

/** A GET's status, with its body read: an unread body keeps the connection busy and holds the server's close. */
export async function statusOf(url: string) {
  const res = await fetch(url);
  await res.arrayBuffer();
  return res.status;
}

/** Waits until the job runner has handed every queued mail on (to SMTP, or to DATA_DIR/mail without it). */
export async function mailsHandedOn(t: TestServer, ms = 15_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const { rows } = (await t.server.services.db.execute(
      sql`select count(*)::int as n from pgboss.job where name = 'mail-send' and state in ('created', 'retry', 'active')`,
    )) as unknown as { rows: { n: number }[] };
    if (Number(rows[0]?.n ?? 0) === 0) return;
    if (Date.now() > deadline) throw new Error('queued mails not handed on in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
