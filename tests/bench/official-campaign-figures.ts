// Prints the official campaigns' figures (issue 19). Two runs against the fake Graph API limited to the
// number's throughput (80 messages a second, answering 130429 beyond it, and sending each send's status
// webhooks back):
// 1. 10,000 people on one official number, scheduled a few seconds ahead, on a server in this process:
//    the achieved rate, the 130429 answers, doubles and skips (people the fake took more or fewer than one
//    send for: both must be 0), and the time from the scheduled moment to the first send.
// 2. With KILLS > 0: CRASH_PEOPLE people sent by the server in its own process, killed with SIGKILL KILLS
//    times mid-send: doubles and skips again, the rate with the restarts.
// PGlite by default; PostgreSQL with DATABASE_URL. Run: npm run bench:official
// Options by environment: PEOPLE (10000), THROUGHPUT (80), KILLS (2), CRASH_PEOPLE (2000).
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { campaigns, chips } from '@/server/db/schema';
import { queueOfficialCampaignRun } from '@/server/jobs/official-campaigns';
import { startFakeGraph } from '../fakes/graph-api';
import { until } from '../server/channel-helpers';
import { dropDatabase, freshPostgres, startTestServer } from '../server/helpers';
import { officialCrashRun } from '../server/official-campaign-crash';
import {
  audienceOf,
  graphEnv,
  insertOfficialCampaign,
  officialChip,
  PHONE_NUMBER_ID,
  sendsPerPhone,
} from '../server/official-helpers';

const PEOPLE = Number(process.env.PEOPLE ?? 10_000);
const THROUGHPUT = Number(process.env.THROUGHPUT ?? 80);
const KILLS = Number(process.env.KILLS ?? 2);
const CRASH_PEOPLE = Number(process.env.CRASH_PEOPLE ?? 2000);

async function steady() {
  const graph = await startFakeGraph();
  const t = await startTestServer(graphEnv(graph));
  try {
    const seed = await t.reset();
    const db = t.server.services.db;
    graph.webhookTarget = { url: t.url, secret: 'secret' };
    const { chipId } = await officialChip(t, seed.departments.support);
    await db.update(chips).set({ throughput: THROUGHPUT }).where(eq(chips.id, chipId));
    const audienceId = await audienceOf(db, seed.accountId, PEOPLE);
    graph.clear();
    graph.webhookTarget = { url: t.url, secret: 'secret' };
    graph.throughput[PHONE_NUMBER_ID] = THROUGHPUT;
    graph.statusWebhooks = 'delivered';
    const scheduledTo = new Date(Date.now() + 3000);
    const c = await insertOfficialCampaign(db, {
      accountId: seed.accountId,
      chipId,
      audienceId,
      scheduledTo,
      department: seed.departments.support,
    });
    await queueOfficialCampaignRun(t.server.services, c);
    const ended = await until(async () => {
      const [row] = await db.select().from(campaigns).where(eq(campaigns.id, c.id));
      return row && ['finished', 'error', 'canceled'].includes(row.status) ? row : undefined;
    }, 60 * 60_000);
    await graph.notified();
    const taken = sendsPerPhone(graph);
    const at = graph.sent.map((x) => x.at);
    const first = Math.min(...at);
    const last = Math.max(...at);
    let doubles = 0;
    for (const n of taken.values()) if (n > 1) doubles++;
    console.log(
      `1. ${PEOPLE} people, one official number, throughput ${THROUGHPUT}/s, server in this process`,
    );
    console.log(`   campaign: ${ended.status}, sent ${ended.sentMessages}, failed ${ended.failedMessages}`);
    console.log(
      `   achieved rate: ${(((graph.sent.length - 1) * 1000) / (last - first)).toFixed(1)} sends/s over ${((last - first) / 1000).toFixed(1)} s (the limit: ${THROUGHPUT}/s; ideal ${(PEOPLE / THROUGHPUT).toFixed(1)} s)`,
    );
    console.log(`   130429 answers: ${graph.rateLimited}; Graph requests: ${graph.to('/messages').length}`);
    console.log(`   doubles: ${doubles}, skips: ${PEOPLE - taken.size}`);
    console.log(`   time to first send after the scheduled time: ${first - scheduledTo.getTime()} ms`);
  } finally {
    await t.close();
    await graph.close();
  }
}

async function crashes() {
  const dir = await mkdtemp(path.join(tmpdir(), 'painel-bench-official-'));
  const databaseUrl = process.env.DATABASE_URL ? await freshPostgres(process.env.DATABASE_URL) : undefined;
  const graph = await startFakeGraph();
  try {
    console.log(
      `2. ${CRASH_PEOPLE} people, throughput ${THROUGHPUT}/s, the server in its own process, ${KILLS} kills (SIGKILL)`,
    );
    const r = await officialCrashRun({
      dataDir: dir,
      databaseUrl,
      graph,
      people: CRASH_PEOPLE,
      kills: KILLS,
      throughput: THROUGHPUT,
      log: (line) => console.log(`   ${line}`),
      timeoutMs: 60 * 60_000,
    });
    console.log(
      `   campaign: ${r.status}, sent ${r.sent} of ${r.people}, doubles: ${r.doubles}, skips: ${r.skips}`,
    );
    console.log(
      `   130429 answers: ${r.rateLimited}; rate while sending ${r.rate.toFixed(1)} sends/s; total ${(r.elapsedMs / 1000).toFixed(1)} s with the restarts`,
    );
    if (r.problems.length) console.log('   problems:', r.problems.slice(0, 10));
  } finally {
    await graph.close();
    await rm(dir, { recursive: true, force: true });
    if (databaseUrl) await dropDatabase(databaseUrl);
  }
}

async function main() {
  console.log(
    `machine: ${cpus().length} cores, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}; database: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}`,
  );
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
