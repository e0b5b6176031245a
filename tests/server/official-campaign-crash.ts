// Official campaigns sent by the real server process, killed with SIGKILL and restarted while they send,
// against the fake Graph API (in this process: it outlives the kills, keeps what it took, and retries its
// status webhooks to the server until one takes them, as Meta does). The driver of
// official-campaigns-restart.test.ts and of the bench's crash figures (tests/bench/official-campaign-figures.ts).
import { asc, eq } from 'drizzle-orm';
import { openDatabase } from '@/server/db';
import { campaignRecipients, campaigns, chips } from '@/server/db/schema';
import type { FakeGraph } from '../fakes/graph-api';
import { until } from './channel-helpers';
import {
  audienceOf,
  graphEnv,
  insertOfficialCampaign,
  officialChip,
  PHONE_NUMBER_ID,
  sendsPerPhone,
} from './official-helpers';
import { exited, remote, startProcess } from './process-helpers';

export interface OfficialCrashOptions {
  dataDir: string;
  databaseUrl?: string;
  graph: FakeGraph;
  people: number;
  kills: number;
  /** The chip's throughput and the fake's limit (messages a second). */
  throughput: number;
  log?: (line: string) => void;
  timeoutMs?: number;
  /** Where the server finds Graph, if not at the fake itself (a bench's relay adding Meta's round trip). */
  graphUrl?: string;
}

export interface OfficialCrashResult {
  people: number;
  /** People the fake took more than one send for. */
  doubles: number;
  /** People the fake took no send for. */
  skips: number;
  sent: number;
  status: string;
  rateLimited: number;
  /** Sends taken per second, from the first to the last. */
  rate: number;
  /** From the first send taken to the last. */
  spanMs: number;
  /** From the sending server's first start listening to the first send taken. */
  firstSendMs: number;
  elapsedMs: number;
  problems: { phone: string; status: string; failure: string | null; taken: number }[];
}

export async function officialCrashRun(o: OfficialCrashOptions): Promise<OfficialCrashResult> {
  const log = o.log ?? (() => {});
  const { graph } = o;
  const env = {
    DATA_DIR: o.dataDir,
    SEED_DEMO: 'true',
    ...graphEnv(graph, o.graphUrl ? { WHATSAPP_GRAPH_URL: o.graphUrl } : {}),
    // A send cut off by a kill is looked at again 3 s + 10 s after its claim, and sent again only if no
    // status webhook named it within 60 s more (production: minutes). 5 s and 20 s were too short on a loaded
    // 2-core CI run: the restarted server had not yet taken the retried webhooks of the last batch, and sent it
    // again (10 to 50 people twice); 60 s was too short once too (21 people), with CI's suites side by side.
    OFFICIAL_SEND_TIMEOUT_SECONDS: '3',
    OFFICIAL_SEND_GRACE_SECONDS: '150',
    ...(o.databaseUrl && { DATABASE_URL: o.databaseUrl }),
  };
  // 1. The demo and the official chip, then the server stops (the embedded database: one process at a time).
  let server = await startProcess(env);
  let t = remote(server.url);
  graph.webhookTarget = { url: server.url, secret: 'secret' };
  const owner = await t.login('dono@demo.com');
  const [department] = (await t.call('get-departments-by-user', {}, owner)) as { _id: string }[];
  const { chipId } = await officialChip(t, department?._id ?? '');
  server.proc.kill('SIGTERM');
  await exited(server.proc);

  // 2. The audience and the campaign, due at once: the sweep at the next start queues its run.
  let campaignId = '';
  {
    const database = await openDatabase({ databaseUrl: o.databaseUrl, dataDir: o.dataDir });
    const db = database.db;
    const [chip] = await db.select().from(chips).where(eq(chips.id, chipId));
    await db.update(chips).set({ throughput: o.throughput }).where(eq(chips.id, chipId));
    const audienceId = await audienceOf(db, chip?.accountId ?? '', o.people);
    const c = await insertOfficialCampaign(db, {
      accountId: chip?.accountId ?? '',
      chipId,
      audienceId,
      department: department?._id,
    });
    campaignId = c.id;
    await database.close();
  }
  graph.throughput[PHONE_NUMBER_ID] = o.throughput;
  graph.statusWebhooks = 'delivered';

  // 3. The sending, and the kills at random moments.
  const started = Date.now();
  server = await startProcess(env);
  const listened = Date.now();
  t = remote(server.url);
  graph.webhookTarget = { url: server.url, secret: 'secret' };
  const deadline = Date.now() + (o.timeoutMs ?? 10 * 60_000);
  for (let k = 1; k <= o.kills; k++) {
    const target = Math.floor(o.people * ((k - 1 + 0.3 + Math.random() * 0.5) / (o.kills + 1)));
    await until(() => graph.sent.length >= target, deadline - Date.now());
    server.proc.kill('SIGKILL');
    await exited(server.proc);
    log(
      `killed (SIGKILL) at ${graph.sent.length} of ${o.people} taken, ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    server = await startProcess(env);
    t = remote(server.url);
    graph.webhookTarget = { url: server.url, secret: 'secret' };
  }
  const list = async () => {
    const answer = (await t.call('get-campaigns-by-user', { official: true }, owner).catch(() => null)) as
      | { _id: string; status: string }[]
      | null;
    return answer?.find((c) => c._id === campaignId);
  };
  // Asked twice a second: a screen's pace, not a load of its own on the server whose rate is measured.
  while (Date.now() < deadline) {
    const c = await list().catch(() => undefined);
    if (c && ['finished', 'canceled', 'error'].includes(c.status)) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  // The last sends' status webhooks.
  await Promise.race([graph.notified(), new Promise((r) => setTimeout(r, 10_000))]);
  server.proc.kill('SIGTERM');
  await exited(server.proc);

  // 4. What happened: the fake's sends per person, and the database.
  const database = await openDatabase({ databaseUrl: o.databaseUrl, dataDir: o.dataDir });
  try {
    const db = database.db;
    const rows = await db
      .select()
      .from(campaignRecipients)
      .where(eq(campaignRecipients.campaignId, campaignId))
      .orderBy(asc(campaignRecipients.seq));
    const [c] = await db.select().from(campaigns).where(eq(campaigns.id, campaignId));
    const taken = sendsPerPhone(graph);
    const at = graph.sent.map((x) => x.at);
    const first = at.length ? Math.min(...at) : Number.NaN;
    const span = at.length > 1 ? Math.max(...at) - first : 0;
    return {
      people: rows.length,
      doubles: rows.filter((r) => (taken.get(r.phone) ?? 0) > 1).length,
      skips: rows.filter((r) => (taken.get(r.phone) ?? 0) === 0).length,
      sent: rows.filter((r) => r.status === 'sent').length,
      status: c?.status ?? 'missing',
      rateLimited: graph.rateLimited,
      rate: span ? ((graph.sent.length - 1) * 1000) / span : 0,
      spanMs: span,
      firstSendMs: first - listened,
      elapsedMs: (c?.finishedAt?.getTime() ?? Date.now()) - started,
      problems: rows
        .filter((r) => r.status !== 'sent' || taken.get(r.phone) !== 1)
        .slice(0, 50)
        .map((r) => ({
          phone: r.phone,
          status: r.status,
          failure: r.failure,
          taken: taken.get(r.phone) ?? 0,
        })),
    };
  } finally {
    await database.close();
  }
}
