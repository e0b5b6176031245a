// AI chatbots on the server (spec 3 §2.7, §3 Chatbot, §5 Chatbot): the calls and their rules with the spec's
// texts, creation from a model, the account boundary and the access area, and the places that name a
// chatbot: chips, transfers, flows' redirect nodes, the history.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { conversations, users } from '@/server/db/schema';
import { createAccount } from '@/server/domains/accounts/accounts.service';
import { hashPassword } from '@/server/domains/auth/passwords';
import { DEMO_PASSWORD } from '@/server/seed/demo';
import { ACCESS_AREAS } from '@/shared/constants';
import { messages as texts } from '@/shared/messages';
import { newChatbotDraft } from '@/shared/rules/chatbot';
import { CHATBOT_MODELS } from '@/shared/rules/chatbot-models';
import { connectedSimulatorChip, until } from './channel-helpers';
import { chatbotPosition, validDraft } from './chatbot-helpers';
import { testServerPerFile } from './helpers';

const s = testServerPerFile();
const db = () => s.t.server.services.db;

const refusal = async (call: string, body: unknown, token: string) => {
  const r = await s.t.post(call, body, token);
  expect(r.body.error, `${call} ${JSON.stringify(body).slice(0, 200)}`).toBe(true);
  return r.body as { error: true; message: string; field?: string };
};

async function accountB() {
  await createAccount(db(), {
    account: { name: 'Conta B', maxChannels: 5, maxUsers: 10, maxFlows: 10 },
    owner: {
      name: 'Dono B',
      email: 'dono@b.test',
      passwordHash: await hashPassword(DEMO_PASSWORD),
      accessAreas: [...ACCESS_AREAS],
    },
  });
  const owner = await s.t.login('dono@b.test');
  const bot = await s.t.call('create-or-update-chatbot', validDraft({ name: 'Robô de B' }), owner);
  const flow = await s.t.call('create-or-update-flow', { name: 'Fluxo de B' }, owner);
  return { owner, bot, flow };
}

describe('chatbot calls', () => {
  it('create, list, open, change a part, delete', async () => {
    const owner = await s.t.login('dono@demo.com');
    const made = await s.t.call('create-or-update-chatbot', validDraft(), owner);
    expect(made).toMatchObject({
      name: 'Atendente virtual',
      temperature: 0.3,
      response_delay: 2,
      model: null,
    });
    expect(await s.t.call('get-chatbot', { _id: made._id }, owner)).toEqual(made);
    const list = await s.t.call('get-chatbots-by-user', {}, owner);
    expect(list).toEqual([
      expect.objectContaining({ _id: made._id, name: 'Atendente virtual', persona_name: 'Ana' }),
    ]);
    const changed = await s.t.call(
      'create-or-update-chatbot',
      { _id: made._id, temperature: 0.7, finish_conversation_message: 'Até logo!' },
      owner,
    );
    expect(changed).toMatchObject({
      _id: made._id,
      temperature: 0.7,
      finish_conversation_message: 'Até logo!',
      name: 'Atendente virtual',
    });
    await s.t.call('create-or-update-chatbot', { _id: made._id, filed: true }, owner);
    expect(await s.t.call('get-chatbots-by-user', {}, owner)).toEqual([]);
    expect((await refusal('get-chatbot', { _id: made._id }, owner)).message).toBe(texts.chatbotNotFound);
    expect((await refusal('create-or-update-chatbot', { _id: made._id, name: 'X' }, owner)).message).toBe(
      texts.chatbotNotFound,
    );
  });

  it('refuses each broken draft with the first field error, exactly', async () => {
    const owner = await s.t.login('dono@demo.com');
    const cases: [Parameters<typeof validDraft>[0], string, string][] = [
      [{ name: ' ' }, 'name', texts.chatbotNameRequired],
      [{ instructionsObject: { persona_name: '' } }, 'persona_name', texts.chatbotPersonaNameRequired],
      [{ instructionsObject: { persona_gender: '' } }, 'persona_gender', texts.chatbotPersonaGenderRequired],
      [{ instructionsObject: { persona_mission: ' ' } }, 'persona_mission', texts.chatbotMissionRequired],
      [
        { instructionsObject: { personality_types: [] } },
        'personality_types',
        texts.chatbotPersonalityRequired,
      ],
      [
        {
          instructionsObject: {
            personality_types: ['Amigável', 'Formal', 'Vendedor', 'Tranquilo'],
          },
        },
        'personality_types',
        texts.chatbotPersonalityMax,
      ],
      [{ instructionsObject: { fallback: '' } }, 'fallback', texts.chatbotFallbackRequired],
      [{ instructionsObject: { context: '' } }, 'context', texts.chatbotContextRequired],
      [{ redirect: 'flow_chatbot', flow: null }, 'flow', texts.chatbotFlowRequired],
    ];
    for (const [over, field, message] of cases) {
      expect(await refusal('create-or-update-chatbot', validDraft(over), owner), message).toMatchObject({
        field,
        message,
      });
    }
    // Several problems: the first in the form's order.
    const both = validDraft({ name: '', instructionsObject: { persona_name: '' } });
    expect((await refusal('create-or-update-chatbot', both, owner)).message).toBe(texts.chatbotNameRequired);
    // A 2 MB context: a clear error, nothing stored.
    const huge = validDraft({ instructionsObject: { context: 'x'.repeat(2_000_000) } });
    const r = await s.t.post('create-or-update-chatbot', huge, owner);
    expect(r.body.error).toBe(true);
    expect(await s.t.call('get-chatbots-by-user', {}, owner)).toEqual([]);
  });

  it('a flow redirect names a live flow of the account', async () => {
    const owner = await s.t.login('dono@demo.com');
    const b = await accountB();
    expect(
      await refusal(
        'create-or-update-chatbot',
        validDraft({ redirect: 'flow_chatbot', flow: b.flow._id }),
        owner,
      ),
    ).toMatchObject({ field: 'flow', message: texts.flowNotFound });
    const [flow] = await s.t.call('get-flows-by-user', {}, owner);
    if (!flow) throw new Error('no demo flow');
    const made = await s.t.call(
      'create-or-update-chatbot',
      validDraft({ redirect: 'flow_chatbot', flow: flow._id }),
      owner,
    );
    expect(made).toMatchObject({ redirect: 'flow_chatbot', flow: flow._id });
    // Back to human: the flow is forgotten.
    expect(
      await s.t.call('create-or-update-chatbot', { _id: made._id, redirect: 'human' }, owner),
    ).toMatchObject({
      redirect: 'human',
      flow: null,
    });
    // Another account's chatbot is not found here.
    expect((await refusal('get-chatbot', { _id: b.bot._id }, owner)).message).toBe(texts.chatbotNotFound);
    expect((await refusal('create-or-update-chatbot', { _id: b.bot._id, filed: true }, owner)).message).toBe(
      texts.chatbotNotFound,
    );
  });

  it('from a model: the model fills the draft; a required field left empty is refused by its description', async () => {
    const owner = await s.t.login('dono@demo.com');
    expect(await s.t.call('get-chatbot-models', {}, owner)).toEqual(CHATBOT_MODELS);
    const model = CHATBOT_MODELS[0];
    if (!model) throw new Error('no model');
    const required = model.content.filter((i) => i.required && i.type !== 'text');
    const values = Object.fromEntries(required.map((i) => [i.name, `valor de ${i.description}`]));
    const first = required[0];
    if (!first) throw new Error('no required item');
    expect(
      await refusal(
        'create-or-update-chatbot',
        { from_model: { model: model._id, values: { ...values, [first.name]: ' ' } } },
        owner,
      ),
    ).toMatchObject({ field: first.name, message: texts.chatbotModelFieldRequired(first.description) });
    expect(
      (await refusal('create-or-update-chatbot', { from_model: { model: 'nenhum', values } }, owner)).message,
    ).toBe(texts.chatbotModelNotFound);
    // The persona is the user's part: without it the shared rules refuse.
    expect(
      (await refusal('create-or-update-chatbot', { from_model: { model: model._id, values } }, owner))
        .message,
    ).toBe(texts.chatbotPersonaNameRequired);
    const persona = { persona_name: 'Bia', persona_gender: 'feminina' as const };
    const made = await s.t.call(
      'create-or-update-chatbot',
      {
        name: 'Minha loja',
        from_model: { model: model._id, values },
        instructionsObject: {
          ...newChatbotDraft().instructionsObject,
          ...persona,
          persona_mission: model.persona_mission,
          personality_types: model.personality_types,
          context: `${first.text.replace('{valor}', `valor de ${first.description}`)}`,
        },
      },
      owner,
    );
    expect(made).toMatchObject({ name: 'Minha loja', model: model._id, chatbot_auto_transfer: true });
  });

  it('the chatbots area: attendants and a manager without it are refused; everyone may list', async () => {
    const owner = await s.t.login('dono@demo.com');
    const made = await s.t.call('create-or-update-chatbot', validDraft(), owner);
    await db()
      .update(users)
      .set({ accessAreas: ACCESS_AREAS.filter((a) => a !== 'chatbots') })
      .where(eq(users.email, 'gerente@demo.com'));
    for (const email of ['atendente@demo.com', 'gerente@demo.com']) {
      const token = await s.t.login(email);
      for (const [call, body] of [
        ['get-chatbot', { _id: made._id }],
        ['get-chatbot-models', {}],
        ['create-or-update-chatbot', validDraft()],
        ['create-or-update-chatbot', { _id: made._id, filed: true }],
        ['test-chatbot', { draft: validDraft(), lines: [{ from: 'customer', text: 'Oi' }] }],
      ] as const)
        expect((await refusal(call, body, token)).message, `${email} ${call}`).toBe(
          texts.insufficientPermissions,
        );
      expect((await s.t.call('get-chatbots-by-user', {}, token)).map((c) => c._id)).toEqual([made._id]);
    }
  });

  it('the AI key never reaches the browser', async () => {
    const owner = await s.t.login('dono@demo.com');
    const made = await s.t.call('create-or-update-chatbot', validDraft(), owner);
    const answers = JSON.stringify([
      await s.t.call('get-chatbot', { _id: made._id }, owner),
      await s.t.call('get-chatbots-by-user', {}, owner),
    ]);
    expect(answers).not.toMatch(/api[_-]?key|secret/i);
  });
});

describe('the places that name a chatbot', () => {
  it('chips take a live chatbot of the account; deleting it puts its chips and conversations on human service', async () => {
    const owner = await s.t.login('dono@demo.com');
    const b = await accountB();
    const made = await s.t.call('create-or-update-chatbot', validDraft(), owner);
    const chip = { name: 'Robo', redirect: 'ai_chatbot', department: s.seed.departments.support };
    expect(await refusal('create-or-update-chip', { ...chip, chatbot: b.bot._id }, owner)).toMatchObject({
      message: texts.chatbotNotFound,
      field: 'chatbot',
    });
    const { chip: live, simulatorToken } = await connectedSimulatorChip(s.t, owner, {
      name: 'Loja',
      department: s.seed.departments.support,
    });
    const saved = await s.t.call(
      'create-or-update-chip',
      { ...chip, _id: live._id, name: 'Loja', chatbot: made._id },
      owner,
    );
    expect(saved).toMatchObject({ redirect: 'ai_chatbot', chatbot: made._id });
    await s.t.call('simulator-send', {
      token: simulatorToken,
      phone: '5511987650001',
      name: 'Cliente',
      id: 'chatbot-crud-1',
      type: 'text',
      text: 'Oi',
    });
    const conversation = await until(
      async () => (await db().select().from(conversations).where(eq(conversations.chipId, live._id)))[0],
    );
    expect(conversation).toMatchObject({ chatbotType: 'chatbot', chatbotId: made._id, isManual: false });

    await s.t.call('create-or-update-chatbot', { _id: made._id, filed: true }, owner);
    const chips = await s.t.call('get-chip-numbers-by-user', {}, owner);
    expect(chips.find((c) => c._id === live._id)).toMatchObject({ redirect: 'human', chatbot: null });
    const [after] = await db().select().from(conversations).where(eq(conversations.id, conversation.id));
    expect(after).toMatchObject({ isManual: true });
  });

  it('transfer to a chatbot: it serves the conversation; the history names it, then says it is gone', async () => {
    const owner = await s.t.login('dono@demo.com');
    const b = await accountB();
    const made = await s.t.call('create-or-update-chatbot', validDraft({ name: 'Robô Ana' }), owner);
    const { chip, simulatorToken } = await connectedSimulatorChip(s.t, owner, {
      name: 'Loja',
      department: s.seed.departments.support,
    });
    await s.t.call('simulator-send', {
      token: simulatorToken,
      phone: '5511987650002',
      name: 'Cliente',
      id: 'chatbot-crud-2',
      type: 'text',
      text: 'Oi',
    });
    const conversation = await until(
      async () => (await db().select().from(conversations).where(eq(conversations.chipId, chip._id)))[0],
    );
    const body = { conversation_id: conversation.id, type: 'chatbot' };
    expect(await refusal('transfer-conversation', { ...body, chatbot: b.bot._id }, owner)).toMatchObject({
      message: texts.chatbotNotFound,
      field: 'chatbot',
    });
    await s.t.call('transfer-conversation', { ...body, chatbot: made._id }, owner);
    const [moved] = await db().select().from(conversations).where(eq(conversations.id, conversation.id));
    expect(moved).toMatchObject({
      isManual: false,
      chatbotType: 'chatbot',
      chatbotId: made._id,
      flowId: null,
    });
    // A fresh position: none yet, or the new chatbot's own once its queued answer has already run.
    expect((await chatbotPosition(s.t.server.services, conversation.id))?.chatbot ?? made._id).toBe(made._id);
    const history = async () =>
      (
        await s.t.call(
          'get-conversations-by-user',
          { filter: { types: ['chatbot', 'human'] }, page: 1, itemsPerPage: 10 },
          owner,
        )
      ).conversations.find((c) => c._id === conversation.id);
    expect(await history()).toMatchObject({ chatbot_name: 'Robô Ana', chatbot_deleted: false });
    await s.t.call('create-or-update-chatbot', { _id: made._id, filed: true }, owner);
    expect(await history()).toMatchObject({ chatbot_name: null, chatbot_deleted: true });
  });

  it("a flow's redirect to an AI chatbot names a live chatbot of the account", async () => {
    const owner = await s.t.login('dono@demo.com');
    const b = await accountB();
    const made = await s.t.call('create-or-update-chatbot', validDraft(), owner);
    const at = { x: 0, y: 0 };
    const graph = (chatbot: string) => ({
      name: 'Para o robô',
      nodes: [
        { id: 'start', type: 'start', position: at, data: {} },
        { id: 'r', type: 'redirect', position: at, data: { to: 'ai_chatbot', value: chatbot } },
      ],
      connections: [{ id: 'e1', source: 'start', sourceHandle: 'next', target: 'r' }],
    });
    expect((await refusal('create-or-update-flow', graph(b.bot._id), owner)).message).toBe(
      texts.flowHasErrorsNamed(texts.chatbotNotFound),
    );
    expect(await s.t.call('create-or-update-flow', graph(made._id), owner)).toMatchObject({
      name: 'Para o robô',
    });
  });
});
