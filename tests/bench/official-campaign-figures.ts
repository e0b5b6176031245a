// Prints the official campaigns' figures (issues 19, 37). Two runs against the fake Graph API limited to the
// number's throughput (80 messages in any rolling second, answering 130429 beyond it, as Meta does, and
// sending each send's status webhooks back), the server in its own process (as `npm run serve` runs it; the
// fake and this script in another):
// 1. PEOPLE people on one official number, due at once: the achieved rate and its ratio to the throughput,
//    the 130429 answers, doubles and skips (people the fake took more or fewer than one send for: both must
//    be 0), the time from the server listening to the first send, and the machine's load before and after.
// 2. With KILLS > 0: CRASH_PEOPLE people, the server killed with SIGKILL KILLS times mid-send: doubles and
//    skips again, the rate with the restarts.
// PGlite by default; PostgreSQL with DATABASE_URL. Run: npm run bench:official
// Options by environment: PEOPLE (10000), THROUGHPUT (80), KILLS (2), CRASH_PEOPLE (2000), GRAPH_LATENCY_MS (0:
// the fake answers at once; Meta takes ~100-300 ms, added to each answer by a relay after the fake counted it).
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeGraph } from '../fakes/graph-api';
import { dropDatabase, freshPostgres } from '../server/helpers';
import { officialCrashRun } from '../server/official-campaign-crash';

const PEOPLE = Number(process.env.PEOPLE ?? 10_000);
const THROUGHPUT = Number(process.env.THROUGHPUT ?? 80);
const KILLS = Number(process.env.KILLS ?? 2);
const CRASH_PEOPLE = Number(process.env.CRASH_PEOPLE ?? 2000);
const GRAPH_LATENCY_MS = Number(process.env.GRAPH_LATENCY_MS ?? 0);

/**
 * A relay in front of the fake Graph API that holds each answer `ms` (Meta's round trip): the request reaches
 * the fake (and its rate count) at once, as it would reach Meta; only the answer comes late.
 */
async function slowRelay(target: string, ms: number) {
  const agent = new http.Agent({ keepAlive: true });
  const relay = http.createServer((req, res) => {
    const upstream = http.request(
      new URL(req.url ?? '/', target),
      { method: req.method, headers: req.headers, agent },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () =>
          setTimeout(() => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(Buffer.concat(chunks));
          }, ms),
        );
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(relay.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        relay.closeAllConnections();
        relay.close(() => resolve());
        agent.destroy();
      }),
  };
}

/** The machine's load: others' benches share these cores, so every figure is printed beside it. */
function load() {
  let uptime = '';
  try {
    uptime = execFileSync('uptime', { encoding: 'utf8' }).trim();
  } catch {
    uptime = `load average: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}`;
  }
  return `${cpus().length} cores; ${uptime}`;
}

/** A fresh embedded data dir, or a fresh PostgreSQL database with DATABASE_URL; removed after `run`. */
async function fresh<T>(run: (dataDir: string, databaseUrl: string | undefined) => Promise<T>) {
  const dir = await mkdtemp(path.join(tmpdir(), 'painel-bench-official-'));
  const databaseUrl = process.env.DATABASE_URL ? await freshPostgres(process.env.DATABASE_URL) : undefined;
  try {
    return await run(dir, databaseUrl);
  } finally {
    await rm(dir, { recursive: true, force: true });
    if (databaseUrl) await dropDatabase(databaseUrl);
  }
}

async function steady() {
  const graph = await startFakeGraph();
  const relay = GRAPH_LATENCY_MS > 0 ? await slowRelay(graph.url, GRAPH_LATENCY_MS) : null;
  try {
    console.log(
      `1. ${PEOPLE} people, one official number, throughput ${THROUGHPUT}/s, the server in its own process${relay ? `, Graph answering in ${GRAPH_LATENCY_MS} ms` : ''}`,
    );
    console.log(`   load before: ${load()}`);
    const r = await fresh((dataDir, databaseUrl) =>
      officialCrashRun({
        dataDir,
        databaseUrl,
        graph,
        people: PEOPLE,
        kills: 0,
        throughput: THROUGHPUT,
        timeoutMs: 60 * 60_000,
        ...(relay && { graphUrl: relay.url }),
      }),
    );
    console.log(`   load after:  ${load()}`);
    console.log(`   campaign: ${r.status}, sent ${r.sent} of ${r.people}`);
    console.log(
      `   achieved: ${r.rate.toFixed(1)} messages/s = ${((100 * r.rate) / THROUGHPUT).toFixed(1)}% of ${THROUGHPUT}/s, over ${(r.spanMs / 1000).toFixed(1)} s (ideal ${(PEOPLE / THROUGHPUT).toFixed(1)} s)`,
    );
    console.log(`   130429 answers: ${r.rateLimited}; Graph requests: ${graph.to('/messages').length}`);
    console.log(`   doubles: ${r.doubles}, skips: ${r.skips}`);
    console.log(`   first send ${r.firstSendMs} ms after the server listened`);
    if (r.problems.length) console.log('   problems:', r.problems.slice(0, 10));
  } finally {
    await relay?.close();
    await graph.close();
  }
}

async function crashes() {
  const graph = await startFakeGraph();
  try {
    console.log(
      `2. ${CRASH_PEOPLE} people, throughput ${THROUGHPUT}/s, the server in its own process, ${KILLS} kills (SIGKILL)`,
    );
    const r = await fresh((dataDir, databaseUrl) =>
      officialCrashRun({
        dataDir,
        databaseUrl,
        graph,
        people: CRASH_PEOPLE,
        kills: KILLS,
        throughput: THROUGHPUT,
        log: (line) => console.log(`   ${line}`),
        timeoutMs: 60 * 60_000,
      }),
    );
    console.log(
      `   campaign: ${r.status}, sent ${r.sent} of ${r.people}, doubles: ${r.doubles}, skips: ${r.skips}`,
    );
    console.log(
      `   130429 answers: ${r.rateLimited}; rate while sending ${r.rate.toFixed(1)} sends/s; total ${(r.elapsedMs / 1000).toFixed(1)} s with the restarts`,
    );
    console.log(`   load after: ${load()}`);
    if (r.problems.length) console.log('   problems:', r.problems.slice(0, 10));
  } finally {
    await graph.close();
  }
}

async function main() {
  console.log(`machine: ${load()}; database: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}`);
  if (PEOPLE > 0) await steady();
  if (KILLS > 0) await crashes();
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
