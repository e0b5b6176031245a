// The flow engine's position lives in the database: a wait node is a durable job that a restarted server
// runs (the message arrives once, after the wait), and two servers on one PostgreSQL never send a step twice.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runConversation } from '@/server/domains/flows/engine';
import { connectedSimulatorChip, until } from './channel-helpers';
import { botMessages, flowRun, insertFlow, openConversationOf, setChipFlow, waitBot } from './flow-helpers';
import { startTestServer, type TestServer } from './helpers';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function newDir() {
  const dir = await mkdtemp(path.join(tmpdir(), 'painel-flows-'));
  dirs.push(dir);
  return dir;
}

let seq = 0;
const localId = () => `r${Date.now().toString(36)}${(seq++).toString(36)}xxxx`;
const say = (t: TestServer, token: string, phone: string, text: string) =>
  t.call('simulator-send', { token, phone, name: 'Rita', id: localId(), type: 'text', text });

it('a wait node survives a restart: the message after it arrives once, after the wait', {
  timeout: 300_000,
}, async () => {
  const dir = await newDir();
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
      { id: 'before', type: 'message', data: { kind: 'text', text: 'Volto em um minuto.' } },
      { id: 'pause', type: 'wait', data: { amount: 1, unit: 'minutes' } },
      { id: 'after', type: 'message', data: { kind: 'text', text: 'Voltei!' } },
    ],
    [
      ['start', 'before'],
      ['before', 'pause'],
      ['pause', 'after'],
    ],
  );
  await setChipFlow(first.server.services, chip._id, flowId);
  const phone = '5511955554444';
  await say(first, simulatorToken, phone, 'Oi');
  const conversation = await openConversationOf(first.server.services, phone);
  await waitBot(first.server.services, conversation.id, 1);
  const waiting = await until(async () => {
    const { position } = await flowRun(first.server.services, conversation.id);
    return position?.waiting === 'time' ? position : undefined;
  });
  const until_ = new Date(waiting.until ?? '').getTime();
  const databaseUrl = first.databaseUrl;
  await first.close({ keepDatabase: true });

  const second = await startTestServer(databaseUrl ? { DATABASE_URL: databaseUrl } : {}, dir);
  try {
    // The wait's minute, plus the restarted server's start beside the rest of CI on 2 cores.
    const rows = await waitBot(second.server.services, conversation.id, 2, 150_000);
    expect(rows.map((r) => r.message)).toEqual(['Volto em um minuto.', 'Voltei!']);
    expect(rows[1]?.createdAt.getTime()).toBeGreaterThanOrEqual(until_ - 1000);
    // Nothing more comes (a second wake, the sweep).
    await runConversation(second.server.services, conversation.id);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await botMessages(second.server.services, conversation.id)).toHaveLength(2);
  } finally {
    await second.close();
  }
});

it.skipIf(!process.env.DATABASE_URL)(
  'two servers on one PostgreSQL never send a step twice',
  { timeout: 180_000 },
  async () => {
    const a = await startTestServer({}, await newDir());
    const b = await startTestServer({ DATABASE_URL: a.databaseUrl ?? '' }, await newDir());
    try {
      const seed = await a.reset();
      const owner = await a.login('dono@demo.com');
      const { chip, simulatorToken } = await connectedSimulatorChip(a, owner, {
        department: seed.departments.support,
      });
      const flowId = await insertFlow(
        a.server.services,
        seed.accountId,
        [
          { id: 'start', type: 'start' },
          { id: 'm1', type: 'message', data: { kind: 'text', text: 'Um' } },
          { id: 'm2', type: 'message', data: { kind: 'text', text: 'Dois' } },
          { id: 'q', type: 'question', data: { text: 'Nome?', variable: 'n' } },
          { id: 'm3', type: 'message', data: { kind: 'text', text: 'Fim, {n}' } },
        ],
        [
          ['start', 'm1'],
          ['m1', 'm2'],
          ['m2', 'q'],
          ['q', 'm3'],
        ],
      );
      await setChipFlow(a.server.services, chip._id, flowId);
      const phones = Array.from({ length: 20 }, (_, i) => `55119600000${String(i).padStart(2, '0')}`);
      await Promise.all(phones.map((p, i) => say(i % 2 ? b : a, simulatorToken, p, 'Oi')));
      const ids = await Promise.all(
        phones.map((p) => openConversationOf(a.server.services, p).then((c) => c.id)),
      );
      // Both servers also run every conversation at once, over and over, while the jobs run too.
      const hammer = Promise.all(
        ids.flatMap((id) => [
          runConversation(a.server.services, id),
          runConversation(b.server.services, id),
          runConversation(a.server.services, id),
        ]),
      );
      await Promise.all(ids.map((id) => waitBot(a.server.services, id, 3, 30_000)));
      await hammer;
      await Promise.all(phones.map((p, i) => say(i % 2 ? a : b, simulatorToken, p, `Cliente ${i}`)));
      await Promise.all(
        ids.flatMap((id) => [runConversation(a.server.services, id), runConversation(b.server.services, id)]),
      );
      for (const [i, id] of ids.entries()) {
        const rows = await waitBot(a.server.services, id, 4, 30_000);
        expect(rows.map((r) => r.message)).toEqual(['Um', 'Dois', 'Nome?', `Fim, Cliente ${i}`]);
      }
      await new Promise((r) => setTimeout(r, 1500));
      for (const id of ids) expect(await botMessages(a.server.services, id)).toHaveLength(4);
    } finally {
      await b.close({ keepDatabase: true });
      await a.close();
    }
  },
);
