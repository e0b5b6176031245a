// The AI chatbot engine's state lives in the database: an answer queued before a restart is sent once by the
// restarted server, and the 48 h inactivity finish is a durable job that a restarted server runs (on a
// clock moved 49 h ahead), with the finish message sent once. Without a provider, a person serves at once.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { answerConversation } from '@/server/domains/chatbots/engine';
import { messages as texts } from '@/shared/messages';
import { type FakeOpenAi, startFakeOpenAi } from '../fakes/openai';
import { connectedSimulatorChip, until } from './channel-helpers';
import { chatbotReplies, systemNotes, validDraft, waitReplies } from './chatbot-helpers';
import { conversationRow, openConversationOf } from './flow-helpers';
import { startTestServer, type TestServer } from './helpers';

let fake: FakeOpenAi;
let ai: Record<string, string>;
beforeAll(async () => {
  fake = await startFakeOpenAi();
  fake.reply = 'Olá, Rita! Em que posso ajudar?';
  ai = {
    AI_BASE_URL: fake.url,
    AI_API_KEY: fake.key,
    AI_MODEL: 'modelo-teste',
    CHATBOT_TYPING_SECONDS: '0',
  };
});
const dirs: string[] = [];
afterAll(async () => {
  await fake.close();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function newDir() {
  const dir = await mkdtemp(path.join(tmpdir(), 'painel-chatbots-'));
  dirs.push(dir);
  return dir;
}

let seq = 0;
const localId = () => `b${Date.now().toString(36)}${(seq++).toString(36)}xxxx`;
const say = (t: TestServer, token: string, phone: string, text: string) =>
  t.call('simulator-send', { token, phone, name: 'Rita Souza', id: localId(), type: 'text', text });

async function servedChip(t: TestServer, over: Parameters<typeof validDraft>[0]) {
  const seed = await t.reset();
  const owner = await t.login('dono@demo.com');
  const chatbot = await t.call('create-or-update-chatbot', validDraft(over), owner);
  const { chip, simulatorToken } = await connectedSimulatorChip(t, owner, {
    department: seed.departments.support,
  });
  await t.call(
    'create-or-update-chip',
    {
      _id: chip._id,
      name: chip.name,
      redirect: 'ai_chatbot',
      chatbot: chatbot._id,
      department: seed.departments.support,
    },
    owner,
  );
  return { token: simulatorToken, chatbot };
}

it('an answer queued before a restart is sent once, by the restarted server', {
  timeout: 120_000,
}, async () => {
  const dir = await newDir();
  const first = await startTestServer(ai, dir);
  const { token } = await servedChip(first, { response_delay: 4 });
  const phone = '5511955550001';
  await say(first, token, phone, 'Oi, tudo bem?');
  const conversation = await openConversationOf(first.server.services, phone);
  const databaseUrl = first.databaseUrl;
  await first.close({ keepDatabase: true });

  const second = await startTestServer({ ...ai, ...(databaseUrl && { DATABASE_URL: databaseUrl }) }, dir);
  try {
    const [reply] = await waitReplies(second.server.services, conversation.id, 1, 30_000);
    expect(reply?.message).toBe('Olá, Rita! Em que posso ajudar?');
    await answerConversation(second.server.services, conversation.id);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await chatbotReplies(second.server.services, conversation.id)).toHaveLength(1);
  } finally {
    await second.close();
  }
});

it('48 h without messages: a restarted server finishes the conversation with the finish message, once', {
  timeout: 120_000,
}, async () => {
  const dir = await newDir();
  const first = await startTestServer(ai, dir);
  const { token } = await servedChip(first, {
    response_delay: 0,
    finish_conversation_message: 'Até logo, {nome:first}!',
  });
  const phone = '5511955550002';
  await say(first, token, phone, 'Oi');
  const conversation = await openConversationOf(first.server.services, phone);
  await waitReplies(first.server.services, conversation.id, 1);
  const databaseUrl = first.databaseUrl;
  await first.close({ keepDatabase: true });

  const second = await startTestServer({ ...ai, ...(databaseUrl && { DATABASE_URL: databaseUrl }) }, dir);
  const services = second.server.services;
  try {
    // 47 h later: still open.
    services.clock = { now: () => new Date(Date.now() + 47 * 3600_000) };
    await services.jobs.send('chatbot-sweep', {});
    await new Promise((r) => setTimeout(r, 1500));
    expect((await conversationRow(services, conversation.id)).finishedAt).toBeNull();
    // 49 h later: the sweep's job finishes it.
    services.clock = { now: () => new Date(Date.now() + 49 * 3600_000) };
    await services.jobs.send('chatbot-sweep', {});
    await until(async () => (await conversationRow(services, conversation.id)).finishedAt, 15_000);
    const replies = await chatbotReplies(services, conversation.id);
    expect(replies.map((r) => r.message)).toEqual(['Olá, Rita! Em que posso ajudar?', 'Até logo, Rita!']);
    expect(await systemNotes(services, conversation.id)).toEqual([texts.chatbotFinishedInactive]);
    // Another sweep: nothing more.
    await services.jobs.send('chatbot-sweep', {});
    await new Promise((r) => setTimeout(r, 1500));
    expect(await chatbotReplies(services, conversation.id)).toHaveLength(2);
  } finally {
    services.clock = undefined;
    await second.close();
  }
});

it('no AI provider configured: a person serves at once, with a system note', {
  timeout: 60_000,
}, async () => {
  const t = await startTestServer({ CHATBOT_TYPING_SECONDS: '0' });
  try {
    const { token } = await servedChip(t, { response_delay: 0 });
    const phone = '5511955550003';
    await say(t, token, phone, 'Oi');
    const conversation = await openConversationOf(t.server.services, phone);
    await until(async () => (await conversationRow(t.server.services, conversation.id)).isManual);
    expect(await systemNotes(t.server.services, conversation.id)).toEqual([texts.chatbotNotConfigured]);
    const owner = await t.login('dono@demo.com');
    const r = await t.post(
      'test-chatbot',
      { draft: validDraft(), lines: [{ from: 'customer', text: 'Oi' }] },
      owner,
    );
    expect(r.body).toMatchObject({ error: true, message: texts.chatbotNotConfigured });
  } finally {
    await t.close();
  }
});
