// The flow engine on the real server, the simulator channel as the customer: a chip whose first service is a
// flow drives welcome → menu → tag → question → redirect; keyword triggers; opening hours on a fixed clock;
// input arriving while a step is in flight; 'Atender como humano'; the HTTP request node; a broken flow.
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chatbots, chips, contacts, flows, messages } from '@/server/db/schema';
import { receiveInbound } from '@/server/domains/conversations/pipeline';
import { runConversation } from '@/server/domains/flows/engine';
import { acceptAnswer, isOpen, isPrivateAddress, pickOption } from '@/server/domains/flows/nodes';
import { startFlowRun } from '@/server/domains/flows/start';
import { newId } from '@/shared/ids';
import { messages as texts } from '@/shared/messages';
import { connected, connectedSimulatorChip, simulatorSocket, until } from './channel-helpers';
import {
  botMessages,
  conversationRow,
  flowRun,
  flowsSettled,
  insertFlow,
  insertTag,
  openConversationOf,
  setChipFlow,
  type TestNode,
  waitBot,
} from './flow-helpers';
import { testServerPerFile } from './helpers';

const s = testServerPerFile({ FLOWS_HTTP_ALLOW_PRIVATE: 'true' });
const services = () => s.t.server.services;
afterEach(() => flowsSettled(services()));

let seq = 0;
const localId = () => `f${Date.now().toString(36)}${(seq++).toString(36)}xxxx`;
let phoneSeq = 0;
const newPhone = () => `55119${String(70000000 + ++phoneSeq * 7919).slice(0, 8)}`;

async function chipWith(flowId: string | null, redirect: 'human' | 'flow_chatbot' = 'flow_chatbot') {
  const owner = await s.t.login('dono@demo.com');
  const { chip, simulatorToken } = await connectedSimulatorChip(s.t, owner, {
    department: s.seed.departments.support,
  });
  if (flowId && redirect === 'flow_chatbot') await setChipFlow(services(), chip._id, flowId);
  return { owner, chipId: chip._id, token: simulatorToken };
}

const say = (token: string, phone: string, text: string) =>
  s.t.call('simulator-send', { token, phone, name: 'Maria Cliente', id: localId(), type: 'text', text });

const texts_ = (rows: { message: string }[]) => rows.map((r) => r.message);

/** The main flow of the test: welcome → quick replies → tag → question {email} → a department. */
async function mainFlow(vip: string) {
  const nodes: TestNode[] = [
    { id: 'start', type: 'start' },
    { id: 'welcome', type: 'message', data: { kind: 'text', text: 'Olá {nome:first}! Bem-vinda à Loja.' } },
    {
      id: 'menu',
      type: 'buttons',
      data: {
        text: 'Como podemos ajudar?',
        options: [
          { id: 'o-sales', title: 'Vendas' },
          { id: 'o-help', title: 'Suporte Técnico' },
          { id: 'o-money', title: 'Financeiro' },
        ],
      },
    },
    { id: 'tag', type: 'add_tag', data: { tags: [vip] } },
    {
      id: 'ask',
      type: 'question',
      data: {
        text: 'Qual é o seu e-mail?',
        validation: 'email',
        variable: 'email',
        retry_text: 'E-mail inválido.',
      },
    },
    { id: 'human', type: 'redirect', data: { to: 'human', value: s.seed.departments.sales } },
    { id: 'bye', type: 'end', data: { text: 'Até logo!' } },
  ];
  return insertFlow(services(), s.seed.accountId, nodes, [
    ['start', 'welcome'],
    ['welcome', 'menu'],
    ['menu', 'o-help', 'tag'],
    ['menu', 'o-sales', 'tag'],
    ['menu', 'o-money', 'bye'],
    ['tag', 'ask'],
    ['ask', 'human'],
  ]);
}

describe('the flow engine', () => {
  it('drives a chip’s flow: welcome, menu (a wrong answer, then a tap), tag, question with validation, then a department', async () => {
    const vip = await insertTag(services(), s.seed.accountId, 'VIP');
    const flowId = await mainFlow(vip);
    const { chipId, token } = await chipWith(flowId);
    const phone = newPhone();
    const customer = simulatorSocket(s.t, token, phone);
    const phoneEvents = customer.events;
    await connected(customer.sock);
    await say(token, phone, 'Oi');
    const conversation = await openConversationOf(services(), phone);
    expect(conversation).toMatchObject({ chatbotType: 'flow_chatbot', flowId, isManual: false });

    const first = await waitBot(services(), conversation.id, 2);
    expect(texts_(first)).toEqual(['Olá Maria! Bem-vinda à Loja.', 'Como podemos ajudar?']);
    // The menu is stored with its options; the simulator (no interactive yet) got the numbered text.
    expect(first[1]?.interactive).toEqual({
      kind: 'buttons',
      button: null,
      options: [
        { id: 'o-sales', title: 'Vendas' },
        { id: 'o-help', title: 'Suporte Técnico' },
        { id: 'o-money', title: 'Financeiro' },
      ],
    });
    expect(first.every((m) => m.messageId?.startsWith('flow-') && m.userId === null)).toBe(true);
    // The flow's own messages, accepted by the channel, answer no one (spec 2 §4): the customer still waits.
    await until(async () =>
      (await botMessages(services(), conversation.id)).every((m) => m.status >= 1) ? true : undefined,
    );
    expect(await conversationRow(services(), conversation.id)).toMatchObject({
      waitingResponse: true,
      isNew: true,
    });
    // The customer's phone got the menu as buttons to tap (the simulator's default: interactive messages).
    const sent = await until(() =>
      phoneEvents.find((e) => e.type === 'message' && e.message.text.startsWith('Como podemos')),
    );
    expect(sent.type === 'message' && [sent.message.text, sent.message.interactive?.options.length]).toEqual([
      'Como podemos ajudar?',
      3,
    ]);

    await say(token, phone, 'talvez');
    const again = await waitBot(services(), conversation.id, 4);
    expect(texts_(again.slice(2))).toEqual([texts.flowInvalidOption, 'Como podemos ajudar?']);

    // A tap on the phone: the channel reports the option (its title as the text, its id as the choice).
    const [chip] = await services().db.select().from(chips).where(eq(chips.id, chipId));
    if (!chip) throw new Error('chip');
    await receiveInbound(services(), chip, {
      platformMessageId: `tap-${localId()}`,
      from: phone,
      type: 'text',
      text: 'Suporte Técnico',
      choice: { id: 'o-help', title: 'Suporte Técnico' },
    });
    const asked = await waitBot(services(), conversation.id, 5);
    expect(asked[4]?.message).toBe('Qual é o seu e-mail?');

    await say(token, phone, 'maria arroba loja');
    await waitBot(services(), conversation.id, 6);
    await say(token, phone, 'Maria@Loja.com.br');
    const done = await until(async () => {
      const c = await conversationRow(services(), conversation.id);
      return c.isManual ? c : undefined;
    });
    expect(done.departmentId).toBe(s.seed.departments.sales);
    expect(done.finishedAt).toBeNull();
    expect(texts_(await botMessages(services(), conversation.id)).slice(5)).toEqual(['E-mail inválido.']);
    const [contact] = await services()
      .db.select()
      .from(contacts)
      .where(eq(contacts.id, conversation.contactId));
    expect(contact?.tags).toEqual([vip]);
    expect(contact?.data).toMatchObject({ email: 'maria@loja.com.br' });
    // A message to a person now: the flow answers nothing more.
    await say(token, phone, 'Olá?');
    await new Promise((r) => setTimeout(r, 800));
    expect(await botMessages(services(), conversation.id)).toHaveLength(6);
    customer.sock.close();
  });

  it('takes the option’s number or its title typed in any case and accents; an end node finishes the conversation', async () => {
    const vip = await insertTag(services(), s.seed.accountId, 'VIP');
    const flowId = await mainFlow(vip);
    const { token } = await chipWith(flowId);
    const byNumber = newPhone();
    const byTitle = newPhone();
    await say(token, byNumber, 'Oi');
    await say(token, byTitle, 'Oi');
    const a = await openConversationOf(services(), byNumber);
    const b = await openConversationOf(services(), byTitle);
    await waitBot(services(), a.id, 2);
    await waitBot(services(), b.id, 2);
    await say(token, byNumber, '3');
    await say(token, byTitle, '  suporte tecnico ');
    await until(async () => ((await conversationRow(services(), a.id)).finishedAt ? true : undefined));
    expect(texts_(await botMessages(services(), a.id)).at(-1)).toBe('Até logo!');
    expect(texts_(await waitBot(services(), b.id, 3)).at(-1)).toBe('Qual é o seu e-mail?');
  });

  it('reads opening hours in the account’s time zone on a fixed clock', async () => {
    const nodes: TestNode[] = [
      { id: 'start', type: 'start' },
      {
        id: 'hours',
        type: 'opening_hours',
        data: { days: [{ day: 3, ranges: [{ start: '09:00', end: '18:00' }] }] },
      },
      { id: 'open', type: 'message', data: { kind: 'text', text: 'Estamos abertos.' } },
      { id: 'closed', type: 'message', data: { kind: 'text', text: 'Estamos fechados.' } },
    ];
    const flowId = await insertFlow(services(), s.seed.accountId, nodes, [
      ['start', 'hours'],
      ['hours', 'open', 'open'],
      ['hours', 'closed', 'closed'],
    ]);
    const { token } = await chipWith(flowId);
    try {
      // Wednesday 2026-11-25, 17:30 in São Paulo (UTC-3): open. 18:30 the same day: closed.
      services().clock = { now: () => new Date('2026-11-25T20:30:00Z') };
      const inside = newPhone();
      await say(token, inside, 'Oi');
      const c1 = await openConversationOf(services(), inside);
      expect(texts_(await waitBot(services(), c1.id, 1))).toEqual(['Estamos abertos.']);
      services().clock = { now: () => new Date('2026-11-25T21:30:00Z') };
      const outside = newPhone();
      await say(token, outside, 'Oi');
      const c2 = await openConversationOf(services(), outside);
      expect(texts_(await waitBot(services(), c2.id, 1))).toEqual(['Estamos fechados.']);
    } finally {
      services().clock = undefined;
    }
    // The rule itself, in another zone and at the range's edges.
    const hours = { time_zone: '', days: [{ day: 1, ranges: [{ start: '08:00', end: '12:00' }] }] };
    expect(isOpen(hours, 'Asia/Tokyo', new Date('2026-11-22T23:00:00Z'))).toBe(true); // Mon 08:00 Tokyo
    expect(isOpen(hours, 'Asia/Tokyo', new Date('2026-11-23T03:00:00Z'))).toBe(false); // Mon 12:00 Tokyo
  });

  it('starts a flow on its keyword, not on a disabled chip, and in human service only with trigger_human', async () => {
    const nodes: TestNode[] = [
      { id: 'start', type: 'start' },
      { id: 'promo', type: 'message', data: { kind: 'text', text: 'Promoção do dia!' } },
      { id: 'ask', type: 'question', data: { text: 'Qual produto?', variable: 'produto' } },
    ];
    const edges: [string, string][] = [
      ['start', 'promo'],
      ['promo', 'ask'],
    ];
    const humanChip = await chipWith(null, 'human');
    const disabledChip = await chipWith(null, 'human');
    const flowId = await insertFlow(services(), s.seed.accountId, nodes, edges, {
      trigger: true,
      keywords: ['promoção', 'oferta do dia'],
      triggerHuman: false,
      disabledChips: [disabledChip.chipId],
    });
    // A person serves this conversation: the keyword does nothing without trigger_human.
    const p1 = newPhone();
    await say(humanChip.token, p1, 'quero a PROMOCAO!');
    const c1 = await openConversationOf(services(), p1);
    await new Promise((r) => setTimeout(r, 600));
    expect(await botMessages(services(), c1.id)).toHaveLength(0);

    await services().db.update(flows).set({ triggerHuman: true }).where(eq(flows.id, flowId));
    await say(humanChip.token, p1, 'promoções?'); // not the keyword: a whole word only
    await new Promise((r) => setTimeout(r, 600));
    expect(await botMessages(services(), c1.id)).toHaveLength(0);
    await say(humanChip.token, p1, 'tem oferta do dia?');
    expect(texts_(await waitBot(services(), c1.id, 2))).toEqual(['Promoção do dia!', 'Qual produto?']);
    expect(await conversationRow(services(), c1.id)).toMatchObject({ isManual: false, flowId });
    // The same flow running: its keyword is an answer, not a new start.
    await say(humanChip.token, p1, 'promoção');
    await until(async () => {
      const [c] = await services().db.select().from(contacts).where(eq(contacts.id, c1.contactId));
      return c?.data.produto === 'promoção' ? true : undefined;
    });
    expect(await botMessages(services(), c1.id)).toHaveLength(2);

    const p2 = newPhone();
    await say(disabledChip.token, p2, 'promoção');
    const c2 = await openConversationOf(services(), p2);
    await new Promise((r) => setTimeout(r, 600));
    expect(await botMessages(services(), c2.id)).toHaveLength(0);
    expect((await conversationRow(services(), c2.id)).isManual).toBe(true);
  });

  it('handles a message that arrives while a step is in flight once, in order', async () => {
    const nodes: TestNode[] = [
      { id: 'start', type: 'start' },
      { id: 'a', type: 'question', data: { text: 'Primeira pergunta?', variable: 'a' } },
      { id: 'slow', type: 'message', data: { kind: 'text', text: 'Anotado.', typing_seconds: 1 } },
      { id: 'b', type: 'question', data: { text: 'Segunda pergunta?', variable: 'b' } },
      { id: 'sum', type: 'message', data: { kind: 'text', text: '{a} e {b}' } },
    ];
    const flowId = await insertFlow(services(), s.seed.accountId, nodes, [
      ['start', 'a'],
      ['a', 'slow'],
      ['slow', 'b'],
      ['b', 'sum'],
    ]);
    const { token } = await chipWith(flowId);
    const phone = newPhone();
    await say(token, phone, 'Oi');
    const c = await openConversationOf(services(), phone);
    await waitBot(services(), c.id, 1);
    // The second answer lands during the first one's 'typing' step: its own run finds the claim taken.
    await say(token, phone, 'azul');
    await new Promise((r) => setTimeout(r, 300));
    await say(token, phone, 'verde');
    const rows = await waitBot(services(), c.id, 4);
    await new Promise((r) => setTimeout(r, 800));
    expect(texts_(await botMessages(services(), c.id))).toEqual([
      'Primeira pergunta?',
      'Anotado.',
      'Segunda pergunta?',
      'azul e verde',
    ]);
    expect(rows).toHaveLength(4);
    // Running it again (a retried job, another process) changes nothing.
    await Promise.all([runConversation(services(), c.id), runConversation(services(), c.id)]);
    expect(await botMessages(services(), c.id)).toHaveLength(4);
  });

  it('stops a waiting flow when a person takes the conversation; a transfer to a flow starts it again', async () => {
    const nodes: TestNode[] = [
      { id: 'start', type: 'start' },
      { id: 'ask', type: 'question', data: { text: 'Seu nome?', variable: 'nome_real' } },
      { id: 'thanks', type: 'message', data: { kind: 'text', text: 'Obrigado, {nome_real}.' } },
    ];
    const flowId = await insertFlow(services(), s.seed.accountId, nodes, [
      ['start', 'ask'],
      ['ask', 'thanks'],
    ]);
    const { owner, token } = await chipWith(flowId);
    const phone = newPhone();
    await say(token, phone, 'Oi');
    const c = await openConversationOf(services(), phone);
    await waitBot(services(), c.id, 1);
    await s.t.call('set-conversation-manual', { conversation_id: c.id }, owner);
    await say(token, phone, 'Ana');
    await new Promise((r) => setTimeout(r, 800));
    expect(texts_(await botMessages(services(), c.id))).toEqual(['Seu nome?']);

    const view = await s.t.call(
      'transfer-conversation',
      { conversation_id: c.id, type: 'flow', flow: flowId },
      owner,
    );
    expect(view).toMatchObject({ is_manual: false, chatbot_type: 'flow_chatbot', flow: flowId });
    await waitBot(services(), c.id, 2);
    await say(token, phone, 'Beatriz');
    expect(texts_(await waitBot(services(), c.id, 3))).toEqual([
      'Seu nome?',
      'Seu nome?',
      'Obrigado, Beatriz.',
    ]);
    // Another account's flow, or none, is refused with the field's message.
    const refused = await s.t.post(
      'transfer-conversation',
      { conversation_id: c.id, type: 'flow', flow: 'NOSUCHFLOW000000000000000000' },
      owner,
    );
    expect(refused.body).toMatchObject({ error: true, message: texts.flowNotFound });
  });

  it('startFlowRun starts a flow in an open conversation (scheduled messages and campaigns call it)', async () => {
    const flowId = await insertFlow(
      services(),
      s.seed.accountId,
      [
        { id: 'start', type: 'start' },
        { id: 'hi', type: 'message', data: { kind: 'text', text: 'Mensagem agendada.' } },
      ],
      [['start', 'hi']],
    );
    const { token } = await chipWith(null, 'human');
    const phone = newPhone();
    await say(token, phone, 'Oi');
    const c = await openConversationOf(services(), phone);
    await startFlowRun(services(), c.id, flowId);
    expect(texts_(await waitBot(services(), c.id, 1))).toEqual(['Mensagem agendada.']);
    await expect(startFlowRun(services(), c.id, 'NOSUCHFLOW000000000000000000')).rejects.toThrow(
      texts.flowNotFound,
    );
  });

  describe('the HTTP request node', () => {
    let api: HttpServer;
    let base = '';
    const seen: { method: string; url: string; body: string }[] = [];
    beforeAll(async () => {
      api = createServer((req, res) => {
        let body = '';
        req.on('data', (c) => {
          body += c;
        });
        req.on('end', () => {
          seen.push({ method: req.method ?? '', url: req.url ?? '', body });
          if (req.url?.startsWith('/fail')) return res.writeHead(500).end('{}');
          if (req.url?.startsWith('/moved')) return res.writeHead(302, { location: '/ok' }).end();
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ order: { status: 'enviado', items: [{ name: 'Cadeira' }] } }));
        });
      });
      await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
      base = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((r) => api.close(() => r())));

    const httpFlow = (url: string, method: 'GET' | 'POST' = 'POST') =>
      insertFlow(
        services(),
        s.seed.accountId,
        [
          { id: 'start', type: 'start' },
          {
            id: 'call',
            type: 'http',
            data: {
              method,
              url,
              timeout_seconds: 5,
              mappings: [
                { path: 'order.status', variable: 'status' },
                { path: 'order.items[0].name', variable: 'item' },
              ],
            },
          },
          { id: 'ok', type: 'message', data: { kind: 'text', text: 'Pedido {status}: {item}' } },
          { id: 'err', type: 'message', data: { kind: 'text', text: 'Sistema fora do ar.' } },
        ],
        [
          ['start', 'call'],
          ['call', 'next', 'ok'],
          ['call', 'error', 'err'],
        ],
      );

    it('posts the contact’s data, maps the answer into variables; an error status and a redirect take the error branch', async () => {
      const { token } = await chipWith(await httpFlow(`${base}/orders`));
      const phone = newPhone();
      await say(token, phone, 'Oi');
      const c = await openConversationOf(services(), phone);
      expect(texts_(await waitBot(services(), c.id, 1))).toEqual(['Pedido enviado: Cadeira']);
      const posted = JSON.parse(seen.find((r) => r.url === '/orders')?.body ?? '{}');
      expect(posted).toMatchObject({ name: 'Maria Cliente', phone, tags: [] });

      for (const path of ['/fail', '/moved']) {
        const chip = await chipWith(await httpFlow(`${base}${path}`, 'GET'));
        const p = newPhone();
        await say(chip.token, p, 'Oi');
        const other = await openConversationOf(services(), p);
        expect(texts_(await waitBot(services(), other.id, 1))).toEqual(['Sistema fora do ar.']);
      }
      expect(seen.filter((r) => r.url === '/ok')).toHaveLength(0);
    });

    it('refuses a private address unless allowed: the conversation goes to a person with the reason', async () => {
      const { token } = await chipWith(await httpFlow(`${base}/orders`));
      services().config.FLOWS_HTTP_ALLOW_PRIVATE = 'false';
      try {
        const before = seen.length;
        const phone = newPhone();
        await say(token, phone, 'Oi');
        const c = await openConversationOf(services(), phone);
        const human = await until(async () => {
          const row = await conversationRow(services(), c.id);
          return row.isManual ? row : undefined;
        });
        expect(human.departmentId).toBe(s.seed.departments.support);
        const notes = await services().db.select().from(messages).where(eq(messages.conversationId, c.id));
        expect(notes.find((m) => m.type === 'system')?.message).toBe(
          texts.flowEngineFailed(texts.flowHttpBlocked),
        );
        expect(seen.length).toBe(before);
      } finally {
        services().config.FLOWS_HTTP_ALLOW_PRIVATE = 'true';
      }
      for (const ip of [
        '127.0.0.1',
        '10.1.2.3',
        '169.254.169.254',
        '192.168.0.1',
        '::1',
        '::ffff:127.0.0.1',
        'fe80::1',
      ])
        expect(isPrivateAddress(ip)).toBe(true);
      expect(isPrivateAddress('8.8.8.8')).toBe(false);
    });
  });

  it('sends a conversation with a broken flow to human service with the reason; the others go on', async () => {
    const broken = await insertFlow(
      services(),
      s.seed.accountId,
      [
        { id: 'start', type: 'start' },
        { id: 'hi', type: 'message', data: { kind: 'text', text: 'Oi!' } },
      ],
      [
        ['start', 'hi'],
        ['hi', 'ghost'],
      ],
    );
    const fine = await insertFlow(
      services(),
      s.seed.accountId,
      [
        { id: 'start', type: 'start' },
        { id: 'hi', type: 'message', data: { kind: 'text', text: 'Tudo certo.' } },
      ],
      [['start', 'hi']],
    );
    const a = await chipWith(broken);
    const b = await chipWith(fine);
    const pa = newPhone();
    const pb = newPhone();
    await say(a.token, pa, 'Oi');
    await say(b.token, pb, 'Oi');
    const ca = await openConversationOf(services(), pa);
    const cb = await openConversationOf(services(), pb);
    const human = await until(async () => {
      const row = await conversationRow(services(), ca.id);
      return row.isManual ? row : undefined;
    });
    expect(human).toMatchObject({ departmentId: s.seed.departments.support, finishedAt: null });
    const all = await services().db.select().from(messages).where(eq(messages.conversationId, ca.id));
    expect(all.filter((m) => m.origin === 'chatbot').map((m) => m.message)).toEqual([
      'Oi!',
      texts.flowEngineFailed(texts.flowNodeMissing),
    ]);
    expect(texts_(await waitBot(services(), cb.id, 1))).toEqual(['Tudo certo.']);

    // A deleted flow: the same, with its own reason.
    const gone = await chipWith(fine);
    await services().db.update(flows).set({ filed: true }).where(eq(flows.id, fine));
    const pg = newPhone();
    await say(gone.token, pg, 'Oi');
    const cg = await openConversationOf(services(), pg);
    await until(async () => ((await conversationRow(services(), cg.id)).isManual ? true : undefined));
    const notes = await services().db.select().from(messages).where(eq(messages.conversationId, cg.id));
    expect(notes.find((m) => m.type === 'system')?.message).toBe(
      texts.flowEngineFailed(texts.flowFlowMissing),
    );
  });

  it('branches on tags, removes one, picks a random branch, answers a list and hands over to another flow, then to an AI chatbot', async () => {
    const vip = await insertTag(services(), s.seed.accountId, 'VIP');
    // An AI chatbot of the account (its own tests are chatbot-engine.test.ts); it waits a minute to answer.
    const chatbotId = newId();
    await services()
      .db.insert(chatbots)
      .values({
        id: chatbotId,
        accountId: s.seed.accountId,
        name: 'Robô',
        responseDelay: 60,
        instructions: {
          persona_name: 'Ana',
          persona_gender: 'feminina',
          persona_mission: 'Atender',
          personality_types: ['Amigável'],
          fallback: 'Não sei.',
          context: 'Loja.',
        },
      });
    const second = await insertFlow(
      services(),
      s.seed.accountId,
      [
        { id: 'start', type: 'start' },
        {
          id: 'menu',
          type: 'list',
          data: {
            text: 'Escolha um assunto',
            button: 'Assuntos',
            options: [
              { id: 'l1', title: 'Entrega', description: 'Prazos e frete' },
              { id: 'l2', title: 'Troca' },
            ],
          },
        },
        { id: 'bot', type: 'redirect', data: { to: 'ai_chatbot', value: chatbotId } },
      ],
      [
        ['start', 'menu'],
        ['menu', 'l2', 'bot'],
      ],
    );
    const first = await insertFlow(
      services(),
      s.seed.accountId,
      [
        { id: 'start', type: 'start' },
        { id: 'cond', type: 'tag_condition', data: { tags: [vip], mode: 'any' } },
        { id: 'untag', type: 'remove_tag', data: { tags: [vip] } },
        {
          id: 'dice',
          type: 'randomizer',
          data: {
            branches: [
              { id: 'r0', percent: 0 },
              { id: 'r1', percent: 100 },
            ],
          },
        },
        { id: 'lucky', type: 'message', data: { kind: 'text', text: 'Cliente VIP!' } },
        { id: 'plain', type: 'message', data: { kind: 'text', text: 'Cliente comum.' } },
        { id: 'next', type: 'redirect', data: { to: 'flow', value: second } },
      ],
      [
        ['start', 'cond'],
        ['cond', 'yes', 'untag'],
        ['cond', 'no', 'plain'],
        ['untag', 'dice'],
        ['dice', 'r1', 'lucky'],
        ['dice', 'r0', 'plain'],
        ['lucky', 'next'],
      ],
    );
    const { token } = await chipWith(first);
    const phone = newPhone();
    // A known contact, already tagged VIP.
    await services()
      .db.insert(contacts)
      .values({ id: newId(), accountId: s.seed.accountId, phone, name: 'Maria', tags: [vip] });
    await say(token, phone, 'Oi');
    const c = await openConversationOf(services(), phone);
    const rows = await waitBot(services(), c.id, 2);
    expect(texts_(rows)).toEqual(['Cliente VIP!', 'Escolha um assunto']);
    expect(rows[1]?.interactive).toMatchObject({ kind: 'list', button: 'Assuntos' });
    const [contact] = await services().db.select().from(contacts).where(eq(contacts.id, c.contactId));
    expect(contact?.tags).toEqual([]);
    expect((await conversationRow(services(), c.id)).flowId).toBe(second);
    await say(token, phone, 'troca');
    const bot = await until(async () => {
      const row = await conversationRow(services(), c.id);
      return row.chatbotType === 'chatbot' ? row : undefined;
    });
    expect(bot).toMatchObject({ isManual: false, chatbotId, flowId: null });
  });

  it('takes a question’s timeout branch once its time has passed (a durable job wakes it)', async () => {
    const flowId = await insertFlow(
      services(),
      s.seed.accountId,
      [
        { id: 'start', type: 'start' },
        {
          id: 'ask',
          type: 'question',
          data: { text: 'Ainda está aí?', timeout: { amount: 5, unit: 'minutes' } },
        },
        { id: 'late', type: 'message', data: { kind: 'text', text: 'Vamos encerrar por aqui.' } },
        { id: 'ok', type: 'message', data: { kind: 'text', text: 'Que bom!' } },
      ],
      [
        ['start', 'ask'],
        ['ask', 'timeout', 'late'],
        ['ask', 'next', 'ok'],
      ],
    );
    const { token } = await chipWith(flowId);
    const phone = newPhone();
    await say(token, phone, 'Oi');
    const c = await openConversationOf(services(), phone);
    await waitBot(services(), c.id, 1);
    // The wake-up is queued with the step's position, just after the question went out: on PostgreSQL the
    // message can be seen before that transaction commits.
    const wakeJob = async () =>
      (
        (await services().db.execute(
          sql`select start_after from pgboss.job where name = 'flow-run' and data->>'conversation' = ${c.id} and start_after > now() + interval '4 minutes'`,
        )) as unknown as { rows: { start_after: string }[] }
      ).rows.length;
    await expect.poll(wakeJob, { timeout: 10_000 }).toBe(1);
    // The runner that asked still holds its claim for a moment after that commit; a run while it does finds
    // the claim taken and returns, so wait until it lets go.
    await expect
      .poll(async () => (await flowRun(services(), c.id)).leaseUntil, { timeout: 10_000 })
      .toBeNull();
    // Before its time the job's run changes nothing; five minutes later it takes the timeout branch.
    await runConversation(services(), c.id);
    expect(await botMessages(services(), c.id)).toHaveLength(1);
    try {
      services().clock = { now: () => new Date(Date.now() + 6 * 60_000) };
      await runConversation(services(), c.id);
    } finally {
      services().clock = undefined;
    }
    expect(texts_(await botMessages(services(), c.id))).toEqual([
      'Ainda está aí?',
      'Vamos encerrar por aqui.',
    ]);
  });

  it('judges replies: options by number or title, answers by validation', () => {
    const options = [
      { id: 'a', title: 'Sim' },
      { id: 'b', title: 'Não sei' },
    ];
    expect(pickOption(options, '2')?.id).toBe('b');
    expect(pickOption(options, 'NAO SEI')?.id).toBe('b');
    expect(pickOption(options, '3')).toBeNull();
    expect(pickOption(options, 'sim, claro')).toBeNull();
    expect(acceptAnswer('number', '12,5')).toBe('12.5');
    expect(acceptAnswer('number', 'doze')).toBeNull();
    expect(acceptAnswer('phone', '(11) 98765-4321')).toBe('5511987654321');
    expect(acceptAnswer('date', '31/02/2026')).toBeNull();
    expect(acceptAnswer('date', '1/2/2026')).toBe('01/02/2026');
    expect(acceptAnswer('email', 'a@b')).toBeNull();
  });
});
