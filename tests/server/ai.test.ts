// AI summary and AI follow-up (spec 2 §5, §8) against a fake OpenAI-compatible provider: what is sent,
// what is stored and answered, the monthly balance, one run at a time, provider failure, no configuration.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, aiUsage, messages } from '@/server/db/schema';
import { DEMO_LOGINS } from '@/server/seed/demo';
import type { Conversation } from '@/shared/contract/conversations';
import { newId } from '@/shared/ids';
import { messages as texts } from '@/shared/messages';
import { type FakeOpenAi, startFakeOpenAi } from '../fakes/openai';
import { connectedSimulatorChip } from './channel-helpers';
import { startTestServer, testServerPerFile } from './helpers';

let fake: FakeOpenAi;
const env: Record<string, string> = {};
beforeAll(async () => {
  fake = await startFakeOpenAi();
  Object.assign(env, {
    AI_BASE_URL: fake.url,
    AI_API_KEY: fake.key,
    AI_MODEL: 'modelo-teste',
    AI_TRANSCRIPTION_MODEL: 'transcricao-teste',
  });
});
afterAll(() => fake.close());
const s = testServerPerFile(env);

/** A conversation with `count` alternating customer and attendant texts, plus what `extra` adds. */
async function conversationWith(count: number) {
  const owner = await s.t.login(DEMO_LOGINS.owner);
  const { simulatorToken } = await connectedSimulatorChip(s.t, owner, {
    department: s.seed.departments.support,
  });
  await s.t.call('simulator-send', {
    token: simulatorToken,
    phone: '5581988887777',
    name: 'Joana',
    id: `m${newId()}`,
    type: 'text',
    text: 'Mensagem 0',
  });
  const list = await s.t.call('get-conversations-with-last-message', {}, owner);
  const conversation = list.conversations[0] as Conversation;
  const db = s.t.server.services.db;
  const [first] = await db.select().from(messages).where(eq(messages.conversationId, conversation._id));
  if (!first) throw new Error('no message');
  const base = first.createdAt.getTime();
  if (count > 1)
    await db.insert(messages).values(
      Array.from({ length: count - 1 }, (_, i) => ({
        id: newId(),
        accountId: s.seed.accountId,
        conversationId: conversation._id,
        chipId: first.chipId,
        origin: i % 2 ? ('customer' as const) : ('user' as const),
        type: 'text' as const,
        message: `Mensagem ${i + 1}`,
        status: 4,
        createdAt: new Date(base + (i + 1) * 1000),
      })),
    );
  return { owner, conversation, chipId: first.chipId, base };
}

const lastPrompt = () => fake.requests.filter((r) => r.path === '/chat/completions').at(-1)?.json;

describe('AI summary', () => {
  it('summarises the last 30 text and audio messages into a stored summary message', async () => {
    const { owner, conversation, chipId, base } = await conversationWith(35);
    const db = s.t.server.services.db;
    // A customer's voice note: Ogg/Opus, which the transcription must receive as what it is (not as MP3),
    // even from a file stored under a name that does not say it.
    const opus = Buffer.concat([
      Buffer.from('OggS\0\x02'),
      Buffer.alloc(22),
      Buffer.from('OpusHead'),
      Buffer.alloc(40),
    ]);
    const audio = await s.t.server.services.media.save(opus, 'bin', 'audio/ogg');
    await db.insert(messages).values([
      {
        id: newId(),
        accountId: s.seed.accountId,
        conversationId: conversation._id,
        chipId,
        origin: 'customer',
        type: 'audio',
        mediaUrl: audio.url,
        // A library title with no extension: the provider must not go by it.
        fileName: 'Recado',
        createdAt: new Date(base + 40_000),
      },
      {
        id: newId(),
        accountId: s.seed.accountId,
        conversationId: conversation._id,
        chipId,
        origin: 'customer',
        type: 'image',
        message: 'foto do pedido',
        createdAt: new Date(base + 41_000),
      },
    ]);
    fake.reply = 'Joana quer saber do pedido.';
    fake.transcript = 'quero saber do meu pedido';
    const answer = await s.t.call('summarize-messages', { conversation_id: conversation._id }, owner);
    expect(answer.balance).toBe(99);
    expect(answer.message).toMatchObject({ type: 'summary', message: 'Joana quer saber do pedido.' });

    const prompt = lastPrompt();
    expect(prompt?.model).toBe('modelo-teste');
    const lines = (prompt?.messages[1]?.content ?? '')
      .split('\n')
      .filter((l) => /^(Cliente|Atendente):/.test(l));
    expect(lines).toHaveLength(30); // 29 texts and the audio; never the image
    expect(lines[0]).toBe('Cliente: Mensagem 6');
    expect(lines.at(-1)).toBe('Cliente: [áudio] quero saber do meu pedido');
    const transcription = fake.requests
      .find((r) => r.path === '/audio/transcriptions')
      ?.raw?.toString('latin1');
    expect(transcription).toContain(`filename="${audio.name.replace(/\.bin$/, '.ogg')}"`);
    expect(transcription).toMatch(/Content-Type: audio\/ogg/i);

    const pane = await s.t.call('get-messages-by-conversation', { conversation_id: conversation._id }, owner);
    expect(pane.find((m) => m.type === 'summary')).toMatchObject({ message: 'Joana quer saber do pedido.' });
  });

  it('one at a time per conversation, even from another session; the balance is spent once', async () => {
    const { owner, conversation } = await conversationWith(3);
    const otherTab = await s.t.login(DEMO_LOGINS.owner);
    fake.delayMs = 400;
    try {
      const [a, b] = await Promise.all([
        s.t.post('summarize-messages', { conversation_id: conversation._id }, owner),
        new Promise((r) => setTimeout(r, 100)).then(() =>
          s.t.post('summarize-messages', { conversation_id: conversation._id }, otherTab),
        ),
      ]);
      expect(a.body).toMatchObject({ error: false, message: { balance: 99 } });
      expect(b.body).toEqual({ error: true, message: texts.aiSummaryRunning });
      const [c, d] = await Promise.all([
        s.t.post('create-ai-follow-up', { conversation_id: conversation._id }, owner),
        new Promise((r) => setTimeout(r, 100)).then(() =>
          s.t.post('create-ai-follow-up', { conversation_id: conversation._id }, otherTab),
        ),
      ]);
      expect(c.body).toMatchObject({ error: false, message: { balance: 99 } });
      expect(d.body).toEqual({ error: true, message: texts.aiFollowUpRunning });
    } finally {
      fake.delayMs = 0;
    }
    // Once done, the next one runs.
    const again = await s.t.call('summarize-messages', { conversation_id: conversation._id }, otherTab);
    expect(again.balance).toBe(98);
  });

  it('spends the monthly balance of the plan, refuses when none is left, and a new month starts afresh', async () => {
    const { owner, conversation } = await conversationWith(3);
    const db = s.t.server.services.db;
    await db.update(accounts).set({ maxSummaries: 2 }).where(eq(accounts.id, s.seed.accountId));
    const lastMonth = new Date();
    lastMonth.setUTCDate(1);
    lastMonth.setUTCMonth(lastMonth.getUTCMonth() - 1);
    await db
      .insert(aiUsage)
      .values({ accountId: s.seed.accountId, month: lastMonth.toISOString().slice(0, 7), summaries: 2 });

    const summarize = () => s.t.post('summarize-messages', { conversation_id: conversation._id }, owner);
    expect((await summarize()).body).toMatchObject({ error: false, message: { balance: 1 } });
    expect((await summarize()).body).toMatchObject({ error: false, message: { balance: 0 } });
    expect((await summarize()).body).toEqual({ error: true, message: texts.aiNoSummaryBalance });
    // Follow-ups have their own balance.
    expect(
      (await s.t.post('create-ai-follow-up', { conversation_id: conversation._id }, owner)).body,
    ).toMatchObject({ error: false, message: { balance: 99 } });
  });

  it('a provider failure is "Erro ao resumir mensagens" and gives the unit back', async () => {
    const { owner, conversation } = await conversationWith(3);
    fake.failWith = 500;
    try {
      const failed = await s.t.post('summarize-messages', { conversation_id: conversation._id }, owner);
      expect(failed.body).toEqual({ error: true, message: texts.aiFailed });
      const failedFollowUp = await s.t.post(
        'create-ai-follow-up',
        { conversation_id: conversation._id },
        owner,
      );
      expect(failedFollowUp.body).toEqual({ error: true, message: texts.aiFailed });
    } finally {
      fake.failWith = null;
    }
    const ok = await s.t.call('summarize-messages', { conversation_id: conversation._id }, owner);
    expect(ok.balance).toBe(99);
    const stored = await s.t.server.services.db
      .select()
      .from(messages)
      .where(eq(messages.conversationId, conversation._id));
    expect(stored.filter((m) => m.type === 'summary')).toHaveLength(1);
  });

  it('only a conversation the caller may see', async () => {
    const { conversation } = await conversationWith(3);
    const sales = await s.t.login(DEMO_LOGINS.attendant2);
    const refused = await s.t.post('summarize-messages', { conversation_id: conversation._id }, sales);
    expect(refused.body).toEqual({ error: true, message: texts.notFound });
  });
});

describe('AI follow-up', () => {
  it('answers a text from the last 15 messages; nothing is stored', async () => {
    const { owner, conversation } = await conversationWith(20);
    fake.reply = 'Olá, Joana! Conseguiu ver o orçamento?';
    const answer = await s.t.call(
      'create-ai-follow-up',
      { conversation_id: conversation._id, text: 'mencione o orçamento' },
      owner,
    );
    expect(answer).toEqual({ follow_up: 'Olá, Joana! Conseguiu ver o orçamento?', balance: 99 });
    const content = lastPrompt()?.messages[1]?.content ?? '';
    const lines = content.split('\n').filter((l) => /^(Cliente|Atendente):/.test(l));
    expect(lines).toHaveLength(15);
    expect(lines[0]).toBe('Atendente: Mensagem 5');
    expect(content).toContain('Instrução do atendente: mencione o orçamento');
    const pane = await s.t.call('get-messages-by-conversation', { conversation_id: conversation._id }, owner);
    expect(pane.some((m) => m.type === 'summary')).toBe(false);
  });
});

describe('without AI configuration', () => {
  it('both actions answer that AI is not configured', { timeout: 90_000 }, async () => {
    const plain = await startTestServer();
    try {
      await plain.reset();
      const owner = await plain.login(DEMO_LOGINS.owner);
      for (const call of ['summarize-messages', 'create-ai-follow-up']) {
        const res = await plain.post(call, { conversation_id: newId() }, owner);
        expect(res.body).toEqual({ error: true, message: texts.aiNotConfigured });
      }
    } finally {
      await plain.close();
    }
  });
});
