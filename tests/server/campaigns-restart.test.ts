// Exactly once through crashes: a campaign sent by the real server process, killed with SIGKILL three times
// while it sends and restarted each time. Every person gets exactly one message (counted as stored per
// phone, whatever its message_id), none twice, none skipped, never two sends closer than the interval.
// On PostgreSQL, two servers sharing one database send a campaign exactly once too.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import {
  audiencePeople,
  audiences,
  campaignRecipients,
  contacts,
  conversations,
  messages,
} from '@/server/db/schema';
import type { Campaign } from '@/shared/contract/campaigns';
import { newId } from '@/shared/ids';
import { crashRun } from './campaign-crash';
import { connectedSimulatorChip, until } from './channel-helpers';
import { dropDatabase, freshPostgres, startTestServer } from './helpers';

const dirs: string[] = [];
const databases: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
  for (const url of databases) await dropDatabase(url);
});

it('a campaign killed (SIGKILL) three times mid-send reaches every person exactly once', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'painel-campaign-crash-'));
  dirs.push(dir);
  let databaseUrl: string | undefined;
  if (process.env.DATABASE_URL) {
    databaseUrl = await freshPostgres(process.env.DATABASE_URL);
    databases.push(databaseUrl);
  }
  const kills: string[] = [];
  // 20 s scaled to 150 ms: about 9 s of sending for 60 people, with three kills in it.
  const result = await crashRun({
    dataDir: dir,
    databaseUrl,
    campaigns: 1,
    people: 60,
    kills: 3,
    interval: 20,
    scale: 0.0075,
    log: (line) => kills.push(line),
  });
  expect(result.problems).toEqual([]);
  expect(kills).toHaveLength(3);
  expect(result.statuses).toEqual(['finished']);
  expect(result).toMatchObject({ people: 60, sent: 60, doubles: 0, skips: 0 });
  expect(result.minGapMs).toBeGreaterThanOrEqual(150 - 1);
}, 600_000);

it.runIf(process.env.DATABASE_URL)(
  'two servers on one PostgreSQL database send a campaign exactly once',
  async () => {
    const a = await startTestServer({ CAMPAIGN_INTERVAL_SCALE: '0.0025' });
    const seed = await a.reset();
    const b = await startTestServer({ DATABASE_URL: a.databaseUrl ?? '', CAMPAIGN_INTERVAL_SCALE: '0.0025' });
    try {
      const owner = await a.login('dono@demo.com');
      const { chip } = await connectedSimulatorChip(a, owner, { department: seed.departments.support });
      const db = a.server.services.db;
      const audience = newId();
      const phones = Array.from({ length: 80 }, (_, i) => `551198${String(i).padStart(7, '0')}`);
      await db
        .insert(audiences)
        .values({ id: audience, accountId: seed.accountId, name: 'Dupla', peopleCount: phones.length });
      await db
        .insert(audiencePeople)
        .values(phones.map((phone, position) => ({ audienceId: audience, phone, position })));
      const c = (await b.call(
        'create-campaign',
        {
          name: 'Dois servidores',
          chip: chip._id,
          audience_type: 'audience',
          audience,
          message_type: 'text',
          message: ['Oi'],
          interval: 20,
          scheduledTo: null,
        },
        owner,
      )) as Campaign;
      await until(async () => {
        const list = await a.call('get-campaigns-by-user', {}, owner);
        return list.find((x) => x._id === c._id)?.status === 'finished';
      }, 60_000);
      const rows = await db.select().from(campaignRecipients).where(eq(campaignRecipients.campaignId, c._id));
      expect(rows.filter((r) => r.status === 'sent')).toHaveLength(80);
      const stored = await db
        .select({ phone: contacts.phone })
        .from(messages)
        .innerJoin(conversations, eq(conversations.id, messages.conversationId))
        .innerJoin(contacts, eq(contacts.id, conversations.contactId))
        .where(and(inArray(contacts.phone, phones), eq(messages.origin, 'user')));
      expect(stored).toHaveLength(80);
      expect(new Set(stored.map((s) => s.phone)).size).toBe(80);
    } finally {
      await b.close({ keepDatabase: true });
      await a.close();
    }
  },
  120_000,
);
