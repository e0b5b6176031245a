// The server as `npm run serve` runs it, in its own process, so a test (or a bench) can kill it with SIGKILL;
// enough of TestServer to drive it over HTTP and socket.io; and a small balancer in front of several.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { io } from 'socket.io-client';
import { DEMO_PASSWORD } from '@/server/seed/demo';
import type { Envelope } from '@/shared/contract';
import { serverMain } from '../build.mjs';
import { copyMigrated } from '../db-template';
import type { TestServer } from './helpers';

export async function startProcess(
  env: Record<string, string>,
  /** Another server script that prints 'listening on port N' (a bench's bare route); run through tsx. */
  script?: string,
): Promise<{ proc: ChildProcess; url: string }> {
  const { DATABASE_URL: _ignored, ...base } = process.env;
  // A first start on the embedded database begins from the migrated template; the server seeds the demo itself.
  const dir = env.DATA_DIR;
  if (dir && !env.DATABASE_URL && !existsSync(path.join(dir, 'pgdata'))) await copyMigrated(dir);
  // The server itself from its bundle of today's sources (tests/build.mjs).
  const args = script ? ['--import', 'tsx', script] : [await serverMain()];
  const proc = spawn(process.execPath, args, {
    env: { ...base, NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    // Three minutes: a restart on a large embedded database, beside CI's other suites on 2 cores, once took
    // more than one (official-campaigns-restart, 2,000 people).
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 180_000);
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
  new Promise<void>((resolve) =>
    // A process ended by a signal (SIGKILL) has a signalCode and no exitCode.
    proc.exitCode !== null || proc.signalCode !== null ? resolve() : proc.once('exit', () => resolve()),
  );

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

/**
 * A round-robin balancer in front of server processes, as nginx or HAProxy would be: each HTTP request and each
 * WebSocket upgrade (socket.io at /sock/, websocket transport only, so no sticky sessions) goes to the next
 * live backend. A backend that refuses a connection is skipped from then on, and the request goes to the next.
 */
export async function startBalancer(backends: string[]) {
  const ports = backends.map((u) => Number(new URL(u).port));
  const live = ports.map(() => true);
  const turns = { http: 0, ws: 0 };
  const next = (kind: 'http' | 'ws') => {
    for (let i = 0; i < ports.length; i++) {
      const k = turns[kind]++ % ports.length;
      if (live[k]) return k;
    }
    return -1;
  };
  /** Requests each backend answered, by call (`/api/<call>`). */
  const served = ports.map(() => new Map<string, number>());
  /** The backend of each socket's last upgrade, by the socket's `name` query. */
  const sockets = new Map<string, number>();
  const open = new Set<net.Socket>();
  const refused = (err: NodeJS.ErrnoException) => err.code === 'ECONNREFUSED';

  const server = http.createServer((req, res) => {
    const body: Buffer[] = [];
    req.on('data', (chunk: Buffer) => body.push(chunk));
    req.on('end', () => forward(Buffer.concat(body), ports.length));
    function forward(payload: Buffer, tries: number) {
      const k = next('http');
      if (k < 0) return fail(new Error('no live backend'));
      // A connection per request: none left open to a process that dies.
      const up = http.request(
        {
          host: '127.0.0.1',
          port: ports[k],
          method: req.method,
          path: req.url,
          headers: req.headers,
          agent: false,
        },
        (answer) => {
          const byCall = served[k];
          byCall?.set(req.url ?? '', (byCall.get(req.url ?? '') ?? 0) + 1);
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      up.on('error', (err) => {
        if (refused(err) && tries > 1) {
          live[k] = false;
          return forward(payload, tries - 1);
        }
        fail(err);
      });
      up.end(payload);
    }
    function fail(err: Error) {
      if (res.headersSent) return res.destroy();
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: true, message: `balancer: ${err.message}` }));
    }
  });

  server.on('upgrade', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const name = new URL(req.url ?? '/', 'http://x').searchParams.get('name') ?? '';
    open.add(client);
    let up: net.Socket | undefined;
    client.on('close', () => {
      open.delete(client);
      up?.destroy();
    });
    client.on('error', () => up?.destroy());
    const connect = (tries: number) => {
      const k = next('ws');
      if (k < 0) return client.destroy();
      const socket = net.connect(ports[k] ?? 0, '127.0.0.1');
      up = socket;
      socket.on('error', (err) => {
        if (!socket.remoteAddress && refused(err) && tries > 1) {
          live[k] = false;
          return connect(tries - 1);
        }
        client.destroy();
      });
      socket.once('connect', () => {
        sockets.set(name, k);
        const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
        for (let i = 0; i < req.rawHeaders.length; i += 2)
          lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
        socket.write(`${lines.join('\r\n')}\r\n\r\n`);
        if (head.length) socket.write(head);
        socket.pipe(client).pipe(socket);
        socket.on('close', () => client.destroy());
      });
    };
    connect(ports.length);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    sockets,
    live,
    async close() {
      for (const s of open) s.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
