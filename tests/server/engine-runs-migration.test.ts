// Issue 36 item 4: the engines' state moved from the conversations row to flow_runs, chatbot_runs and
// follow_up_runs (migration 0030). An upgrade carries live positions over: a conversation in the middle of a
// flow continues after it, and a chatbot's and a follow-up's positions, claims and due times keep their values.
// The test makes a database of the shape before 0030 from a live one (the columns back, filled from the run
// tables, which go, and 0030 unrecorded), then starts the server, which migrates it.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { openDatabase } from '@/server/db';
import { connectedSimulatorChip } from './channel-helpers';
import { botMessages, insertFlow, openConversationOf, setChipFlow, waitBot } from './flow-helpers';
import { startTestServer, type TestServer } from './helpers';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

let seq = 0;
const localId = () => `m${Date.now().toString(36)}${(seq++).toString(36)}xxxx`;
const say = (t: TestServer, token: string, phone: string, text: string) =>
  t.call('simulator-send', { token, phone, name: 'Rita', id: localId(), type: 'text', text });

/** When drizzle recorded a migration as applied (its journal's 'when'). */
function whenOf(tag: string): number {
  const journal = JSON.parse(
    readFileSync(new URL('../../src/server/db/migrations/meta/_journal.json', import.meta.url), 'utf8'),
  ) as { entries: { tag: string; when: number }[] };
  const entry = journal.entries.find((e) => e.tag === tag);
  if (!entry) throw new Error(`migration ${tag} is not in the journal`);
  return entry.when;
}

/** Back to the shape before migration 0030, with the positions where 0029 kept them. */
const BEFORE_0030 = [
  `ALTER TABLE conversations ADD COLUMN last_flow_context jsonb, ADD COLUMN flow_lease_until timestamptz,
     ADD COLUMN chatbot_context jsonb, ADD COLUMN chatbot_lease_until timestamptz,
     ADD COLUMN follow_up_step integer NOT NULL DEFAULT 0, ADD COLUMN follow_up_last_at timestamptz,
     ADD COLUMN follow_up_due_at timestamptz, ADD COLUMN follow_up_lease_until timestamptz`,
  `UPDATE conversations c SET last_flow_context = r.position, flow_lease_until = r.lease_until
     FROM flow_runs r WHERE r.conversation_id = c.id`,
  `UPDATE conversations c SET chatbot_context = r.position, chatbot_lease_until = r.lease_until
     FROM chatbot_runs r WHERE r.conversation_id = c.id`,
  `UPDATE conversations c SET follow_up_step = (r.position->>'step')::int,
     follow_up_last_at = (r.position->>'last_at')::timestamptz, follow_up_due_at = r.wake_at,
     follow_up_lease_until = r.lease_until
     FROM follow_up_runs r WHERE r.conversation_id = c.id`,
  'DROP TABLE flow_runs',
  'DROP TABLE chatbot_runs',
  'DROP TABLE follow_up_runs',
  'DROP INDEX conversations_follow_up_idx',
  `CREATE INDEX conversations_follow_up_idx ON conversations (follow_up_due_at)
     WHERE follow_up_anchor IS NOT NULL AND finished_at IS NULL`,
  // The migrations after 0030 undone too, so that the server applies 0030 and each of them again.
  `ALTER TABLE audiences DROP CONSTRAINT audiences_people_from_audiences_id_fk,
     DROP COLUMN people_from, DROP COLUMN import_for`,
  `DELETE FROM drizzle.__drizzle_migrations WHERE created_at >= ${whenOf('0030_engine_runs')}`,
];

it('an upgrade carries the engines’ live positions over: a flow waiting for a reply continues, a chatbot’s and a follow-up’s state keep their values', {
  timeout: 240_000,
}, async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'painel-engine-runs-'));
  dirs.push(dir);
  const first = await startTestServer({}, dir);
  const seed = await first.reset();
  const owner = await first.login('dono@demo.com');
  const { chip, simulatorToken } = await connectedSimulatorChip(first, owner, {
    department: seed.departments.support,
  });
  const flowId = await insertFlow(
    first.server.services,
    seed.accountId,
    [
      { id: 'start', type: 'start' },
      { id: 'ask', type: 'question', data: { text: 'Seu nome?', variable: 'nome' } },
      { id: 'thanks', type: 'message', data: { kind: 'text', text: 'Prazer, {nome}!' } },
    ],
    [
      ['start', 'ask'],
      ['ask', 'thanks'],
    ],
  );
  await setChipFlow(first.server.services, chip._id, flowId);
  const phone = '5511955550030';
  await say(first, simulatorToken, phone, 'Oi');
  const conversation = await openConversationOf(first.server.services, phone);
  await waitBot(first.server.services, conversation.id, 1);
  const databaseUrl = first.databaseUrl;
  await first.close({ keepDatabase: true });

  // The database as 0029 left it: the flow waits for the reply in last_flow_context; this conversation also
  // had a chatbot's retry waiting and its second follow-up sent.
  const old = await openDatabase(databaseUrl ? { databaseUrl, dataDir: dir } : { dataDir: dir });
  for (const statement of BEFORE_0030) await old.executeSql(statement);
  const chatbotContext = {
    chatbot: 'chatbot-antes-0030',
    input_after: { at: '2026-11-30T12:00:00.123Z', id: 'msg-antes-0030' },
    attempts: 2,
    retry_at: '2030-01-01T00:00:00.000Z',
  };
  await old.executeSql(
    `UPDATE conversations SET chatbot_context = $1::jsonb, follow_up_step = 2,
       follow_up_last_at = '2026-11-30T12:05:00.456Z', follow_up_due_at = '2030-01-02T00:00:00.000Z'
     WHERE id = $2`,
    [JSON.stringify(chatbotContext), conversation.id],
  );
  const before = (
    await old.executeSql(
      `SELECT last_flow_context AS flow, follow_up_anchor AS anchor FROM conversations WHERE id = $1`,
      [conversation.id],
    )
  ).rows[0] as { flow: { node: string; waiting: string }; anchor: Date | string };
  expect(before.flow).toMatchObject({ node: 'ask', waiting: 'reply' });
  await old.close();

  const second = await startTestServer(databaseUrl ? { DATABASE_URL: databaseUrl } : {}, dir);
  try {
    const row = async (table: 'flow_runs' | 'chatbot_runs' | 'follow_up_runs') =>
      (
        (await second.server.services.db.execute(
          sql`select position, wake_at from ${sql.identifier(table)} where conversation_id = ${conversation.id}`,
        )) as unknown as { rows: { position: Record<string, unknown>; wake_at: string | Date | null }[] }
      ).rows[0];
    const flow = await row('flow_runs');
    expect(flow?.position).toEqual(before.flow);
    const chatbot = await row('chatbot_runs');
    expect(chatbot?.position).toEqual(chatbotContext);
    expect(new Date(chatbot?.wake_at ?? 0).toISOString()).toBe(chatbotContext.retry_at);
    const followUp = await row('follow_up_runs');
    expect(followUp?.position).toEqual({
      anchor: new Date(before.anchor).toISOString(),
      step: 2,
      last_at: '2026-11-30T12:05:00.456Z',
    });
    expect(new Date(followUp?.wake_at ?? 0).toISOString()).toBe('2030-01-02T00:00:00.000Z');

    // The customer answers after the upgrade: the flow goes on from its question, once.
    await say(second, simulatorToken, phone, 'Rita');
    const rows = await waitBot(second.server.services, conversation.id, 2, 60_000);
    expect(rows.map((r) => r.message)).toEqual(['Seu nome?', 'Prazer, Rita!']);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await botMessages(second.server.services, conversation.id)).toHaveLength(2);
  } finally {
    await second.close();
  }
});
