// The e2e harness: each Playwright worker starts the real server (built app in dist/) on a free port with
// a fresh temporary DATA_DIR (embedded PGlite, demo data) and stops it at the end.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test as base, type Page } from '@playwright/test';
import { serverMain } from '../build.mjs';
import { copyMigrated, copyTemplate } from '../db-template';
import type { SeedName } from './seeds';

export interface AppServer {
  url: string;
  dataDir: string;
  /** POST /api/<call>, answering the envelope's message or throwing its error. */
  call<T = unknown>(call: string, body?: unknown, token?: string): Promise<T>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export interface StartOptions {
  seed?: SeedName;
  /** Working directory of the server: its `dist/` is the app it serves (default: this repository). */
  cwd?: string;
  /** Extra environment (PLAN_MANAGEMENT_URL, HELP_VIDEO_URL, …). */
  env?: Record<string, string>;
  /** A restart: the same port and data directory as before (the data directory is then kept on stop). */
  port?: number;
  dataDir?: string;
}

export async function startServer(
  opts: StartOptions = {},
): Promise<{ server: AppServer; port: number; stop(): Promise<void>; kill(): Promise<void> }> {
  const { seed, cwd, env = {} } = opts;
  const dataDir = opts.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'painel-e2e-')));
  // A fresh directory starts as a copy of the migrated template (tests/db-template.ts). Seeds run on the copy,
  // never into the template: some are relative to now (the last 120 days), and a template outlives the day.
  // The demo alone, which most files start from and which holds no date, is a template of its own.
  // Without a seed the server makes the demo at its first start. The seeds' database code loads only here.
  if (!opts.dataDir && seed === 'demo') {
    await copyTemplate('demo', dataDir, async (dir) => {
      await copyMigrated(dir);
      await (await import('./seeds')).runSeed('demo', dir);
    });
  } else if (!opts.dataDir) {
    await copyMigrated(dataDir);
    if (seed) await (await import('./seeds')).runSeed(seed, dataDir);
  }
  const port = opts.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  // The server from its bundle of today's sources (tests/build.mjs): the same code, started in half the CPU.
  const child: ChildProcess = spawn(process.execPath, [await serverMain()], {
    cwd: cwd ?? process.cwd(),
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: url,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error', // warn shows the expected provider failures too
      DATABASE_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(`listening on port ${port}`)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  child.removeAllListeners('exit');

  const server: AppServer = {
    url,
    dataDir,
    async call(call, body = {}, token) {
      const res = await fetch(`${url}/api/${call}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
        body: JSON.stringify(body),
      });
      const env = (await res.json()) as { error: boolean; message: unknown };
      if (env.error) throw new Error(`${call}: ${String(env.message)}`);
      return env.message as never;
    },
  };
  return {
    server,
    port,
    /** Kills the process at once (SIGKILL), keeping its data: a crash. */
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
      if (!opts.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export const test = base.extend<
  { signIn: (page: Page, email: string) => Promise<string>; tidyFlows: undefined },
  { server: AppServer; seed: SeedName | undefined }
>({
  /** `test.use({ seed: 'busy-account' })` in a file: its worker's server starts on that data (seeds.ts). */
  seed: [undefined, { scope: 'worker', option: true }],
  server: [
    async ({ seed }, use) => {
      const s = await startServer({ seed });
      await use(s.server);
      await s.stop();
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  baseURL: async ({ server }, use) => use(server.url),
  /** Signs in through the API and stores the token as the app does; answers the token. */
  signIn: async ({ server }, use) => {
    await use(async (page, email) => {
      const { token } = await server.call<{ token: string }>('auth', { email, password: 'demo123' });
      // Any page of the origin holds its storage: an icon, not the app, which would load for nothing.
      await page.goto('/icons/favicon-32.png');
      await page.evaluate((t) => localStorage.setItem('token', t), token);
      return token;
    });
  },
  /**
   * The worker's server is shared by several spec files and the demo plan allows 10 flows: the flows a test
   * leaves in the demo account (a failed or retried one too) are deleted after it, so the next file can create.
   */
  tidyFlows: [
    async ({ server, seed }, use) => {
      if (seed !== 'demo') return use(undefined);
      const { token } = await server.call<{ token: string }>('auth', {
        email: 'gerente@demo.com',
        password: 'demo123',
      });
      const flowIds = async () =>
        (await server.call<{ _id: string }[]>('get-flows-by-user', {}, token)).map((f) => f._id);
      const before = new Set(await flowIds());
      await use(undefined);
      for (const _id of await flowIds())
        if (!before.has(_id)) await server.call('create-or-update-flow', { _id, filed: true }, token);
    },
    { auto: true },
  ],
});

export { expect } from '@playwright/test';
