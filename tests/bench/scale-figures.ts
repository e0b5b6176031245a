// Prints the scale-out figures (issue 24) on PostgreSQL, each server in its own process as in production:
// - the ceiling of this machine: a bare Fastify route that parses the same JSON and does one INSERT;
// - inbound customer messages/s and customer send → attendant socket event (p50, p99) on 1 process, then on 3
//   processes on one database (the load spread over the three, an attendant's socket on each: every socket
//   must get every message once);
// - send-conversation-message under 200 attendants at once (10 departments of 20, each with its socket open),
//   on 1 and 3 processes.
// The inbound figures side by side with the ceiling, as a ratio.
// Run: DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:scale   (INBOUND=3000)
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import pg from 'pg';
import type { Socket } from 'socket.io-client';
import { hashToken, newToken } from '@/server/domains/auth/tokens';
import { newId } from '@/shared/ids';
import { connectedSimulatorChip } from '../server/channel-helpers';
import { dropDatabase, freshPostgres, startTestServer } from '../server/helpers';
import { exited, remote, startProcess } from '../server/process-helpers';
import { listen } from './team-socket';

const base = process.env.DATABASE_URL;
if (!base) {
  console.error('bench:scale runs on PostgreSQL: set DATABASE_URL (README, "PostgreSQL").');
  process.exit(1);
}
const TOTAL = Number(process.env.INBOUND ?? 3000);
const CUSTOMERS = 200;
const CONNECTIONS = 20;
const ATTENDANTS = 200;
const SENDS_EACH = 5;
const DEPARTMENTS = 10;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))] ?? Number.NaN;
};
const ms = (n: number) => `${n.toFixed(0)} ms`;
const phoneOf = (i: number) => `55119${String(10000000 + (i % CUSTOMERS))}`;

/**
 * `total` simulator sends spread over `urls` (one autocannon per process, the connections divided among them,
 * as a balancer would spread them). Answers when they started (performance.now()) and when each was sent.
 */
async function load(urls: string[], token: string, label: string, total: number) {
  const sentAt = new Map<string, number>();
  let n = 0;
  const started = performance.now();
  const results = await Promise.all(
    urls.map((url, k) =>
      autocannon({
        url: `${url}/api/simulator-send`,
        connections: Math.ceil(CONNECTIONS / urls.length),
        amount: Math.floor(total / urls.length) + (k < total % urls.length ? 1 : 0),
        requests: [
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            setupRequest: (req) => {
              const i = n++;
              const text = `${label} ${i} quero um orçamento`;
              sentAt.set(text, performance.now());
              const body = {
                token,
                phone: phoneOf(i),
                name: 'Cliente',
                id: `${label}-${i}-xxxx`,
                type: 'text',
                text,
              };
              return { ...req, body: JSON.stringify(body) };
            },
          },
        ],
      }),
    ),
  );
  for (const r of results)
    if (r.non2xx || r.errors) throw new Error(`${label}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { started, sentAt, ended: performance.now() };
}

const connected = (sock: Socket) =>
  new Promise<void>((resolve, reject) => {
    if (sock.connected) return resolve();
    sock.once('connect', () => resolve());
    sock.once('connect_error', reject);
  });

async function inbound(urls: string[], chipToken: string, managerToken: string, label: string) {
  const teams = urls.map((url) => remote(url).socket(managerToken));
  await Promise.all(teams.map(connected));
  const heard = teams.map(listen);
  // Warm up: every customer writes once (their conversations exist, as on a working day).
  await load(urls, chipToken, `${label}-warm`, CUSTOMERS);
  const { started, sentAt } = await load(urls, chipToken, label, TOTAL);
  const everyone = () => heard.every((h) => [...sentAt.keys()].every((t) => h.arrivals.has(t)));
  for (let waited = 0; !everyone() && waited < 30_000; waited += 50)
    await new Promise((r) => setTimeout(r, 50));
  const last = Math.max(...heard.flatMap((h) => [...sentAt.keys()].map((t) => h.arrivals.get(t) ?? 0)));
  const delays = heard.flatMap((h) =>
    [...sentAt].map(([t, at]) => (h.arrivals.get(t) ?? Number.NaN) - at).filter(Number.isFinite),
  );
  const missed = heard.reduce(
    (sum, h) => sum + [...sentAt.keys()].filter((t) => !h.arrivals.has(t)).length,
    0,
  );
  const doubled = heard.reduce(
    (sum, h) => sum + [...sentAt.keys()].filter((t) => (h.counts.get(t) ?? 0) > 1).length,
    0,
  );
  for (const s of teams) s.close();
  return {
    perSecond: (TOTAL * 1000) / (last - started),
    p50: pct(delays, 50),
    p99: pct(delays, 99),
    missed,
    doubled,
  };
}

/** 200 attendants at once, each with its socket open, each sending SENDS_EACH messages to its conversation. */
async function attendants(urls: string[], tokens: string[], conversations: string[], label: string) {
  const sockets = tokens.map((token, i) => remote(urls[i % urls.length] as string).socket(token));
  await Promise.all(sockets.map(connected));
  const times: number[] = [];
  await Promise.all(
    tokens.map(async (token, i) => {
      const t = remote(urls[i % urls.length] as string);
      for (let k = 0; k < SENDS_EACH; k++) {
        const start = performance.now();
        await t.call(
          'send-conversation-message',
          {
            conversation_id: conversations[i],
            message_id: `${label}-${i}-${k}-xxxxxxxx`,
            text: `resposta ${k}`,
          },
          token,
        );
        times.push(performance.now() - start);
      }
    }),
  );
  for (const s of sockets) s.close();
  return { p50: pct(times, 50), p99: pct(times, 99), calls: times.length };
}

async function stop(procs: ChildProcess[]) {
  for (const p of procs) p.kill('SIGTERM');
  await Promise.all(procs.map(exited));
}

async function main() {
  const dirs: string[] = [];
  const dataDir = async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'painel-scale-'));
    dirs.push(dir);
    return dir;
  };

  // The ceiling, on a database of its own on the same PostgreSQL.
  const ceilingDb = await freshPostgres(base as string);
  const ceiling = await startProcess({ DATABASE_URL: ceilingDb }, 'tests/bench/ceiling-server.ts');
  await load([ceiling.url], 'x', 'ceiling-warm', CUSTOMERS);
  const c = await load([ceiling.url], 'x', 'ceiling', TOTAL);
  const ceilingPerSecond = (TOTAL * 1000) / (c.ended - c.started);
  await stop([ceiling.proc]);
  await dropDatabase(ceilingDb);

  // The product's database: the demo, a simulator chip, and 200 attendants (users with open sessions) in 10
  // departments of 20: each sees its department's conversations, as a large team works.
  const setup = await startTestServer({ LOG_LEVEL: 'error' });
  const seed = await setup.reset();
  const owner = await setup.login('dono@demo.com');
  const managerToken = await setup.login('gerente@demo.com');
  const { simulatorToken } = await connectedSimulatorChip(setup, owner, {
    department: seed.departments.support,
  });
  const databaseUrl = setup.databaseUrl as string;
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const teams = Array.from({ length: DEPARTMENTS }, () => newId());
  for (const [k, id] of teams.entries())
    await pool.query('insert into departments (id, account_id, name) values ($1, $2, $3)', [
      id,
      seed.accountId,
      `Equipe ${k + 1}`,
    ]);
  const tokens = Array.from({ length: ATTENDANTS }, () => newToken());
  for (const [i, token] of tokens.entries()) {
    const user = newId();
    await pool.query(
      `insert into users (id, account_id, name, email, password_hash, user_role, departments)
       values ($1, $2, $3, $4, 'x', 'user', $5)`,
      [
        user,
        seed.accountId,
        `Atendente ${i}`,
        `atendente${i}@bench.test`,
        JSON.stringify([teams[i % DEPARTMENTS]]),
      ],
    );
    await pool.query(
      `insert into sessions (id, token_hash, user_id, expires_at) values ($1, $2, $3, now() + interval '1 day')`,
      [newId(), hashToken(token), user],
    );
  }
  await setup.close({ keepDatabase: true });

  const env = async () => ({ DATABASE_URL: databaseUrl, DATA_DIR: await dataDir(), SEED_DEMO: 'false' });
  try {
    const one = [await startProcess(await env())];
    const in1 = await inbound(
      one.map((p) => p.url),
      simulatorToken,
      managerToken,
      'one',
    );
    // The customers' conversations, dealt to the ten departments: attendant i answers one of its department's.
    const open = (
      (await pool.query('select id from conversations where finished_at is null order by id')).rows as {
        id: string;
      }[]
    ).map((r) => r.id);
    for (const [k, id] of open.entries())
      await pool.query('update conversations set department_id = $1 where id = $2', [
        teams[k % DEPARTMENTS],
        id,
      ]);
    const openConversations = tokens.map((_, i) => open[i % open.length] as string);
    const at1 = await attendants(
      one.map((p) => p.url),
      tokens,
      openConversations,
      'send1',
    );
    await stop(one.map((p) => p.proc));

    const three = await Promise.all([
      startProcess(await env()),
      startProcess(await env()),
      startProcess(await env()),
    ]);
    const in3 = await inbound(
      three.map((p) => p.url),
      simulatorToken,
      managerToken,
      'three',
    );
    const at3 = await attendants(
      three.map((p) => p.url),
      tokens,
      openConversations,
      'send3',
    );
    await stop(three.map((p) => p.proc));

    const ratio = (x: number) => `${((x / ceilingPerSecond) * 100).toFixed(0)}% of the ceiling`;
    console.log(
      `PostgreSQL, loopback, ${TOTAL} customer messages from ${CUSTOMERS} customers, ${CONNECTIONS} connections`,
    );
    console.log(`Ceiling (bare Fastify route, one INSERT): ${ceilingPerSecond.toFixed(0)} requests/s`);
    for (const [name, r] of [
      ['1 process ', in1],
      ['3 processes', in3],
    ] as const)
      console.log(
        `Inbound, ${name}: ${r.perSecond.toFixed(0)} messages/s (${ratio(r.perSecond)}); customer send → attendant socket p50 ${ms(r.p50)}, p99 ${ms(r.p99)}; missed ${r.missed}, doubled ${r.doubled}`,
      );
    for (const [name, r] of [
      ['1 process ', at1],
      ['3 processes', at3],
    ] as const)
      console.log(
        `send-conversation-message, ${ATTENDANTS} attendants at once, ${name}: p50 ${ms(r.p50)}, p99 ${ms(r.p99)} (${r.calls} calls)`,
      );
  } finally {
    await pool.end();
    await dropDatabase(databaseUrl);
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  }
}

await main();
process.exit(0);
