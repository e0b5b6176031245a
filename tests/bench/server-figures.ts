// Prints the foundation's figures: PGlite start on an existing data dir, the password hash cost per login,
// and auth (and get-user) requests per second over loopback with autocannon. Run: npm run bench:server
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import autocannon from 'autocannon';
import { openDatabase } from '@/server/db';
import { hashPassword, verifyPassword } from '@/server/domains/auth/passwords';

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function pgliteStart() {
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-pglite-'));
  try {
    const t0 = performance.now();
    const first = await openDatabase({ dataDir: dir });
    const cold = performance.now() - t0;
    await first.close();
    const reopen: number[] = [];
    const withMigrations: number[] = [];
    for (let i = 0; i < 5; i++) {
      let t = performance.now();
      const raw = await PGlite.create(path.join(dir, 'pgdata'));
      reopen.push(performance.now() - t);
      await raw.close();
      t = performance.now();
      const db = await openDatabase({ dataDir: dir });
      withMigrations.push(performance.now() - t);
      await db.close();
    }
    console.log(`PGlite, new data dir (create + migrations):          ${ms(cold)}`);
    console.log(`PGlite, existing data dir (open only, median of 5):  ${ms(median(reopen))}`);
    console.log(`PGlite, existing data dir (open + migration check):  ${ms(median(withMigrations))}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function hashCost() {
  const hash = await hashPassword('demo123');
  const hashes: number[] = [];
  const verifies: number[] = [];
  for (let i = 0; i < 20; i++) {
    let t = performance.now();
    await hashPassword('demo123');
    hashes.push(performance.now() - t);
    t = performance.now();
    await verifyPassword(hash, 'demo123');
    verifies.push(performance.now() - t);
  }
  console.log(`argon2id (19 MiB, t=2, p=1) hash, median of 20:      ${ms(median(hashes))}`);
  console.log(`argon2id verify = hash cost per login, median of 20: ${ms(median(verifies))}`);
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** Starts the real server in its own process (demo data on a fresh DATA_DIR) and answers its URL. */
async function startServer(dir: string) {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      LOG_LEVEL: 'warn',
      DATABASE_URL: process.env.DATABASE_URL ?? '',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes(`listening on port ${port}`)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

const cannon = (opts: autocannon.Options) =>
  new Promise<autocannon.Result>((resolve, reject) =>
    autocannon(opts, (err, res) => (err ? reject(err) : resolve(res))),
  );

async function requestsPerSecond() {
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-server-'));
  const server = await startServer(dir);
  try {
    const body = JSON.stringify({ email: 'dono@demo.com', password: 'demo123' });
    const headers = { 'content-type': 'application/json' };
    const auth = await cannon({
      url: `${server.url}/api/auth`,
      method: 'POST',
      headers,
      body,
      connections: 8,
      duration: 10,
    });
    const answer = (await (
      await fetch(`${server.url}/api/auth`, { method: 'POST', headers, body })
    ).json()) as {
      message: { token: string };
    };
    const getUser = await cannon({
      url: `${server.url}/api/get-user`,
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${answer.message.token}` },
      body: '{}',
      connections: 8,
      duration: 10,
    });
    for (const [name, r] of [
      ['auth', auth],
      ['get-user', getUser],
    ] as const) {
      const errors = r.errors + r.non2xx;
      console.log(
        `${name.padEnd(9)} ${r.requests.average.toFixed(0).padStart(6)} req/s (8 connections, 10 s), latency p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, errors ${errors}`,
      );
    }
  } finally {
    server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

async function main() {
  const os = await import('node:os');
  console.log(
    `Node ${process.version}, ${os.cpus().length} cores, database ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}\n`,
  );
  await pgliteStart();
  await hashCost();
  await requestsPerSecond();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
