// Follow-ups across restarts: the state lives in the database (the anchor on the conversation, the engine's
// follow_up_runs row) and the send dedupes on a message_id made of (conversation, anchor, step), so a process that died after sending and before recording the step never
// makes a restarted one send it twice, and a follow-up that fell due while no server ran goes out once at start.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { systemActor } from '@/server/access';
import { conversations, followUpRuns, messages } from '@/server/db/schema';
import {
  followUpSender,
  sendConversationMessage,
} from '@/server/domains/conversations/conversations.service';
import { followUpMessageId, runDueFollowUps } from '@/server/jobs/follow-ups';
import { defaultFollowUpSetting } from '@/shared/rules/follow-up';
import { connectedSimulatorChip, until } from './channel-helpers';
import { openConversationOf } from './flow-helpers';
import { startTestServer, type TestServer } from './helpers';
import { exited, remote, startProcess } from './process-helpers';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});
async function newDir() {
  const dir = await mkdtemp(path.join(tmpdir(), 'painel-follow-ups-'));
  dirs.push(dir);
  return dir;
}

let seq = 0;
const localId = () => `r${Date.now().toString(36)}${(seq++).toString(36)}xxxx`;

/** A conversation on a human chip with follow-ups on (message 1 after 2 "minutes"), answered by the owner. */
async function answered(t: TestServer, phone: string) {
  const seed = await t.reset();
  const owner = await t.login('dono@demo.com');
  const { chip, simulatorToken } = await connectedSimulatorChip(t, owner, {
    department: seed.departments.support,
    redirect: 'human',
  });
  const d = defaultFollowUpSetting();
  await t.call(
    'update-follow-up',
    {
      chip: chip._id,
      ...d,
      enabled: true,
      types: ['human'],
      start_time: 0,
      end_time: 0,
      message_1: { enabled: true, text: 'Ainda por aí?', time: 2, unit: 'minutes' },
    },
    owner,
  );
  await t.call('simulator-send', {
    token: simulatorToken,
    phone,
    name: 'Rita',
    id: localId(),
    type: 'text',
    text: 'Oi',
  });
  const conversation = await openConversationOf(t.server.services, phone);
  await t.call(
    'send-conversation-message',
    { conversation_id: conversation.id, message_id: localId(), text: 'Olá! Como posso ajudar?' },
    owner,
  );
  const [row] = await t.server.services.db
    .select()
    .from(conversations)
    .where(eq(conversations.id, conversation.id));
  return { conversationId: conversation.id, anchor: row?.followUpAnchor as Date };
}

const sentFollowUps = (t: TestServer, conversationId: string) =>
  t.server.services.db
    .select()
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), eq(messages.origin, 'chatbot')));

it('a process that died after sending, before recording the step: the restarted one sends nothing twice', {
  timeout: 120_000,
}, async () => {
  const dir = await newDir();
  const first = await startTestServer({}, dir);
  const { conversationId, anchor } = await answered(first, '5511955551001');
  const due = new Date(anchor.getTime() + 2 * 60_000);
  const { services } = first.server;
  const [owning] = await services.db.select().from(conversations).where(eq(conversations.id, conversationId));
  // What the engine does up to the crash: the claim, then the send; the step is never recorded. The claim is
  // on the database's clock (the engine skeleton's), which the test cannot move: one of 15 s, not 90.
  await services.db
    .insert(followUpRuns)
    .values({
      conversationId,
      accountId: owning?.accountId ?? '',
      position: { anchor: anchor.toISOString(), step: 0, last_at: null },
      leaseUntil: sql`now() + interval '15 seconds'`,
    })
    .onConflictDoUpdate({
      target: followUpRuns.conversationId,
      set: { leaseUntil: sql`now() + interval '15 seconds'` },
    });
  await sendConversationMessage(
    { services, actor: systemActor(owning?.accountId ?? '', 'follow-up') },
    followUpSender,
    {
      conversation_id: conversationId,
      message_id: followUpMessageId(conversationId, anchor, 1),
      text: 'Ainda por aí?',
    },
  );
  const databaseUrl = first.databaseUrl;
  await first.close({ keepDatabase: true });

  const second = await startTestServer(databaseUrl ? { DATABASE_URL: databaseUrl } : {}, dir);
  try {
    // The dead process's claim holds until it runs out; then the step is taken again, found sent, recorded.
    const { db } = second.server.services;
    expect(await runDueFollowUps(second.server.services, new Date(due.getTime() + 30_000))).toBe(0);
    await until(async () => {
      const [out] = await db
        .select({ id: followUpRuns.conversationId })
        .from(followUpRuns)
        .where(and(eq(followUpRuns.conversationId, conversationId), sql`${followUpRuns.leaseUntil} < now()`));
      return out;
    }, 30_000);
    await runDueFollowUps(second.server.services, new Date(due.getTime() + 91_000));
    const [row] = await db.select().from(followUpRuns).where(eq(followUpRuns.conversationId, conversationId));
    expect(row?.position?.step).toBe(1);
    expect(row?.leaseUntil).toBeNull();
    expect((await sentFollowUps(second, conversationId)).map((m) => m.message)).toEqual(['Ainda por aí?']);
    expect(await runDueFollowUps(second.server.services, new Date(due.getTime() + 10 * 3600_000))).toBe(0);
    expect(await sentFollowUps(second, conversationId)).toHaveLength(1);
  } finally {
    await second.close();
  }
});

it('a follow-up due while no server ran goes out once, by the jobs of the restarted server', {
  timeout: 120_000,
}, async () => {
  const dir = await newDir();
  // A follow-up "minute" of 1 s: message 1 is due 2 s after the owner's answer.
  const env = { FOLLOW_UP_MINUTE_SECONDS: '1' };
  const first = await startTestServer(env, dir);
  const { conversationId, anchor } = await answered(first, '5511955551002');
  const databaseUrl = first.databaseUrl;
  await first.close({ keepDatabase: true });
  expect(Date.now()).toBeLessThan(anchor.getTime() + 2000);
  await new Promise((r) => setTimeout(r, Math.max(0, anchor.getTime() + 2500 - Date.now())));

  const second = await startTestServer({ ...env, ...(databaseUrl && { DATABASE_URL: databaseUrl }) }, dir);
  try {
    const sent = await until(async () => {
      const rows = await sentFollowUps(second, conversationId);
      return rows.length ? rows : undefined;
    }, 30_000);
    expect(sent.map((m) => m.message)).toEqual(['Ainda por aí?']);
    expect(sent[0]?.createdAt.getTime()).toBeGreaterThanOrEqual(anchor.getTime() + 2000);
    // The sweep, the wake-ups and a run by hand: still one.
    await runDueFollowUps(second.server.services);
    await new Promise((r) => setTimeout(r, 2500));
    expect(await sentFollowUps(second, conversationId)).toHaveLength(1);
  } finally {
    await second.close();
  }
});

it('the real server process killed (SIGKILL) while it sends follow-ups: each conversation gets each one once', {
  timeout: 300_000,
}, async () => {
  const dir = await newDir();
  // A follow-up "minute" of 1.5 s: three messages, 1 "minute" apart, over about 5 s of sending.
  const env = { DATA_DIR: dir, SEED_DEMO: 'true', FOLLOW_UP_MINUTE_SECONDS: '1.5' };
  let server = await startProcess(env);
  let t = remote(server.url);
  const owner = await t.login('dono@demo.com');
  const [department] = (await t.call('get-departments-by-user', {}, owner)) as { _id: string }[];
  const { chip, simulatorToken } = await connectedSimulatorChip(t, owner, {
    department: department?._id ?? '',
    redirect: 'human',
  });
  const message = (text: string) => ({ enabled: true, text, time: 1, unit: 'minutes' as const });
  await t.call(
    'update-follow-up',
    {
      chip: chip._id,
      enabled: true,
      types: ['human'],
      start_time: 0,
      end_time: 0,
      message_1: message('Um'),
      message_2: message('Dois'),
      message_3: message('Três'),
    },
    owner,
  );
  const phones = Array.from({ length: 12 }, (_, i) => `55119577700${String(i).padStart(2, '0')}`);
  for (const phone of phones)
    await t.call('simulator-send', {
      token: simulatorToken,
      phone,
      name: 'Rita',
      id: localId(),
      type: 'text',
      text: 'Oi',
    });
  const ids = await until(async () => {
    const { conversations: list } = (await t.call(
      'get-conversations-with-last-message',
      { limit: 100 },
      owner,
    )) as {
      conversations: { _id: string; contact: { phone: string } }[];
    };
    const mine = list.filter((c) => phones.includes(c.contact.phone));
    return mine.length === phones.length ? mine.map((c) => c._id) : undefined;
  }, 30_000);
  for (const id of ids)
    await t.call(
      'send-conversation-message',
      { conversation_id: id, message_id: localId(), text: 'Olá!' },
      owner,
    );

  const followUpsOf = async (id: string) =>
    (
      (await t.call('get-messages-by-conversation', { conversation_id: id }, owner)) as {
        origin: string;
        message: string;
      }[]
    )
      .filter((m) => m.origin === 'chatbot')
      .map((m) => m.message);
  const sentSoFar = async () => (await Promise.all(ids.map(followUpsOf))).reduce((n, m) => n + m.length, 0);
  const total = ids.length * 3;
  // Killed twice, at a third and at two thirds of the follow-ups, and restarted each time.
  for (const target of [Math.floor(total / 3), Math.floor((2 * total) / 3)]) {
    await until(async () => (await sentSoFar()) >= target, 60_000);
    server.proc.kill('SIGKILL');
    await exited(server.proc);
    server = await startProcess(env);
    t = remote(server.url);
  }
  await until(async () => (await sentSoFar()) >= total, 120_000);
  // The sweep and the wake-ups go on: still three each, in order.
  await new Promise((r) => setTimeout(r, 4000));
  for (const id of ids) expect(await followUpsOf(id)).toEqual(['Um', 'Dois', 'Três']);
  server.proc.kill('SIGTERM');
  await exited(server.proc);
});
