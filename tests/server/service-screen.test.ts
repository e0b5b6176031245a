// The service screen's calls (spec 2 §2.3, §4–§7, issue 6): the conversation list with its filters and
// paging, the conversation actions and the events they send, the contact drawer's calls, and the account
// and department boundaries. Customers write through the simulator; bulk data goes straight into the db.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { chips, contacts, conversations, departments, messages, tags, users } from '@/server/db/schema';
import type { Conversation } from '@/shared/contract/conversations';
import { newId } from '@/shared/ids';
import { messages as texts } from '@/shared/messages';
import { connectedSimulatorChip, listen, roundTrip } from './channel-helpers';
import { testServerPerFile } from './helpers';

const s = testServerPerFile();
const db = () => s.t.server.services.db;

let seq = 0;
const localId = () => `ss${Date.now().toString(36)}${(seq++).toString(36)}xyz`;
const HOUR = 60 * 60 * 1000;

type Filter = {
  situation?: 'all' | 'waiting_response';
  types?: ('chatbot' | 'human')[];
  departments?: string[];
  tags?: string[];
  chips?: string[];
  text?: string;
};

const list = async (token: string, filter: Filter = {}, more: Record<string, unknown> = {}) =>
  s.t.call('get-conversations-with-last-message', { filter, ...more }, token);
const ids = (r: { conversations: Conversation[] }) => r.conversations.map((c) => c._id);
/** The cursor the app sends for the next page: the last item's activity and id. */
const cursorOf = (c: Conversation) => ({ last_message_at: c.last_message?.created ?? c.created, _id: c._id });

const login = (email: string) => s.t.login(email);
/** The platform admin's account: another account than Loja Demo. */
const adminAccountId = async () =>
  (await db().select().from(users).where(eq(users.email, 'admin@demo.com')))[0]?.accountId as string;
const userId = async (token: string) => (await s.t.call('get-user', {}, token))._id;

/** A simulator chip connected as a user connects one, and a way for its customers to write. */
async function simulatorChip(
  opts: { department?: string; name?: string; redirect?: 'human' | 'ai_chatbot' | 'flow_chatbot' } = {},
) {
  const owner = await login('dono@demo.com');
  const { chip, simulatorToken } = await connectedSimulatorChip(s.t, owner, {
    department: opts.department ?? s.seed.departments.support,
    name: opts.name,
    redirect: opts.redirect,
  });
  const write = (phone: string, text: string, name = '') =>
    s.t.call('simulator-send', { token: simulatorToken, phone, name, id: localId(), type: 'text', text });
  return { owner, chip, write };
}

/** A customer's conversation in Suporte (through the simulator), as the manager's socket announced it. */
async function customerConversation(phone = '5511987654321', name = 'Maria Cliente') {
  const sim = await simulatorChip();
  const manager = await listen(s.t, 'gerente@demo.com');
  await sim.write(phone, 'Olá, preciso de ajuda', name);
  const { message: conversation } = await manager.next('new_conversation');
  manager.sock.close();
  return { ...sim, conversation };
}

/** A chip row for conversations inserted directly. */
async function addChip(
  departmentId: string | null = s.seed.departments.support,
  accountId = s.seed.accountId,
) {
  const id = newId();
  await db().insert(chips).values({ id, accountId, name: 'Chip', status: 'open', departmentId });
  return id;
}

interface Row {
  chipId: string;
  name?: string;
  overrideName?: string | null;
  phone?: string;
  tags?: string[];
  departmentId?: string | null;
  /** The last message's time; without it the conversation has no message yet. */
  at?: Date;
  createdAt?: Date;
  isManual?: boolean;
  waitingResponse?: boolean;
  finished?: boolean;
  accountId?: string;
}

let phoneSeq = 0;
/** Contacts, conversations and one last message each, in three multi-row inserts. */
async function insertConversations(rows: Row[]) {
  const out = rows.map((r) => ({
    r,
    accountId: r.accountId ?? s.seed.accountId,
    contactId: newId(),
    conversationId: newId(),
    messageId: newId(),
  }));
  if (!out.length) return [];
  await db()
    .insert(contacts)
    .values(
      out.map(({ r, accountId, contactId }) => ({
        id: contactId,
        accountId,
        name: r.name ?? 'Cliente',
        overrideName: r.overrideName ?? null,
        phone: r.phone ?? `55219${String(phoneSeq++).padStart(8, '0')}`,
        tags: r.tags ?? [],
      })),
    );
  await db()
    .insert(conversations)
    .values(
      out.map(({ r, accountId, contactId, conversationId, messageId }) => ({
        id: conversationId,
        accountId,
        chipId: r.chipId,
        contactId,
        departmentId: r.departmentId === undefined ? s.seed.departments.support : r.departmentId,
        isManual: r.isManual ?? true,
        chatbotType: r.isManual === false ? ('chatbot' as const) : null,
        waitingResponse: r.waitingResponse ?? false,
        lastMessageId: r.at ? messageId : null,
        lastMessageAt: r.at ?? null,
        finishedAt: r.finished ? new Date() : null,
        ...(r.createdAt && { createdAt: r.createdAt }),
      })),
    );
  const withMessage = out.filter((o) => o.r.at);
  if (withMessage.length)
    await db()
      .insert(messages)
      .values(
        withMessage.map(({ r, accountId, conversationId, messageId }) => ({
          id: messageId,
          accountId,
          conversationId,
          chipId: r.chipId,
          origin: 'customer' as const,
          type: 'text' as const,
          message: `mensagem de ${r.name ?? 'Cliente'}`,
          status: 1,
          createdAt: r.at,
        })),
      );
  return out.map((o) => o.conversationId);
}

const conversationRow = async (id: string) =>
  (await db().select().from(conversations).where(eq(conversations.id, id)))[0];

const errorOf = async (call: string, body: unknown, token: string) =>
  (await s.t.post(call, body, token)).body;

describe('get-conversations-with-last-message: order and paging', () => {
  it('lists open conversations newest activity first; a new customer message moves one to the top', async () => {
    const { write, owner } = await simulatorChip();
    const manager = await login('gerente@demo.com');
    await write('5511900000001', 'primeiro', 'Ana');
    await write('5511900000002', 'segundo', 'Beto');
    await write('5511900000003', 'terceiro', 'Caio');
    const first = await list(manager);
    expect(first.conversations.map((c) => c.contact.name)).toEqual(['Caio', 'Beto', 'Ana']);
    expect(first.load_more).toBe(false);
    expect(first.conversations[0]?.last_message).toMatchObject({ message: 'terceiro', origin: 'customer' });

    await write('5511900000001', 'voltei', 'Ana');
    const second = await list(manager);
    expect(second.conversations.map((c) => c.contact.name)).toEqual(['Ana', 'Caio', 'Beto']);
    expect(second.conversations[0]?.last_message?.message).toBe('voltei');

    // A finished conversation leaves the list.
    const beto = second.conversations[2] as Conversation;
    await s.t.call('finish-conversation', { conversation_id: beto._id }, owner);
    expect((await list(manager)).conversations.map((c) => c.contact.name)).toEqual(['Ana', 'Caio']);
  });

  it('pages 15 at a time with `after` and load_more, each conversation once, in order', async () => {
    const chipId = await addChip();
    const now = Date.now();
    // 32 conversations a minute apart, and two without any message (sorted by their creation).
    const inserted = await insertConversations([
      ...Array.from({ length: 32 }, (_, i) => ({ chipId, name: `C${i}`, at: new Date(now - i * 60_000) })),
      { chipId, name: 'sem mensagem recente', createdAt: new Date(now - 10.5 * 60_000) },
      { chipId, name: 'sem mensagem antiga', createdAt: new Date(now - 90 * 60_000) },
    ]);
    const expected = [...inserted.slice(0, 11), inserted[32], ...inserted.slice(11, 32), inserted[33]];
    const manager = await login('gerente@demo.com');
    const p1 = await list(manager);
    expect(p1.conversations).toHaveLength(15);
    expect(p1.load_more).toBe(true);
    const p2 = await list(manager, {}, { after: cursorOf(p1.conversations.at(-1) as Conversation) });
    expect(p2.conversations).toHaveLength(15);
    expect(p2.load_more).toBe(true);
    const p3 = await list(manager, {}, { after: cursorOf(p2.conversations.at(-1) as Conversation) });
    expect(p3.conversations).toHaveLength(4);
    expect(p3.load_more).toBe(false);
    expect([...ids(p1), ...ids(p2), ...ids(p3)]).toEqual(expected);
    // Exactly a page left: no load_more.
    const exact = await list(manager, {}, { limit: 34 });
    expect(exact.load_more).toBe(false);
    expect(exact.conversations).toHaveLength(34);
  });

  it('pages through conversations that share one timestamp (a batch saved at once)', async () => {
    const chipId = await addChip();
    // One insert: every row gets the same created_at, to the microsecond.
    const inserted = await insertConversations(Array.from({ length: 20 }, () => ({ chipId })));
    const manager = await login('gerente@demo.com');
    const p1 = await list(manager);
    expect(p1.load_more).toBe(true);
    const p2 = await list(manager, {}, { after: cursorOf(p1.conversations.at(-1) as Conversation) });
    expect(p2.load_more).toBe(false);
    const seen = [...ids(p1), ...ids(p2)];
    expect(seen).toHaveLength(20);
    expect(new Set(seen)).toEqual(new Set(inserted));
  });

  it('a malformed cursor is an error answer, not a crash', async () => {
    const manager = await login('gerente@demo.com');
    const res = await s.t.post(
      'get-conversations-with-last-message',
      { after: { last_message_at: 'ontem', _id: '0000000000000000000000000000' } },
      manager,
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ error: true, message: texts.invalidPayload });
  });
});

describe('get-conversations-with-last-message: filters', () => {
  it('situation: Não respondidas lists only conversations waiting for an answer', async () => {
    const chipId = await addChip();
    const now = Date.now();
    const [waiting, answered] = await insertConversations([
      { chipId, at: new Date(now - 1000), waitingResponse: true },
      { chipId, at: new Date(now), waitingResponse: false },
    ]);
    const manager = await login('gerente@demo.com');
    expect(ids(await list(manager, { situation: 'waiting_response' }))).toEqual([waiting]);
    expect(ids(await list(manager, { situation: 'all' }))).toEqual([answered, waiting]);
  });

  it('types: Chatbot and Humano by the manual flag; both or none list every one', async () => {
    const { write } = await simulatorChip({ redirect: 'human' });
    await write('5511900000011', 'oi', 'Humano');
    await write('5511900000012', 'oi', 'Robô');
    const manager = await login('gerente@demo.com');
    const all = await list(manager);
    expect(all.conversations.every((c) => c.is_manual)).toBe(true);
    const robot = all.conversations.find((c) => c.contact.name === 'Robô') as Conversation;
    const human = all.conversations.find((c) => c.contact.name === 'Humano') as Conversation;
    // The chatbot issue is not built yet: a chatbot-handled conversation is made in the db.
    await db()
      .update(conversations)
      .set({ isManual: false, chatbotType: 'chatbot' })
      .where(eq(conversations.id, robot._id));
    expect(ids(await list(manager, { types: ['chatbot'] }))).toEqual([robot._id]);
    expect(ids(await list(manager, { types: ['human'] }))).toEqual([human._id]);
    expect(ids(await list(manager, { types: ['chatbot', 'human'] }))).toHaveLength(2);
    expect(ids(await list(manager, { types: [] }))).toHaveLength(2);
  });

  it('departments: managers choose any; an attendant sees only theirs, whatever the filter asks', async () => {
    const { support, sales } = s.seed.departments;
    const chipId = await addChip();
    const now = Date.now();
    const [inSupport, inSales, inNone] = await insertConversations([
      { chipId, departmentId: support, at: new Date(now - 2000) },
      { chipId, departmentId: sales, at: new Date(now - 1000) },
      { chipId, departmentId: null, at: new Date(now) },
    ]);
    const manager = await login('gerente@demo.com');
    expect(ids(await list(manager))).toEqual([inNone, inSales, inSupport]);
    expect(ids(await list(manager, { departments: [sales] }))).toEqual([inSales]);
    expect(ids(await list(manager, { departments: [sales, support] }))).toEqual([inSales, inSupport]);

    const agent = await login('atendente@demo.com');
    expect(ids(await list(agent))).toEqual([inSupport]);
    expect(ids(await list(agent, { departments: [support, sales] }))).toEqual([inSupport]);
    expect(await list(agent, { departments: [sales] })).toEqual({ conversations: [], load_more: false });
    const agent2 = await login('atendente2@demo.com');
    expect(ids(await list(agent2))).toEqual([inSales]);
  });

  it('tags: the contact has any of the chosen tags (set with change-contact-tags)', async () => {
    const owner = await login('dono@demo.com');
    const vip = await s.t.call('create-or-update-tag', { name: 'VIP', color: '#FF0000' }, owner);
    const late = await s.t.call('create-or-update-tag', { name: 'Atrasado', color: '#00FF00' }, owner);
    const chipId = await addChip();
    const now = Date.now();
    const [a, b, c] = await insertConversations([
      { chipId, at: new Date(now - 3000) },
      { chipId, at: new Date(now - 2000) },
      { chipId, at: new Date(now - 1000) },
    ]);
    const manager = await login('gerente@demo.com');
    const contactOf = async (id: string) =>
      (await list(manager, {}, { conversation_id: id })).conversations[0]?.contact._id as string;
    await s.t.call(
      'change-contact-tags',
      { contact_id: await contactOf(a as string), tags: [vip._id] },
      manager,
    );
    await s.t.call(
      'change-contact-tags',
      { contact_id: await contactOf(b as string), tags: [vip._id, late._id] },
      manager,
    );
    await s.t.call(
      'change-contact-tags',
      { contact_id: await contactOf(c as string), tags: [late._id] },
      manager,
    );
    expect(ids(await list(manager, { tags: [vip._id] }))).toEqual([b, a]);
    expect(ids(await list(manager, { tags: [late._id] }))).toEqual([c, b]);
    expect(ids(await list(manager, { tags: [vip._id, late._id] }))).toEqual([c, b, a]);
  });

  it('chips: only the chosen channels', async () => {
    const one = await addChip();
    const two = await addChip();
    const now = Date.now();
    const [onOne, onTwo] = await insertConversations([
      { chipId: one, at: new Date(now - 1000) },
      { chipId: two, at: new Date(now) },
    ]);
    const manager = await login('gerente@demo.com');
    expect(ids(await list(manager, { chips: [one] }))).toEqual([onOne]);
    expect(ids(await list(manager, { chips: [two] }))).toEqual([onTwo]);
    expect(ids(await list(manager, { chips: [one, two] }))).toEqual([onTwo, onOne]);
  });

  it('text: name, override name and phone digits; % and _ are literal', async () => {
    const chipId = await addChip();
    const now = Date.now();
    const [maria, joao, percent, underscore] = await insertConversations([
      { chipId, name: 'Maria Silva', phone: '5511987650001', at: new Date(now - 4000) },
      { chipId, name: 'J', overrideName: 'João Pereira', phone: '5521912340002', at: new Date(now - 3000) },
      { chipId, name: 'Promo 100% Loja', phone: '5531900000003', at: new Date(now - 2000) },
      { chipId, name: 'ana_beatriz', phone: '5541900000004', at: new Date(now - 1000) },
    ]);
    const manager = await login('gerente@demo.com');
    const search = async (text: string) => ids(await list(manager, { text }));
    expect(await search('maria')).toEqual([maria]);
    expect(await search('  SILVA ')).toEqual([maria]);
    expect(await search('pereira')).toEqual([joao]);
    // Phone: the digits of what was typed, however it was formatted.
    expect(await search('(21) 91234')).toEqual([joao]);
    expect(await search('98765-0001')).toEqual([maria]);
    expect(await search('0000')).toEqual([underscore, percent]);
    // '%' and '_' mean themselves, not "anything".
    expect(await search('100%')).toEqual([percent]);
    expect(await search('%')).toEqual([percent]);
    expect(await search('a_b')).toEqual([underscore]);
    expect(await search('_')).toEqual([underscore]);
    expect(await search('ninguém')).toEqual([]);
    // Filters combine.
    expect(ids(await list(manager, { text: 'maria', situation: 'waiting_response' }))).toEqual([]);
  });

  it('conversation_id: just that one, also finished; refused when the caller cannot see it', async () => {
    const chipId = await addChip();
    const [open, finished] = await insertConversations([
      { chipId, at: new Date(), departmentId: s.seed.departments.support },
      { chipId, at: new Date(), departmentId: s.seed.departments.support, finished: true },
    ]);
    const agent = await login('atendente@demo.com');
    const one = await list(agent, {}, { conversation_id: finished });
    expect(ids(one)).toEqual([finished]);
    expect(one.load_more).toBe(false);
    expect(one.conversations[0]?.finished).not.toBeNull();
    expect(
      ids(await list(agent, { departments: [s.seed.departments.sales] }, { conversation_id: open })),
    ).toEqual([open]);
    const other = await login('atendente2@demo.com');
    expect(await errorOf('get-conversations-with-last-message', { conversation_id: open }, other)).toEqual({
      error: true,
      message: texts.notFound,
    });
    expect(
      await errorOf(
        'get-conversations-with-last-message',
        { conversation_id: '0000000000000000000000000000' },
        agent,
      ),
    ).toEqual({ error: true, message: texts.notFound });
  });
});

describe('conversation actions and their events', () => {
  it('change-conversation-data: Marcar como respondida and Desativar follow-up automático', async () => {
    const { conversation } = await customerConversation();
    expect(conversation).toMatchObject({
      waiting_response: true,
      auto_follow_up: true,
      follow_up_applies: false,
    });
    const manager = await listen(s.t, 'gerente@demo.com');
    const agent = await login('atendente@demo.com');

    const answered = await s.t.call(
      'change-conversation-data',
      { conversation_id: conversation._id, waiting_response: false },
      agent,
    );
    expect(answered).toMatchObject({ _id: conversation._id, waiting_response: false, auto_follow_up: true });
    expect((await manager.next('conversation_updated')).message).toMatchObject({
      _id: conversation._id,
      waiting_response: false,
    });
    expect(ids(await list(agent, { situation: 'waiting_response' }))).toEqual([]);

    const noFollowUp = await s.t.call(
      'change-conversation-data',
      { conversation_id: conversation._id, auto_follow_up: false },
      agent,
    );
    expect(noFollowUp).toMatchObject({ waiting_response: false, auto_follow_up: false });
    expect((await manager.next('conversation_updated')).message.auto_follow_up).toBe(false);
    expect(await conversationRow(conversation._id)).toMatchObject({
      waitingResponse: false,
      autoFollowUp: false,
    });

    // Only switching off is allowed.
    const on = await errorOf(
      'change-conversation-data',
      { conversation_id: conversation._id, auto_follow_up: true },
      agent,
    );
    expect(on.error).toBe(true);
    expect((await conversationRow(conversation._id))?.autoFollowUp).toBe(false);
  });

  it('set-conversation-manual: a person serves; set_manual and conversation_updated are sent', async () => {
    const { conversation, owner } = await customerConversation();
    await db()
      .update(conversations)
      .set({ isManual: false, chatbotType: 'chatbot' })
      .where(eq(conversations.id, conversation._id));
    const manager = await listen(s.t, 'gerente@demo.com');
    const support = await listen(s.t, 'atendente@demo.com');
    const sales = await listen(s.t, 'atendente2@demo.com');
    const agent = await login('atendente@demo.com');

    const manual = await s.t.call('set-conversation-manual', { conversation_id: conversation._id }, agent);
    expect(manual).toMatchObject({ _id: conversation._id, is_manual: true });
    expect((await manager.next('conversation_updated')).message).toMatchObject({ is_manual: true });
    expect((await support.next('set_manual')).message).toEqual({
      _id: conversation._id,
      user: await userId(agent),
    });
    expect((await manager.next('set_manual')).message._id).toBe(conversation._id);
    await roundTrip(sales.sock);
    expect(sales.events).toEqual([]);
    expect(ids(await list(agent, { types: ['human'] }))).toEqual([conversation._id]);

    await s.t.call('finish-conversation', { conversation_id: conversation._id }, owner);
    expect(await errorOf('set-conversation-manual', { conversation_id: conversation._id }, agent)).toEqual({
      error: true,
      message: texts.conversationAlreadyFinished,
    });
  });

  it('transfer to a department: it leaves one department’s list and joins the other’s, both told', async () => {
    const { conversation } = await customerConversation();
    const support = await listen(s.t, 'atendente@demo.com');
    const sales = await listen(s.t, 'atendente2@demo.com');
    const agent = await login('atendente@demo.com');
    const agent2 = await login('atendente2@demo.com');
    expect(ids(await list(agent))).toEqual([conversation._id]);
    expect(ids(await list(agent2))).toEqual([]);

    const moved = await s.t.call(
      'transfer-conversation',
      { conversation_id: conversation._id, type: 'department', department: s.seed.departments.sales },
      agent,
    );
    expect(moved).toMatchObject({ department: s.seed.departments.sales, is_manual: true, finished: null });
    expect((await sales.next('conversation_updated')).message).toMatchObject({
      _id: conversation._id,
      department: s.seed.departments.sales,
    });
    // Suporte hears it too, and the department in the event tells it the conversation left.
    expect((await support.next('conversation_updated')).message).toMatchObject({
      _id: conversation._id,
      department: s.seed.departments.sales,
    });
    expect(ids(await list(agent2))).toEqual([conversation._id]);
    expect(ids(await list(agent))).toEqual([]);
    expect(
      await errorOf('get-conversations-with-last-message', { conversation_id: conversation._id }, agent),
    ).toEqual({ error: true, message: texts.notFound });
    // Later events reach only Vendas.
    await s.t.call(
      'change-conversation-data',
      { conversation_id: conversation._id, waiting_response: false },
      agent2,
    );
    await sales.next('conversation_updated');
    await roundTrip(support.sock);
    expect(support.events.filter((e) => e.type === 'conversation_updated')).toEqual([]);
  });

  it('transfer from chatbot to a department makes it manual', async () => {
    const { conversation } = await customerConversation();
    await db()
      .update(conversations)
      .set({ isManual: false, chatbotType: 'chatbot' })
      .where(eq(conversations.id, conversation._id));
    const manager = await login('gerente@demo.com');
    const moved = await s.t.call(
      'transfer-conversation',
      { conversation_id: conversation._id, type: 'department', department: s.seed.departments.support },
      manager,
    );
    expect(moved.is_manual).toBe(true);
  });

  it('transfer validation: the spec’s messages, and targets that must exist in the account', async () => {
    const { conversation } = await customerConversation();
    const manager = await login('gerente@demo.com');
    const unknown = '0000000000000000000000000000';
    const foreignDepartment = newId();
    await db()
      .insert(departments)
      .values({ id: foreignDepartment, accountId: await adminAccountId(), name: 'Outra' });
    // Each refusal names the field it belongs to (the shared rule's { field, message }).
    const cases: [Record<string, unknown>, string, string][] = [
      [{ type: '' }, texts.transferTypeRequired, 'type'],
      [{ type: 'department' }, texts.transferDepartmentRequired, 'department'],
      [{ type: 'department', department: null }, texts.transferDepartmentRequired, 'department'],
      [{ type: 'chatbot' }, texts.transferChatbotRequired, 'chatbot'],
      [{ type: 'flow' }, texts.transferFlowRequired, 'flow'],
      [{ type: 'chatbot', chatbot: unknown }, texts.chatbotNotFound, 'chatbot'],
      [{ type: 'flow', flow: unknown }, texts.flowNotFound, 'flow'],
      [{ type: 'department', department: unknown }, texts.departmentNotFound, 'department'],
      [{ type: 'department', department: foreignDepartment }, texts.departmentNotFound, 'department'],
    ];
    for (const [over, message, field] of cases) {
      const res = await errorOf(
        'transfer-conversation',
        { conversation_id: conversation._id, ...over },
        manager,
      );
      expect(res, JSON.stringify(over)).toEqual({ error: true, message, field });
    }
    expect((await conversationRow(conversation._id))?.departmentId).toBe(s.seed.departments.support);
  });

  it('transfer with tags sets the contact’s tags; an unknown tag changes nothing', async () => {
    const { conversation, owner } = await customerConversation();
    const vip = await s.t.call('create-or-update-tag', { name: 'VIP', color: '#FF0000' }, owner);
    const manager = await login('gerente@demo.com');
    const refused = await errorOf(
      'transfer-conversation',
      {
        conversation_id: conversation._id,
        type: 'department',
        department: s.seed.departments.sales,
        tags: [vip._id, '0000000000000000000000000000'],
      },
      manager,
    );
    expect(refused).toEqual({ error: true, message: texts.tagNotFound });
    expect(await conversationRow(conversation._id)).toMatchObject({
      departmentId: s.seed.departments.support,
    });

    const sales = await listen(s.t, 'atendente2@demo.com');
    const moved = await s.t.call(
      'transfer-conversation',
      {
        conversation_id: conversation._id,
        type: 'department',
        department: s.seed.departments.sales,
        tags: [vip._id],
      },
      manager,
    );
    expect(moved.contact.tags).toEqual([vip._id]);
    expect((await sales.next('conversation_updated')).message.contact.tags).toEqual([vip._id]);
    const contact = await s.t.call('get-contact-by-id', { contact_id: conversation.contact._id }, manager);
    expect(contact.tags).toEqual([vip._id]);
  });

  it('a transfer of a finished conversation serves it again, unless the contact has another open one', async () => {
    const { conversation, write } = await customerConversation('5511911112222');
    const manager = await login('gerente@demo.com');
    await s.t.call('finish-conversation', { conversation_id: conversation._id }, manager);
    const agent2 = await login('atendente2@demo.com');
    const moved = await s.t.call(
      'transfer-conversation',
      { conversation_id: conversation._id, type: 'department', department: s.seed.departments.sales },
      manager,
    );
    expect(moved).toMatchObject({ finished: null, department: s.seed.departments.sales });
    expect(ids(await list(agent2))).toEqual([conversation._id]);

    // Finished again; the customer writes, so a new conversation is open on that chip.
    await s.t.call('finish-conversation', { conversation_id: conversation._id }, manager);
    await write('5511911112222', 'de novo');
    const res = await errorOf(
      'transfer-conversation',
      { conversation_id: conversation._id, type: 'department', department: s.seed.departments.support },
      manager,
    );
    expect(res).toEqual({ error: true, message: texts.contactHasOpenConversation });
    expect((await conversationRow(conversation._id))?.finishedAt).not.toBeNull();
  });

  it('finish-conversation: conversation_finished with who finished it; a second finish is refused', async () => {
    const { conversation } = await customerConversation();
    const manager = await listen(s.t, 'gerente@demo.com');
    const support = await listen(s.t, 'atendente@demo.com');
    const sales = await listen(s.t, 'atendente2@demo.com');
    const agent = await login('atendente@demo.com');
    const finished = await s.t.call('finish-conversation', { conversation_id: conversation._id }, agent);
    expect(finished.finished).not.toBeNull();
    const me = await userId(agent);
    expect((await support.next('conversation_finished')).message).toEqual({
      _id: conversation._id,
      user: me,
    });
    expect((await manager.next('conversation_finished')).message).toEqual({
      _id: conversation._id,
      user: me,
    });
    await roundTrip(sales.sock);
    expect(sales.events).toEqual([]);
    expect(ids(await list(agent))).toEqual([]);
    expect(await errorOf('finish-conversation', { conversation_id: conversation._id }, agent)).toEqual({
      error: true,
      message: texts.conversationAlreadyFinished,
    });
    const other = await login('atendente2@demo.com');
    expect(await errorOf('finish-conversation', { conversation_id: conversation._id }, other)).toEqual({
      error: true,
      message: texts.notFound,
    });
  });

  it('resume-conversation: back in the list and told; refused while open or while the contact has another', async () => {
    const { conversation, write } = await customerConversation('5511933334444');
    const agent = await login('atendente@demo.com');
    expect(await errorOf('resume-conversation', { conversation_id: conversation._id }, agent)).toEqual({
      error: true,
      message: texts.conversationNotFinished,
    });
    await s.t.call('finish-conversation', { conversation_id: conversation._id }, agent);
    const manager = await listen(s.t, 'gerente@demo.com');
    const resumed = await s.t.call('resume-conversation', { conversation_id: conversation._id }, agent);
    expect(resumed).toMatchObject({ _id: conversation._id, finished: null });
    expect((await manager.next('conversation_updated')).message).toMatchObject({
      _id: conversation._id,
      finished: null,
    });
    expect(ids(await list(agent))).toEqual([conversation._id]);

    await s.t.call('finish-conversation', { conversation_id: conversation._id }, agent);
    await write('5511933334444', 'outra conversa');
    const newer = await list(agent);
    expect(newer.conversations).toHaveLength(1);
    expect(newer.conversations[0]?._id).not.toBe(conversation._id);
    expect(await errorOf('resume-conversation', { conversation_id: conversation._id }, agent)).toEqual({
      error: true,
      message: texts.contactHasOpenConversation,
    });
    // Two resumes at once of two finished conversations of one contact: one wins, one is refused.
    const [second] = ids(newer) as [string];
    await s.t.call('finish-conversation', { conversation_id: second }, agent);
    const both = await Promise.all(
      [conversation._id, second].map((id) => s.t.post('resume-conversation', { conversation_id: id }, agent)),
    );
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(both.filter((r) => r.body.error)).toEqual([
      { status: 200, body: { error: true, message: texts.contactHasOpenConversation } },
    ]);
    expect((await list(agent)).conversations).toHaveLength(1);
  });

  it('finish-inactive-conversations: only those quiet for longer than `hours`; owners and managers', async () => {
    const chipId = await addChip();
    const now = Date.now();
    const adminAccount = await adminAccountId();
    const foreignChip = await addChip(null, adminAccount);
    const [old, oldNoMessage, recentMessage, recent, sales, foreign] = await insertConversations([
      { chipId, at: new Date(now - 50 * HOUR), createdAt: new Date(now - 60 * HOUR) },
      { chipId, createdAt: new Date(now - 72 * HOUR) },
      // Created long ago, but a message an hour ago: active.
      { chipId, at: new Date(now - 1 * HOUR), createdAt: new Date(now - 100 * HOUR) },
      { chipId, at: new Date(now - 47 * HOUR) },
      { chipId, at: new Date(now - 49 * HOUR), departmentId: s.seed.departments.sales },
      { chipId: foreignChip, at: new Date(now - 500 * HOUR), departmentId: null, accountId: adminAccount },
    ]);
    const agent = await login('atendente@demo.com');
    expect(await errorOf('finish-inactive-conversations', { hours: 48 }, agent)).toEqual({
      error: true,
      message: texts.insufficientPermissions,
    });
    expect(
      await errorOf('finish-inactive-conversations', { hours: 0 }, await login('gerente@demo.com')),
    ).toMatchObject({ error: true });
    const support = await listen(s.t, 'atendente@demo.com');
    const manager = await login('gerente@demo.com');
    // Default 48 hours.
    expect(await s.t.call('finish-inactive-conversations', {}, manager)).toEqual({ finished: 3 });
    const finished = new Set<string>();
    for (let i = 0; i < 2; i++) finished.add((await support.next('conversation_finished')).message._id);
    expect(finished).toEqual(new Set([old, oldNoMessage]));
    await roundTrip(support.sock);
    // The Vendas conversation's event is not for Suporte.
    expect(support.events.filter((e) => e.type === 'conversation_finished')).toEqual([]);
    expect(new Set(ids(await list(manager)))).toEqual(new Set([recentMessage, recent]));
    expect((await conversationRow(sales as string))?.finishedAt).not.toBeNull();
    expect((await conversationRow(foreign as string))?.finishedAt).toBeNull();

    const owner = await login('dono@demo.com');
    expect(await s.t.call('finish-inactive-conversations', { hours: 2 }, owner)).toEqual({ finished: 1 });
    expect(ids(await list(manager))).toEqual([recentMessage]);
  });

  it('finish-inactive-conversations finishes a thousand and more in pieces, each once (issue 37)', async () => {
    const chipId = await addChip();
    const quiet = new Date(Date.now() - 50 * HOUR);
    const many = 1_200;
    const quietOnes = await insertConversations(Array.from({ length: many }, () => ({ chipId, at: quiet })));
    const [active] = await insertConversations([{ chipId, at: new Date() }]);
    const { holds } = s.t.server.database;
    const pieces: number[] = [];
    const stop = holds?.watch((h) => {
      if (h.what.includes('update "conversations" set "finished_at"')) pieces.push(h.ms);
    });
    const owner = await login('dono@demo.com');
    expect(await s.t.call('finish-inactive-conversations', {}, owner)).toEqual({ finished: many });
    stop?.();
    // PGlite: several transactions, not one.
    if (holds) expect(pieces.length).toBeGreaterThan(1);
    for (const id of quietOnes) expect((await conversationRow(id as string))?.finishedAt).not.toBeNull();
    expect((await conversationRow(active as string))?.finishedAt).toBeNull();
  });

  it('create-system-message: a note in the timeline, told to the team', async () => {
    const { conversation } = await customerConversation();
    const support = await listen(s.t, 'atendente@demo.com');
    const sales = await listen(s.t, 'atendente2@demo.com');
    const agent = await login('atendente@demo.com');
    const note = await s.t.call(
      'create-system-message',
      { conversation_id: conversation._id, message: '  Cliente pediu retorno amanhã  ' },
      agent,
    );
    expect(note).toMatchObject({
      conversation_id: conversation._id,
      type: 'system',
      message: 'Cliente pediu retorno amanhã',
      user: await userId(agent),
    });
    expect((await support.next('new_message')).message).toEqual({
      conversation_id: conversation._id,
      message: note,
    });
    await roundTrip(sales.sock);
    expect(sales.events).toEqual([]);
    const history = await s.t.call(
      'get-messages-by-conversation',
      { conversation_id: conversation._id },
      agent,
    );
    expect(history.map((m) => m.type)).toEqual(['text', 'system']);
    expect(
      (await errorOf('create-system-message', { conversation_id: conversation._id, message: '   ' }, agent))
        .error,
    ).toBe(true);
    expect(
      await errorOf(
        'create-system-message',
        { conversation_id: conversation._id, message: 'x' },
        await login('atendente2@demo.com'),
      ),
    ).toEqual({ error: true, message: texts.notFound });
  });
});

describe('the contact drawer', () => {
  it('get-contact-by-id: the department’s attendants and managers; not the other department', async () => {
    const { conversation } = await customerConversation('5511955556666', 'Carla');
    const contactId = conversation.contact._id;
    const details = await s.t.call(
      'get-contact-by-id',
      { contact_id: contactId },
      await login('atendente@demo.com'),
    );
    expect(details).toMatchObject({
      _id: contactId,
      name: 'Carla',
      phone: '5511955556666',
      override_name: null,
      tags: [],
      data: {},
      annotations: [],
    });
    expect(
      (await s.t.call('get-contact-by-id', { contact_id: contactId }, await login('gerente@demo.com')))._id,
    ).toBe(contactId);
    expect(
      await errorOf('get-contact-by-id', { contact_id: contactId }, await login('atendente2@demo.com')),
    ).toEqual({
      error: true,
      message: texts.notFound,
    });
  });

  it('change-contact-name: the override name, shown in the lists at once; empty clears it', async () => {
    const { conversation } = await customerConversation('5511977778888', 'Perfil');
    const support = await listen(s.t, 'atendente@demo.com');
    const agent = await login('atendente@demo.com');
    const named = await s.t.call(
      'change-contact-name',
      { contact_id: conversation.contact._id, override_name: '  Dona Carla  ' },
      agent,
    );
    expect(named).toMatchObject({ name: 'Perfil', override_name: 'Dona Carla' });
    expect((await support.next('conversation_updated')).message).toMatchObject({
      _id: conversation._id,
      contact: { override_name: 'Dona Carla' },
    });
    expect(ids(await list(agent, { text: 'dona carla' }))).toEqual([conversation._id]);

    const cleared = await s.t.call(
      'change-contact-name',
      { contact_id: conversation.contact._id, override_name: '   ' },
      agent,
    );
    expect(cleared.override_name).toBeNull();
    expect((await support.next('conversation_updated')).message.contact.override_name).toBeNull();
    expect(ids(await list(agent, { text: 'dona carla' }))).toEqual([]);
  });

  it('change-contact-tags: account tags only; told to the contact’s open conversations', async () => {
    const { conversation, owner } = await customerConversation();
    const vip = await s.t.call('create-or-update-tag', { name: 'VIP', color: '#FF0000' }, owner);
    const gone = await s.t.call('create-or-update-tag', { name: 'Antiga', color: '#00FF00' }, owner);
    await s.t.call('create-or-update-tag', { _id: gone._id, filed: true }, owner);
    const foreignTag = newId();
    await db()
      .insert(tags)
      .values({ id: foreignTag, accountId: await adminAccountId(), name: 'Outra', color: '#000000' });
    const manager = await listen(s.t, 'gerente@demo.com');
    const agent = await login('atendente@demo.com');
    const contact_id = conversation.contact._id;

    const tagged = await s.t.call(
      'change-contact-tags',
      { contact_id, tags: [vip._id, vip._id], conversation_id: conversation._id },
      agent,
    );
    expect(tagged.tags).toEqual([vip._id]);
    expect((await manager.next('conversation_updated')).message).toMatchObject({
      _id: conversation._id,
      contact: { tags: [vip._id] },
    });
    for (const bad of ['0000000000000000000000000000', foreignTag, gone._id]) {
      expect(await errorOf('change-contact-tags', { contact_id, tags: [vip._id, bad] }, agent)).toEqual({
        error: true,
        message: texts.tagNotFound,
      });
    }
    expect((await s.t.call('get-contact-by-id', { contact_id }, agent)).tags).toEqual([vip._id]);
    expect((await s.t.call('change-contact-tags', { contact_id, tags: [] }, agent)).tags).toEqual([]);
    expect(
      await errorOf('change-contact-tags', { contact_id, tags: [] }, await login('atendente2@demo.com')),
    ).toEqual({ error: true, message: texts.notFound });
  });

  it('change-contact-annotations-and-data: author and date on annotations, trimmed keys, JSON values', async () => {
    const { conversation } = await customerConversation();
    const support = await listen(s.t, 'atendente@demo.com');
    const agent = await login('atendente@demo.com');
    const contact_id = conversation.contact._id;
    const before = Date.now();
    const first = await s.t.call(
      'change-contact-annotations-and-data',
      {
        contact_id,
        data: { ' cpf ': '123.456.789-00', pedidos: 3, endereco: { cidade: 'Recife' } },
        new_annotation: '  Prefere contato à tarde  ',
      },
      agent,
    );
    expect(first.data).toEqual({ cpf: '123.456.789-00', pedidos: 3, endereco: { cidade: 'Recife' } });
    expect(first.annotations).toHaveLength(1);
    expect(first.annotations[0]).toMatchObject({ user: 'Ana Atendente', text: 'Prefere contato à tarde' });
    const created = Date.parse(first.annotations[0]?.created ?? '');
    expect(created).toBeGreaterThanOrEqual(before - 1000);
    expect(created).toBeLessThanOrEqual(Date.now() + 1000);
    expect((await support.next('conversation_updated')).message._id).toBe(conversation._id);

    const manager = await login('gerente@demo.com');
    const second = await s.t.call(
      'change-contact-annotations-and-data',
      { contact_id, data: { cpf: '123.456.789-00' }, new_annotation: 'Ligou de novo' },
      manager,
    );
    expect(second.data).toEqual({ cpf: '123.456.789-00' });
    expect(second.annotations.map((a) => [a.user, a.text])).toEqual([
      ['Ana Atendente', 'Prefere contato à tarde'],
      ['Gerente da Loja', 'Ligou de novo'],
    ]);
    // A blank annotation adds nothing.
    const third = await s.t.call(
      'change-contact-annotations-and-data',
      { contact_id, data: { cpf: '1' }, new_annotation: '   ' },
      manager,
    );
    expect(third.annotations).toHaveLength(2);
    // Two keys that are the same once trimmed: the duplicate-key rule, not a silent loss.
    expect(
      await errorOf(
        'change-contact-annotations-and-data',
        { contact_id, data: { cpf: '1', ' cpf': '2' } },
        manager,
      ),
    ).toEqual({ error: true, message: texts.contactVariableDuplicate });
    expect((await s.t.call('get-contact-by-id', { contact_id }, manager)).data).toEqual({ cpf: '1' });
  });

  it('a contact change is told for each of the contact’s open conversations, only those', async () => {
    const first = await customerConversation('5511944445555', 'Duas Linhas');
    const second = await simulatorChip({ name: 'Vendas', department: s.seed.departments.sales });
    const manager = await listen(s.t, 'gerente@demo.com');
    await second.write('5511944445555', 'oi pelo outro número');
    const { message: other } = await manager.next('new_conversation');
    expect(other.contact._id).toBe(first.conversation.contact._id);
    await s.t.call(
      'change-contact-name',
      { contact_id: other.contact._id, override_name: 'Dona' },
      first.owner,
    );
    const told = new Set<string>();
    for (let i = 0; i < 2; i++) told.add((await manager.next('conversation_updated')).message._id);
    expect(told).toEqual(new Set([first.conversation._id, other._id]));

    await s.t.call('finish-conversation', { conversation_id: other._id }, first.owner);
    await s.t.call(
      'change-contact-name',
      { contact_id: other.contact._id, override_name: 'Outra' },
      first.owner,
    );
    expect((await manager.next('conversation_updated')).message._id).toBe(first.conversation._id);
    await roundTrip(manager.sock);
    expect(manager.events.filter((e) => e.type === 'conversation_updated')).toEqual([]);
  });
});

describe('the account boundary', () => {
  it('another account gets not found for every call with this account’s ids', async () => {
    const { conversation, owner } = await customerConversation();
    const vip = await s.t.call('create-or-update-tag', { name: 'VIP', color: '#FF0000' }, owner);
    const admin = await login('admin@demo.com');
    const conversation_id = conversation._id;
    const contact_id = conversation.contact._id;
    const calls: [string, Record<string, unknown>][] = [
      ['get-conversations-with-last-message', { conversation_id }],
      ['change-conversation-data', { conversation_id, waiting_response: false }],
      ['set-conversation-manual', { conversation_id }],
      [
        'transfer-conversation',
        { conversation_id, type: 'department', department: s.seed.departments.sales },
      ],
      ['finish-conversation', { conversation_id }],
      ['resume-conversation', { conversation_id }],
      ['create-system-message', { conversation_id, message: 'olá' }],
      ['get-contact-by-id', { contact_id }],
      ['change-contact-name', { contact_id, override_name: 'x' }],
      ['change-contact-tags', { contact_id, tags: [] }],
      ['change-contact-annotations-and-data', { contact_id, data: {}, new_annotation: 'x' }],
    ];
    for (const [call, body] of calls) {
      expect(await errorOf(call, body, admin), call).toEqual({ error: true, message: texts.notFound });
    }
    // Its own list is empty, and its bulk finish leaves this account alone.
    expect(await list(admin)).toEqual({ conversations: [], load_more: false });
    expect(await s.t.call('finish-inactive-conversations', { hours: 1 }, admin)).toEqual({ finished: 0 });
    await db()
      .update(conversations)
      .set({ lastMessageAt: new Date(Date.now() - 100 * HOUR) })
      .where(eq(conversations.id, conversation_id));
    expect(await s.t.call('finish-inactive-conversations', { hours: 1 }, admin)).toEqual({ finished: 0 });
    // Nothing changed.
    const row = await conversationRow(conversation_id);
    expect(row).toMatchObject({
      waitingResponse: true,
      finishedAt: null,
      departmentId: s.seed.departments.support,
    });
    const [contact] = await db().select().from(contacts).where(eq(contacts.id, contact_id));
    expect(contact).toMatchObject({ overrideName: null, tags: [], annotations: [] });
    expect(
      (await db().select().from(messages).where(eq(messages.conversationId, conversation_id))).length,
    ).toBe(1);
    // Its tag ids are not usable either way.
    expect(
      await errorOf(
        'transfer-conversation',
        { conversation_id, type: 'department', department: s.seed.departments.sales, tags: [vip._id] },
        admin,
      ),
    ).toEqual({ error: true, message: texts.notFound });
  });
});
