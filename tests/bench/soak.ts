// A day in an hour (issue 35 item 5): two server processes on one PostgreSQL under a realistic mix for
// SOAK_MINUTES (default 60; CI runs 5): 200 attendants' sockets, 40 customers writing (a keyword starts a
// flow that answers them), 20 attendants answering, a campaign every minute on the same number, and the
// managers' dashboards refreshed. It prints, per process, the memory (RSS and heap) and its slope after the
// warm-up, the job runner's overdue backlog, and the p99 of an attendant's send and of a customer's message
// reaching an attendant's socket on the other process, in the first and the last window; then what was lost
// or doubled. It exits 1 when something was lost or doubled, the backlog kept growing, or the last window's
// p99 is over 3 times the first's (and over 500 ms).
//   npm run soak                       (the hour; DATABASE_URL defaults to the local PostgreSQL)
//   SOAK_MINUTES=5 npm run soak        (CI)
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '@/server/db';
import { audiencePeople, audiences } from '@/server/db/schema';
import { newId } from '@/shared/ids';
import { connected, connectedSimulatorChip } from '../server/channel-helpers';
import { insertFlow } from '../server/flow-helpers';
import { dropDatabase, freshPostgres } from '../server/helpers';
import { exited, remote, startProcess } from '../server/process-helpers';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 60);
const TOTAL_MS = MINUTES * 60_000;
/** The first and last windows compared: 10 minutes of the hour, a fifth of a shorter run. */
const WINDOW_MS = Math.min(10 * 60_000, TOTAL_MS / 5);
/** Memory before this is warm-up (caches, JIT, pools filling): the slope is taken after it. */
const WARM_UP_MS = Math.min(5 * 60_000, TOTAL_MS / 5);
const SOCKETS = 200;
const CUSTOMERS = 40;
const ATTENDANTS = 20;
const base = process.env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const began = performance.now();
const at = () => performance.now() - began;

const p99 = (list: number[]) => {
  if (!list.length) return Number.NaN;
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? Number.NaN;
};
/** Least-squares slope of (t ms, y) in y-units per hour. */
const slopePerHour = (points: [number, number][]) => {
  const n = points.length;
  if (n < 3) return Number.NaN;
  const mx = points.reduce((s, p) => s + p[0], 0) / n;
  const my = points.reduce((s, p) => s + p[1], 0) / n;
  const num = points.reduce((s, p) => s + (p[0] - mx) * (p[1] - my), 0);
  const den = points.reduce((s, p) => s + (p[0] - mx) ** 2, 0);
  return den ? (num / den) * 3_600_000 : Number.NaN;
};
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function main() {
  const databaseUrl = await freshPostgres(base);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'painel-soak-'));
  const env = {
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    MEMORY_LOG_SECONDS: '5',
    // A campaign's 20 s interval becomes 1 s: a campaign of 30 people takes about half a minute.
    CAMPAIGN_INTERVAL_SCALE: '0.05',
  };
  const procs = [await startProcess(env), await startProcess(env)];
  const memory = procs.map(() => [] as { t: number; rss: number; heap: number }[]);
  procs.forEach((p, i) => {
    let buffer = '';
    p.proc.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        const m = /memory rss=(\d+) heap=(\d+)/.exec(line);
        if (m) memory[i]?.push({ t: at(), rss: Number(m[1]), heap: Number(m[2]) });
      }
    });
  });
  const [a, b] = procs.map((p) => remote(p.url)) as [ReturnType<typeof remote>, ReturnType<typeof remote>];
  const database = await openDatabase({ databaseUrl, dataDir });
  const sql = database.executeSql;
  try {
    const owner = await a.login('dono@demo.com');
    const accountId = ((await a.call('get-user', {}, owner)) as { account: { _id: string } }).account._id;
    const departments = (await a.call('get-departments-by-user', {}, owner)) as {
      _id: string;
      name: string;
    }[];
    const support = departments.find((d) => d.name === 'Suporte')?._id ?? '';
    const { chip, simulatorToken } = await connectedSimulatorChip(a, owner, { department: support });
    // A flow on the keyword 'pedido' answers the customer (and keeps the conversation a person's).
    await insertFlow(
      { db: database.db },
      accountId,
      [
        { id: 'start', type: 'start' },
        { id: 'ok', type: 'message', data: { kind: 'text', text: 'Recebemos o seu pedido.' } },
      ],
      [['start', 'ok']],
      { trigger: true, keywords: ['pedido'], triggerHuman: true },
    );

    // 200 attendants' sockets: the three demo users signed in several times on each process (one after the
    // other: concurrent sign-ins of one e-mail are refused as guessing), five sockets per session.
    const sessions: { server: typeof a; token: string }[] = [];
    for (let i = 0; i < SOCKETS / 5; i++) {
      const server = i % 2 ? b : a;
      const email = ['dono@demo.com', 'gerente@demo.com', 'atendente@demo.com'][i % 3] ?? '';
      sessions.push({ server, token: await server.login(email) });
    }
    let received = 0;
    const sockets = sessions.flatMap(({ server, token }) =>
      Array.from({ length: 5 }, () => {
        const sock = server.socket(token);
        sock.on('receive-message', () => received++);
        return sock;
      }),
    );
    await Promise.all(sockets.map((s) => connected(s)));
    // The probe: a manager's socket on B sees when each customer message (written through A) arrives.
    const seenAt = new Map<string, number>();
    const probe = b.socket(await b.login('gerente@demo.com'));
    probe.on('receive-message', (e: { type: string; message?: { message?: { message?: string } } }) => {
      const text = e.type === 'new_message' ? e.message?.message?.message : undefined;
      if (text?.startsWith('soak ') && !seenAt.has(text)) seenAt.set(text, at());
    });
    await connected(probe);

    const customers = Array.from({ length: CUSTOMERS }, (_, i) => `5511966${String(i).padStart(6, '0')}`);
    const conversationOf = new Map<string, string>();
    const sentAt = new Map<string, number>();
    const customerLatency: { t: number; ms: number }[] = [];
    const sendLatency: { t: number; ms: number }[] = [];
    const failures: string[] = [];
    const acked = { customer: 0, team: 0 };
    let stop = false;
    const customerWrites = async (phone: string, i: number) => {
      for (let n = 0; !stop; n++) {
        const text = `soak ${i} ${n}${n % 10 === 0 ? ' pedido' : ''}`;
        // The first opens the conversation (a new_conversation event): the others are new_message.
        if (n > 0) sentAt.set(text, at());
        const res = await a
          .post('simulator-send', {
            token: simulatorToken,
            phone,
            name: `Cliente ${i}`,
            id: `soak-${i}-${n}`,
            type: 'text',
            text,
          })
          .catch((err: Error) => ({ status: 0, body: { error: true, message: err.message } }));
        if (res.status !== 200 || res.body.error) failures.push(`customer ${res.status} ${res.body.message}`);
        else acked.customer++;
        // One message every 8 s or so each: 5 a second in all.
        await sleep(6000 + Math.random() * 4000);
      }
    };
    const attendantAnswers = async (i: number) => {
      const { server, token } = sessions[i % sessions.length] ?? { server: a, token: owner };
      for (let n = 0; !stop; n++) {
        const phone = customers[(i + n) % customers.length] ?? '';
        const conversation = conversationOf.get(phone);
        if (conversation) {
          const t0 = at();
          const res = await server
            .post(
              'send-conversation-message',
              {
                conversation_id: conversation,
                message_id: `soak-team-${i}-${n}`,
                text: `Resposta ${i} ${n}`,
              },
              token,
            )
            .catch((err: Error) => ({ status: 0, body: { error: true, message: err.message } }));
          if (res.status !== 200 || res.body.error) failures.push(`send ${res.status} ${res.body.message}`);
          else {
            acked.team++;
            sendLatency.push({ t: t0, ms: at() - t0 });
          }
        }
        // One every 4 s or so each: 5 a second in all.
        await sleep(3000 + Math.random() * 2000);
      }
    };
    const dashboards = async () => {
      const manager = await b.login('gerente@demo.com');
      while (!stop) {
        // The cards and the day's and the last 7 days' charts, as the dashboard screen asks them.
        for (const [call, body] of [
          ['get-dashboard-real-time-data', {}],
          ['get-dashboard-data', { interval: 1 }],
          ['get-dashboard-data', { interval: 7 }],
        ] as const) {
          const res = await b
            .post(call, body, manager)
            .catch((err: Error) => ({ status: 0, body: { error: true, message: err.message } }));
          if (res.status !== 200 || res.body.error)
            failures.push(`${call} ${res.status} ${res.body.message}`);
        }
        await sleep(10_000);
      }
    };
    const campaigns = async () => {
      for (let n = 0; !stop; n++) {
        const audience = newId();
        await database.db.insert(audiences).values({
          id: audience,
          accountId,
          name: `Lista ${n}`,
          props: ['telefone'],
          peopleCount: 30,
        });
        await database.db.insert(audiencePeople).values(
          Array.from({ length: 30 }, (_, k) => ({
            audienceId: audience,
            phone: `5521977${String(n * 30 + k).padStart(6, '0')}`,
            data: {},
            position: k,
          })),
        );
        await a
          .call(
            'create-campaign',
            {
              name: `Campanha ${n}`,
              chip: chip._id,
              audience_type: 'audience',
              audience,
              message_type: 'text',
              message: ['Novidades da semana!'],
              interval: 20,
              scheduledTo: null,
            },
            owner,
          )
          .catch((err: Error) => failures.push(`campaign ${err.message}`));
        await sleep(60_000);
      }
    };

    // The conversations exist once each customer wrote once.
    const writers = customers.map((phone, i) => customerWrites(phone, i));
    await sleep(3000);
    for (const { phone, id } of (
      await sql(
        `select ct.phone, c.id from conversations c join contacts ct on ct.id = c.contact_id where ct.phone like '5511966%'`,
      )
    ).rows)
      conversationOf.set(String(phone), String(id));
    const answerers = Array.from({ length: ATTENDANTS }, (_, i) => attendantAnswers(i));
    const others = [dashboards(), campaigns()];

    // Every 10 s: the customer messages seen, and the job runner's overdue backlog.
    const backlog: [number, number][] = [];
    const load: number[] = [];
    const started = at();
    while (at() - started < TOTAL_MS) {
      await sleep(10_000);
      for (const [text, t0] of sentAt)
        if (seenAt.has(text)) {
          customerLatency.push({ t: t0, ms: (seenAt.get(text) ?? t0) - t0 });
          sentAt.delete(text);
        }
      const { rows } = await sql(
        `select count(*)::int as n from pgboss.job where state in ('created', 'retry') and start_after < now() - interval '30 seconds'`,
      );
      backlog.push([at(), Number(rows[0]?.n ?? 0)]);
      load.push(loadavg()[0] ?? 0);
      const minutes = ((at() - started) / 60_000).toFixed(1);
      process.stdout.write(
        `\r${minutes} of ${MINUTES} min: customer ${acked.customer}, team ${acked.team}, socket events ${received}, overdue jobs ${backlog.at(-1)?.[1]}   `,
      );
    }
    stop = true;
    await Promise.all([...writers, ...answerers, ...others.map((p) => Promise.race([p, sleep(15_000)]))]);
    const ended = at();
    console.log('');

    // What was answered OK is stored once; the last messages reach the probe.
    await sleep(5000);
    for (const [text, t0] of sentAt)
      if (seenAt.has(text)) {
        customerLatency.push({ t: t0, ms: (seenAt.get(text) ?? t0) - t0 });
        sentAt.delete(text);
      }
    const stored = await sql(
      `select count(*)::int as n, count(distinct message_id)::int as d from messages where message_id like 'soak-team-%'`,
    );
    const inbound = await sql(
      `select count(*)::int as n, count(distinct platform_message_id)::int as d from messages where origin = 'customer' and message like 'soak %'`,
    );
    const engines = await sql(
      `select (select count(*)::int from messages where message = 'Recebemos o seu pedido.') as flow,
              (select count(*)::int from campaign_recipients where status = 'sent') as campaign,
              (select count(*)::int from campaigns where status = 'finished') as finished`,
    );
    const teamStored = Number(stored.rows[0]?.n ?? 0);
    const teamDistinct = Number(stored.rows[0]?.d ?? 0);
    const customerStored = Number(inbound.rows[0]?.n ?? 0);
    const customerDistinct = Number(inbound.rows[0]?.d ?? 0);
    const unseen = [...sentAt.keys()].length;

    const windowOf = (list: { t: number; ms: number }[], first: boolean) =>
      list.filter((x) => (first ? x.t < started + WINDOW_MS : x.t >= ended - WINDOW_MS)).map((x) => x.ms);
    const report = (name: string, list: { t: number; ms: number }[]) => {
      const first = p99(windowOf(list, true));
      const last = p99(windowOf(list, false));
      console.log(
        `${name} p99: first ${(WINDOW_MS / 60_000).toFixed(0)} min ${first.toFixed(0)} ms, last ${last.toFixed(0)} ms (${list.length} in all)`,
      );
      return { first, last };
    };
    console.log(
      `soak: ${MINUTES} min, 2 processes on PostgreSQL, ${sockets.length + 1} sockets, ${CUSTOMERS} customers, ${ATTENDANTS} attendants; ` +
        `load (1 min) during the run ${Math.min(...load).toFixed(1)}-${Math.max(...load).toFixed(1)} on ${availableParallelism()} cores`,
    );
    const send = report("attendant's send", sendLatency);
    const toSocket = report('customer → socket on the other process', customerLatency);
    let growing = false;
    memory.forEach((samples, i) => {
      const warm = samples.filter((s) => s.t >= started + WARM_UP_MS);
      const rss = slopePerHour(warm.map((s) => [s.t, s.rss / 1024 / 1024]));
      const heap = slopePerHour(warm.map((s) => [s.t, s.heap / 1024 / 1024]));
      const last = samples.at(-1);
      console.log(
        `process ${i + 1}: RSS ${mb(last?.rss ?? 0)}, heap ${mb(last?.heap ?? 0)} at the end; after the warm-up ` +
          `RSS ${rss.toFixed(1)} MB/h, heap ${heap.toFixed(1)} MB/h (${warm.length} samples)`,
      );
    });
    const backlogEnd = backlog.at(-1)?.[1] ?? 0;
    const backlogMax = Math.max(0, ...backlog.map((x) => x[1]));
    const backlogSlope = slopePerHour(backlog.filter((x) => x[0] >= started + WARM_UP_MS));
    if (backlogEnd > 50 && backlogSlope > 0) growing = true;
    console.log(
      `job runner overdue backlog (jobs due over 30 s ago): max ${backlogMax}, at the end ${backlogEnd}, slope ${backlogSlope.toFixed(0)}/h`,
    );
    console.log(
      `answered OK: team ${acked.team} (stored ${teamStored}, distinct ${teamDistinct}), customers ${acked.customer} ` +
        `(stored ${customerStored}, distinct ${customerDistinct}); flow answers ${engines.rows[0]?.flow}, campaign sends ` +
        `${engines.rows[0]?.campaign} (${engines.rows[0]?.finished} campaigns finished); ` +
        `customer messages never seen on the probe socket: ${unseen}; ` +
        `failures ${failures.length}${failures.length ? ` (${failures.slice(0, 5).join('; ')})` : ''}`,
    );
    const lostOrDoubled =
      teamStored !== acked.team ||
      teamDistinct !== teamStored ||
      customerStored !== acked.customer ||
      customerDistinct !== customerStored;
    const slower = (x: { first: number; last: number }) => x.last > 500 && x.last > 3 * x.first;
    const bad = lostOrDoubled || growing || slower(send) || slower(toSocket) || failures.length > 0;
    console.log(bad ? 'soak: FALHOU' : 'soak: ok');
    for (const s of [...sockets, probe]) s.close();
    process.exitCode = bad ? 1 : 0;
  } finally {
    await database.close();
    await Promise.all(
      procs.map(async (p) => {
        p.proc.kill('SIGTERM');
        await exited(p.proc);
      }),
    );
    await dropDatabase(databaseUrl).catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
