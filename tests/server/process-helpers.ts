// The server as `npm run serve` runs it, in its own process, so a test (or a bench) can kill it with SIGKILL;
// and enough of TestServer to drive it over HTTP and socket.io.
import { type ChildProcess, spawn } from 'node:child_process';
import { io } from 'socket.io-client';
import { DEMO_PASSWORD } from '@/server/seed/demo';
import type { Envelope } from '@/shared/contract';
import type { TestServer } from './helpers';

export function startProcess(env: Record<string, string>): Promise<{ proc: ChildProcess; url: string }> {
  const { DATABASE_URL: _ignored, ...base } = process.env;
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: { ...base, NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const port = /listening on port (\d+)/.exec(output)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve({ proc, url: `http://127.0.0.1:${port}` });
      }
    };
    proc.stdout?.on('data', read);
    proc.stderr?.on('data', read);
    proc.once('exit', (code) => reject(new Error(`server exited (${code}):\n${output}`)));
  });
}

export const exited = (proc: ChildProcess) =>
  new Promise<void>((resolve) => (proc.exitCode !== null ? resolve() : proc.once('exit', () => resolve())));

/** Enough of TestServer for the channel helpers, against a server in another process. */
export function remote(url: string): TestServer {
  const post = async (call: string, body?: unknown, token?: string) => {
    const res = await fetch(`${url}/api/${call}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Envelope<unknown> };
  };
  const t = {
    url,
    post,
    async call(call: string, body: unknown, token?: string) {
      const { body: env } = await post(call, body, token);
      if (env.error) throw new Error(`${call}: ${env.message}`);
      return env.message;
    },
    async login(email: string) {
      return ((await t.call('auth', { email, password: DEMO_PASSWORD })) as { token: string }).token;
    },
    socket(token: string | undefined) {
      return io(url, { path: '/sock/', auth: token ? { token } : {}, transports: ['websocket'] });
    },
  };
  return t as unknown as TestServer;
}
