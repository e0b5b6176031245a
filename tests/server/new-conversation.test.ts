// New conversation (templates from the fake Graph API, check-phone first on other channels) and the
// finished-conversations list (filters, paging, attendants' departments, transfer back to a person).
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { messages as texts } from '@/shared/messages';
import { type FakeGraph, graphEnv, startFakeGraph } from '../fakes/graph-api';
import { connectedSimulatorChip } from './channel-helpers';
import { testServerPerFile } from './helpers';

const PHONE_NUMBER_ID = '1029384756';
const WABA = '5647382910';

const graph: FakeGraph = await startFakeGraph();
const s = testServerPerFile({
  ...graphEnv(graph),
});
afterAll(() => graph.close());
beforeEach(() => graph.clear());

async function officialChip() {
  const owner = await s.t.login('dono@demo.com');
  const admin = await s.t.login('admin@demo.com');
  const created = await s.t.call(
    'create-or-update-chip',
    { name: 'Oficial', redirect: 'human', department: s.seed.departments.support, official: true },
    owner,
  );
  await s.t.call(
    'admin-update-chip',
    { _id: created._id, phone_number_id: PHONE_NUMBER_ID, waba: WABA },
    admin,
  );
  await s.t.call('register-phone-number', { _id: created._id, register: true }, admin);
  const chip = await s.t.call('connect-chip', { _id: created._id, connect: true }, owner);
  return { owner, chip };
}

const body = (text: string) => ({ type: 'BODY', text });
const TEMPLATES = [
  {
    name: 'boas_vindas',
    status: 'APPROVED',
    language: 'pt_BR',
    components: [body('Olá! Como podemos ajudar?')],
  },
  { name: 'pendente', status: 'PENDING', language: 'pt_BR', components: [body('Ainda não aprovado')] },
  {
    name: 'com_variavel',
    status: 'APPROVED',
    language: 'pt_BR',
    components: [{ ...body('Olá {{1}}'), example: { body_text: [['Maria']] } }],
  },
  {
    name: 'com_imagem',
    status: 'APPROVED',
    language: 'pt_BR',
    components: [{ type: 'HEADER', format: 'IMAGE' }, body('Veja a foto')],
  },
  {
    name: 'promo',
    status: 'APPROVED',
    language: 'en_US',
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Promo' },
      body('Fixed text'),
      { type: 'FOOTER', text: 'Bye' },
    ],
  },
];

describe('templates and official numbers', () => {
  it('lists only APPROVED templates with fixed content, from every page', async () => {
    const { owner } = await officialChip();
    graph.templates[WABA] = TEMPLATES;
    const list = await s.t.call('get-template-messages-by-waba-id', { waba: WABA }, owner);
    expect(list).toEqual([
      { name: 'boas_vindas', language: 'pt_BR', preview: 'Olá! Como podemos ajudar?' },
      { name: 'promo', language: 'en_US', preview: 'Promo\n\nFixed text\n\nBye' },
    ]);
    expect(graph.to('/message_templates').length).toBe(3);
  });

  it('refuses an official start without a usable template and sends the chosen one', async () => {
    const { owner, chip } = await officialChip();
    graph.templates[WABA] = TEMPLATES;
    const start = { chip: chip._id, phone: '5511987654321' };
    expect((await s.t.post('start-new-conversation', start, owner)).body).toEqual({
      error: true,
      message: texts.scheduleTemplateRequired,
    });
    const variable = { name: 'com_variavel', language: 'pt_BR', preview: 'Olá {{1}}' };
    expect((await s.t.post('start-new-conversation', { ...start, template: variable }, owner)).body).toEqual({
      error: true,
      message: texts.newConversationTemplateNotFixed,
    });
    expect(graph.to('/messages')).toHaveLength(0);
    const template = { name: 'boas_vindas', language: 'pt_BR', preview: 'ignored' };
    const conversation = await s.t.call('start-new-conversation', { ...start, template }, owner);
    expect(conversation).toMatchObject({ is_manual: true, contact: { phone: '5511987654321' } });
    expect(conversation.last_message?.message).toBe('Olá! Como podemos ajudar?');
    const [sent] = graph.to('/messages');
    expect(sent?.json).toMatchObject({
      type: 'template',
      to: '5511987654321',
      template: { name: 'boas_vindas' },
    });
    // A retry opens nothing new and sends nothing again.
    expect((await s.t.call('start-new-conversation', { ...start, template }, owner))._id).toBe(
      conversation._id,
    );
    expect(graph.to('/messages')).toHaveLength(1);
  });
});

describe('new conversation on a simulator chip', () => {
  it('checks the phone, opens a human conversation and finds the contact in the picker', async () => {
    const owner = await s.t.login('dono@demo.com');
    const { chip } = await connectedSimulatorChip(s.t, owner, { department: s.seed.departments.support });
    expect((await s.t.post('start-new-conversation', { chip: chip._id, phone: '123' }, owner)).body).toEqual({
      error: true,
      message: texts.invalidPhone,
    });
    const conversation = await s.t.call(
      'start-new-conversation',
      { chip: chip._id, phone: '5511912345678' },
      owner,
    );
    expect(conversation).toMatchObject({
      is_manual: true,
      finished: null,
      department: s.seed.departments.support,
    });
    const found = await s.t.call('get-contacts-for-new-conversation', { query: '12345' }, owner);
    expect(found.total).toBe(1);
    expect(found.contacts[0]?._id).toBe(conversation.contact._id);
    const byContact = await s.t.call(
      'start-new-conversation',
      { chip: chip._id, contact_id: conversation.contact._id },
      owner,
    );
    expect(byContact._id).toBe(conversation._id);
  });
});

describe('finished conversations', () => {
  it('filters by type (mandatory), department and text, pages, and keeps attendants to their departments', async () => {
    const owner = await s.t.login('dono@demo.com');
    const support = await connectedSimulatorChip(s.t, owner, {
      department: s.seed.departments.support,
      name: 'Suporte',
    });
    const sales = await connectedSimulatorChip(s.t, owner, {
      department: s.seed.departments.sales,
      name: 'Vendas',
    });
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const chip = i % 2 ? sales.chip : support.chip;
      const c = await s.t.call(
        'start-new-conversation',
        { chip: chip._id, phone: `55119876540${String(i).padStart(2, '0')}` },
        owner,
      );
      await s.t.call('finish-conversation', { conversation_id: c._id }, owner);
      ids.push(c._id);
    }
    const all = { filter: { types: ['chatbot', 'human'] }, page: 1, itemsPerPage: 10 };
    const first = await s.t.call('get-conversations-by-user', all, owner);
    expect(first.total).toBe(12);
    expect(first.conversations).toHaveLength(10);
    expect(first.conversations[0]).toMatchObject({ chip_name: expect.any(String), chatbot_deleted: false });
    const second = await s.t.call('get-conversations-by-user', { ...all, page: 2 }, owner);
    expect(second.conversations).toHaveLength(2);
    expect((await s.t.post('get-conversations-by-user', { filter: { types: [] } }, owner)).body).toEqual({
      error: true,
      message: texts.historyTypesRequired,
    });
    expect(
      (await s.t.call('get-conversations-by-user', { filter: { types: ['chatbot'] } }, owner)).total,
    ).toBe(0);
    const text = await s.t.call(
      'get-conversations-by-user',
      { filter: { types: ['human'], text: '987654003' } },
      owner,
    );
    expect(text.conversations.map((c) => c._id)).toEqual([ids[3]]);
    const ana = await s.t.login('atendente@demo.com'); // Suporte only
    const hers = await s.t.call('get-conversations-by-user', { ...all, itemsPerPage: 50 }, ana);
    expect(hers.total).toBe(6);
    expect(hers.conversations.every((c) => c.department === s.seed.departments.support)).toBe(true);
    const asked = await s.t.call(
      'get-conversations-by-user',
      { filter: { types: ['human'], departments: [s.seed.departments.sales] } },
      ana,
    );
    expect(asked.total).toBe(0);
    // Enviar para atendimento humano: the transfer resumes it in the chosen department.
    const resumed = await s.t.call(
      'transfer-conversation',
      { conversation_id: ids[0], type: 'department', department: s.seed.departments.sales, tags: [] },
      owner,
    );
    expect(resumed).toMatchObject({ finished: null, department: s.seed.departments.sales, is_manual: true });
  });
});
