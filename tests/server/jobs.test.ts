// The durable job runner (src/server/jobs/runner.ts): a job queued before a kill runs once after the restart
// (the server as a real process, killed with SIGKILL), and jobs shared by two servers on one PostgreSQL
// database are each handled once.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { openDatabase } from '@/server/db';
import { channelInbox, messages, scheduledMessages } from '@/server/db/schema';
import { housekeepingJob } from '@/server/jobs/housekeeping';
import type { JobKind } from '@/server/jobs/runner';
import { connectedSimulatorChip, until } from './channel-helpers';
import { dropDatabase, freshPostgres, startTestServer } from './helpers';
import { exited, remote, startProcess } from './process-helpers';

const dirs: string[] = [];
const databases: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
  for (const url of databases) await dropDatabase(url);
});

it('a job queued before a kill (SIGKILL) runs once after the restart', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'painel-jobs-'));
  dirs.push(dir);
  let databaseUrl: string | undefined;
  if (process.env.DATABASE_URL) {
    databaseUrl = await freshPostgres(process.env.DATABASE_URL);
    databases.push(databaseUrl);
  }
  const env = { DATA_DIR: dir, SEED_DEMO: 'true', ...(databaseUrl && { DATABASE_URL: databaseUrl }) };

  const first = await startProcess(env);
  const t = remote(first.url);
  const owner = await t.login('dono@demo.com');
  const [support] = (await t.call('get-departments-by-user', {}, owner)) as { _id: string }[];
  const { chip } = await connectedSimulatorChip(t, owner, { department: support?._id ?? '' });
  // The runner's job for it is queued with the row; the process dies before it falls due. 15 s ahead: on a
  // loaded CI machine the call itself once took long enough for the first process to send it before the kill.
  const item = (await t.call(
    'create-scheduled-message',
    {
      chip: chip._id,
      to: '11987654321',
      message: 'Depois do kill',
      scheduledTo: new Date(Date.now() + 15_000).toISOString(),
    },
    owner,
  )) as { _id: string };
  first.proc.kill('SIGKILL');
  await exited(first.proc);
  // What the kill left: the row still waiting, its job queued and not yet taken.
  expect(await stateOf(item._id, databaseUrl, dir)).toEqual({
    row: { status: 'scheduled', attempts: 0 },
    sent: 0,
    jobs: ['created'],
  });

  const second = await startProcess(env);
  const after = remote(second.url);
  await until(async () => {
    const list = (await after.call('get-scheduled-messages-by-user', {}, owner)) as { status: string }[];
    return list[0]?.status === 'sent';
  }, 45_000);
  // Room for a second run, had there been one.
  await new Promise((r) => setTimeout(r, 2000));
  second.proc.kill('SIGTERM');
  await exited(second.proc);

  // Sent once, by one claim, and the runner's job completed (no run left behind, none to come).
  expect(await stateOf(item._id, databaseUrl, dir)).toEqual({
    row: { status: 'sent', attempts: 1 },
    sent: 1,
    jobs: ['completed'],
  });
}, 120_000);

/** The scheduled message's row, its sends and its runner jobs, read with no server running. */
async function stateOf(id: string, databaseUrl: string | undefined, dataDir: string) {
  const database = await openDatabase({ databaseUrl, dataDir });
  try {
    const [row] = await database.db.select().from(scheduledMessages).where(eq(scheduledMessages.id, id));
    const sent = await database.db
      .select()
      .from(messages)
      .where(eq(messages.messageId, `sched-${id}`));
    const { rows } = await database.executeSql(
      `select state from pgboss.job where name = 'scheduled-message' and data->>'id' = $1`,
      [id],
    );
    return {
      row: row && { status: row.status, attempts: row.attempts },
      sent: sent.length,
      jobs: rows.map((r) => r.state),
    };
  } finally {
    await database.close();
  }
}

it.runIf(process.env.DATABASE_URL)(
  'two servers on one PostgreSQL database handle each of 200 jobs exactly once',
  async () => {
    const a = await startTestServer();
    const b = await startTestServer({ DATABASE_URL: a.databaseUrl ?? '' });
    try {
      const handled = new Map<number, string[]>();
      const kind = (server: string): JobKind<{ n: number }> => ({
        name: 'test-count',
        pollSeconds: 0.5,
        batchSize: 5,
        concurrency: 5,
        // Long enough that the other process polls (every 0.5 s) before the sender's own workers are done.
        run: async ({ n }) => {
          await new Promise((r) => setTimeout(r, 30));
          handled.set(n, [...(handled.get(n) ?? []), server]);
        },
      });
      await a.server.services.jobs.define(kind('a'));
      await b.server.services.jobs.define(kind('b'));
      await a.server.services.jobs.sendMany(
        'test-count',
        Array.from({ length: 200 }, (_, n) => ({ data: { n } })),
      );
      await until(() => handled.size === 200, 60_000);
      await new Promise((r) => setTimeout(r, 1500));
      const twice = [...handled].filter(([, by]) => by.length !== 1);
      expect(twice).toEqual([]);
      const by = [...handled.values()].flat();
      // Both took part: the exactly-once is the database's claim, not one process doing all.
      expect(by.filter((s) => s === 'a').length).toBeGreaterThan(0);
      expect(by.filter((s) => s === 'b').length).toBeGreaterThan(0);
    } finally {
      await b.close({ keepDatabase: true });
      await a.close();
    }
  },
  120_000,
);

it('housekeeping deletes channel notifications handled over a week ago, and keeps the rest', async () => {
  const t = await startTestServer();
  try {
    const { db } = t.server.services;
    const day = 24 * 60 * 60 * 1000;
    await db.insert(channelInbox).values([
      {
        id: 'inbox-old-handled',
        provider: 'cloud-api',
        body: {},
        processedAt: new Date(Date.now() - 8 * day),
      },
      {
        id: 'inbox-new-handled',
        provider: 'cloud-api',
        body: {},
        processedAt: new Date(Date.now() - 6 * day),
      },
      { id: 'inbox-unhandled', provider: 'cloud-api', body: {}, receivedAt: new Date(Date.now() - 30 * day) },
    ]);
    await housekeepingJob.run({}, t.server.services);
    const left = (await db.select({ id: channelInbox.id }).from(channelInbox)).map((r) => r.id).sort();
    expect(left).toEqual(['inbox-new-handled', 'inbox-unhandled']);
  } finally {
    await t.close();
  }
});
