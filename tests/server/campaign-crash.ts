// Campaigns run by the real server process, killed with SIGKILL and restarted while they send: the driver of
// campaigns-restart.test.ts and of the bench (tests/bench/campaign-figures.ts). Afterwards the database is
// read directly: each person's stored messages (whatever their message_id), and each send's planned and
// actual time.
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { openDatabase } from '@/server/db';
import {
  audiencePeople,
  audiences,
  campaignRecipients,
  campaigns,
  chips,
  contacts,
  conversations,
  messages,
} from '@/server/db/schema';
import type { Campaign } from '@/shared/contract/campaigns';
import { newId } from '@/shared/ids';
import { connectedSimulatorChip, until } from './channel-helpers';
import { exited, remote, startProcess } from './process-helpers';

export interface CrashRunOptions {
  dataDir: string;
  databaseUrl?: string;
  /** One campaign per chip (the demo plan allows 5 chips). */
  campaigns: number;
  people: number;
  kills: number;
  /** Seconds, one of CAMPAIGN_INTERVALS, scaled by `scale`. */
  interval: number;
  scale: number;
  log?: (line: string) => void;
  timeoutMs?: number;
}

export interface CrashRunResult {
  /** People per phone whose stored messages number more than one. */
  doubles: number;
  /** People never sent their message. */
  skips: number;
  sent: number;
  people: number;
  /** From the campaigns' creation to the last one's end. */
  elapsedMs: number;
  /** Each send's delay after its planned time. */
  deviationsMs: number[];
  /** The shortest gap between two sends of one campaign. */
  minGapMs: number;
  statuses: string[];
  /** The people sent more or less than once, to look at. */
  problems: { phone: string; status: string; failure: string | null; stored: number }[];
}

const phoneOf = (campaign: number, i: number) => `55119${campaign + 1}${String(i).padStart(7, '0')}`;

export async function crashRun(o: CrashRunOptions): Promise<CrashRunResult> {
  const log = o.log ?? (() => {});
  const env = {
    DATA_DIR: o.dataDir,
    SEED_DEMO: 'true',
    CAMPAIGN_INTERVAL_SCALE: String(o.scale),
    ...(o.databaseUrl && { DATABASE_URL: o.databaseUrl }),
  };
  // 1. The demo and the chips, then the server stops (the embedded database has one process at a time).
  let server = await startProcess(env);
  let t = remote(server.url);
  const owner = await t.login('dono@demo.com');
  const [department] = (await t.call('get-departments-by-user', {}, owner)) as { _id: string }[];
  const chipIds: string[] = [];
  for (let c = 0; c < o.campaigns; c++) {
    const { chip } = await connectedSimulatorChip(t, owner, {
      name: `Chip ${c}`,
      department: department?._id ?? '',
    });
    chipIds.push(chip._id);
  }
  server.proc.kill('SIGTERM');
  await exited(server.proc);

  // 2. One audience per campaign, as import-audience stores them.
  const audienceIds: string[] = [];
  {
    const database = await openDatabase({ databaseUrl: o.databaseUrl, dataDir: o.dataDir });
    const db = database.db;
    const [{ accountId } = { accountId: '' }] = await db
      .select({ accountId: chips.accountId })
      .from(chips)
      .where(eq(chips.id, chipIds[0] ?? ''));
    for (let c = 0; c < o.campaigns; c++) {
      const id = newId();
      audienceIds.push(id);
      await db
        .insert(audiences)
        .values({ id, accountId, name: `Lista ${c}`, props: ['telefone', 'nome'], peopleCount: o.people });
      for (let from = 0; from < o.people; from += 1000) {
        const batch = Array.from({ length: Math.min(1000, o.people - from) }, (_, k) => ({
          audienceId: id,
          phone: phoneOf(c, from + k),
          data: { nome: `Pessoa ${from + k}` },
          position: from + k,
        }));
        await db.insert(audiencePeople).values(batch);
      }
    }
    await database.close();
  }

  // 3. The campaigns, then the kills.
  server = await startProcess(env);
  t = remote(server.url);
  const started = Date.now();
  const ids: string[] = [];
  for (let c = 0; c < o.campaigns; c++) {
    const created = (await t.call(
      'create-campaign',
      {
        name: `Campanha ${c}`,
        chip: chipIds[c],
        audience_type: 'audience',
        audience: audienceIds[c],
        message_type: 'text',
        message: ['Oi {nome:first}, versão 1', 'Olá {nome}, versão 2'],
        interval: o.interval,
        scheduledTo: null,
      },
      owner,
    )) as Campaign;
    ids.push(created._id);
  }
  const total = o.campaigns * o.people;
  const sentSoFar = async () => {
    const list = (await t.call('get-campaigns-by-user', {}, owner)) as Campaign[];
    return list.filter((c) => ids.includes(c._id));
  };
  const deadline = Date.now() + (o.timeoutMs ?? 20 * 60_000);
  for (let k = 1; k <= o.kills; k++) {
    // A random moment in the k-th part of the run.
    const target = Math.floor(total * ((k - 1 + 0.4 + Math.random() * 0.5) / (o.kills + 1)));
    await until(
      async () => (await sentSoFar()).reduce((n, c) => n + c.sent_messages, 0) >= target,
      deadline - Date.now(),
    );
    server.proc.kill('SIGKILL');
    await exited(server.proc);
    log(`killed (SIGKILL) at ${target} of ${total} sent, ${((Date.now() - started) / 1000).toFixed(1)} s`);
    server = await startProcess(env);
    t = remote(server.url);
  }
  const ended = await until(async () => {
    const list = await sentSoFar();
    return list.every((c) => ['finished', 'canceled', 'error'].includes(c.status)) ? list : undefined;
  }, deadline - Date.now());
  server.proc.kill('SIGTERM');
  await exited(server.proc);

  // 4. What happened, from the database.
  const database = await openDatabase({ databaseUrl: o.databaseUrl, dataDir: o.dataDir });
  try {
    const db = database.db;
    const rows = await db
      .select()
      .from(campaignRecipients)
      .where(inArray(campaignRecipients.campaignId, ids))
      .orderBy(asc(campaignRecipients.campaignId), asc(campaignRecipients.seq));
    const stored = await db
      .select({ phone: contacts.phone, n: sql<number>`count(*)::int` })
      .from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .innerJoin(contacts, eq(contacts.id, conversations.contactId))
      .where(inArray(messages.origin, ['user', 'chatbot']))
      .groupBy(contacts.phone);
    const perPhone = new Map(stored.map((s) => [s.phone, s.n]));
    const [last] = await db
      .select({ at: sql<Date>`max(${campaigns.finishedAt})` })
      .from(campaigns)
      .where(inArray(campaigns.id, ids));
    let minGapMs = Number.POSITIVE_INFINITY;
    for (let i = 1; i < rows.length; i++) {
      const a = rows[i - 1];
      const b = rows[i];
      if (a?.campaignId === b?.campaignId && a?.sentAt && b?.sentAt)
        minGapMs = Math.min(minGapMs, b.sentAt.getTime() - a.sentAt.getTime());
    }
    return {
      doubles: rows.filter((r) => (perPhone.get(r.phone) ?? 0) > 1).length,
      skips: rows.filter((r) => (perPhone.get(r.phone) ?? 0) === 0 || r.status !== 'sent').length,
      sent: rows.filter((r) => r.status === 'sent').length,
      people: rows.length,
      elapsedMs: (last?.at ? new Date(last.at).getTime() : Date.now()) - started,
      deviationsMs: rows
        .filter((r) => r.sentAt && r.plannedAt)
        .map((r) => (r.sentAt?.getTime() ?? 0) - (r.plannedAt?.getTime() ?? 0)),
      minGapMs,
      statuses: ended.map((c) => c.status),
      problems: rows
        .filter((r) => r.status !== 'sent' || perPhone.get(r.phone) !== 1)
        .map((r) => ({
          phone: r.phone,
          status: r.status,
          failure: r.failure,
          stored: perPhone.get(r.phone) ?? 0,
        })),
    };
  } finally {
    await database.close();
  }
}
