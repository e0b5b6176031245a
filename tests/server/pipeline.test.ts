// The message pipeline end to end on the simulator channel: a customer writes from the simulator page,
// the team sees it on the socket (only who may), answers, and the page gets the answer and marks it read.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { contacts, conversations, messages } from '@/server/db/schema';
import { messages as texts } from '@/shared/messages';
import {
  collect,
  connected,
  connectedSimulatorChip,
  listen,
  roundTrip,
  simulatorSocket,
  until,
} from './channel-helpers';
import { testServerPerFile } from './helpers';

const s = testServerPerFile();

const customer = { phone: '11 98765-4321', name: 'Maria Cliente' };
let seq = 0;
const localId = () => `m${Date.now().toString(36)}${(seq++).toString(36)}xx`;

async function setup() {
  const owner = await s.t.login('dono@demo.com');
  const { chip, simulatorToken, status } = await connectedSimulatorChip(s.t, owner, {
    department: s.seed.departments.support,
  });
  return { owner, chip, simulatorToken, status };
}

describe('the inbound pipeline (simulator)', () => {
  it('connects by opening the QR link; the status event says open', async () => {
    const { chip, status } = await setup();
    expect(status).toBe('open');
    const [listed] = await s.t.call('get-chip-numbers-by-user', {}, await s.t.login('gerente@demo.com'));
    expect(listed).toMatchObject({ _id: chip._id, status: 'open', qrcode: null });
  });

  it('stores contact, conversation and message; tells managers and the department, not other departments', async () => {
    const { simulatorToken, chip } = await setup();
    const manager = await listen(s.t, 'gerente@demo.com');
    const support = await listen(s.t, 'atendente@demo.com');
    const sales = await listen(s.t, 'atendente2@demo.com');

    await s.t.call('simulator-send', {
      token: simulatorToken,
      ...customer,
      id: localId(),
      type: 'text',
      text: 'Olá, quero um orçamento',
    });
    const created = await manager.next('new_conversation');
    expect(created.message).toMatchObject({
      chip: chip._id,
      department: s.seed.departments.support,
      is_manual: true,
      is_new: true,
      waiting_response: true,
      contact: { phone: '5511987654321', name: 'Maria Cliente' },
      last_message: { origin: 'customer', type: 'text', message: 'Olá, quero um orçamento' },
    });
    expect((await support.next('new_conversation')).message._id).toBe(created.message._id);

    await s.t.call('simulator-send', {
      token: simulatorToken,
      ...customer,
      id: localId(),
      type: 'text',
      text: 'Alguém aí?',
    });
    const second = await support.next('new_message');
    expect(second.message).toMatchObject({
      conversation_id: created.message._id,
      message: { message: 'Alguém aí?' },
    });
    await manager.next('new_message');
    await roundTrip(sales.sock);
    expect(sales.events).toEqual([]);

    // One contact, one open conversation, two messages.
    const db = s.t.server.services.db;
    expect(await db.select().from(contacts).where(eq(contacts.accountId, s.seed.accountId))).toHaveLength(1);
    expect(await db.select().from(conversations).where(eq(conversations.chipId, chip._id))).toHaveLength(1);
    expect(
      await s.t.call(
        'get-messages-by-conversation',
        { conversation_id: created.message._id },
        await s.t.login('atendente@demo.com'),
      ),
    ).toHaveLength(2);
    // The other department's attendant cannot read it.
    const denied = await s.t.post(
      'get-messages-by-conversation',
      { conversation_id: created.message._id },
      await s.t.login('atendente2@demo.com'),
    );
    expect(denied.body).toEqual({ error: true, message: texts.notFound });
  });

  it('the answer reaches the simulated phone, clears waiting_response and is_new; read comes back', async () => {
    const { simulatorToken } = await setup();
    const phone = simulatorSocket(s.t, simulatorToken, customer.phone);
    await connected(phone.sock);
    const agentToken = await s.t.login('atendente@demo.com');
    const agent = collect(s.t.socket(agentToken));
    await connected(agent.sock);
    await s.t.call('simulator-send', {
      token: simulatorToken,
      ...customer,
      id: localId(),
      type: 'text',
      text: 'Oi',
    });
    const { message: conversation } = await agent.next('new_conversation');

    const sent = await s.t.call(
      'send-conversation-message',
      { conversation_id: conversation._id, message_id: localId(), text: 'Olá Maria! Como posso ajudar?' },
      agentToken,
    );
    expect(sent).toMatchObject({ origin: 'user', status: 1, message: 'Olá Maria! Como posso ajudar?' });
    const onPhone = await until(() => phone.events.find((e) => e.type === 'message'));
    expect(onPhone).toMatchObject({ message: { from_me: true, text: 'Olá Maria! Como posso ajudar?' } });

    const [row] = await s.t.server.services.db
      .select()
      .from(conversations)
      .where(eq(conversations.id, conversation._id));
    expect(row).toMatchObject({ waitingResponse: false, isNew: false });

    await s.t.call('simulator-mark', {
      token: simulatorToken,
      phone: customer.phone,
      ids: [sent.platform_message_id],
      status: 4,
    });
    const read = await agent.next('message_read');
    expect(read.message).toEqual({ conversation_id: conversation._id, _id: sent._id, status: 4 });

    // The page's history has both sides.
    const history = await s.t.call('simulator-get-messages', {
      token: simulatorToken,
      phone: customer.phone,
    });
    expect(history.map((m) => [m.from_me, m.text, m.status])).toEqual([
      [false, 'Oi', 1],
      [true, 'Olá Maria! Como posso ajudar?', 4],
    ]);
  });

  it('auto-tags the contact from the text', async () => {
    const { simulatorToken } = await setup();
    const owner = await s.t.login('dono@demo.com');
    const tag = await s.t.call(
      'create-or-update-tag',
      { name: 'Orçamento', color: '#FF0000', auto_tag: true, keywords: ['orcamento'] },
      owner,
    );
    await s.t.call('simulator-send', {
      token: simulatorToken,
      ...customer,
      id: localId(),
      type: 'text',
      text: 'Preciso de um ORÇAMENTO',
    });
    const [contact] = await s.t.server.services.db
      .select()
      .from(contacts)
      .where(and(eq(contacts.accountId, s.seed.accountId), eq(contacts.phone, '5511987654321')));
    expect(contact?.tags).toEqual([tag._id]);
  });

  it('an ignored contact’s message is stored and nothing else happens', async () => {
    const { simulatorToken } = await setup();
    const manager = await listen(s.t, 'gerente@demo.com');
    await s.t.call('simulator-send', {
      token: simulatorToken,
      ...customer,
      id: localId(),
      type: 'text',
      text: '1',
    });
    const { message: conversation } = await manager.next('new_conversation');
    const db = s.t.server.services.db;
    await db.update(contacts).set({ ignore: true }).where(eq(contacts.id, conversation.contact._id));
    await db
      .update(conversations)
      .set({ waitingResponse: false })
      .where(eq(conversations.id, conversation._id));

    await s.t.call('simulator-send', {
      token: simulatorToken,
      ...customer,
      id: localId(),
      type: 'text',
      text: '2',
    });
    const stored = await db.select().from(messages).where(eq(messages.conversationId, conversation._id));
    expect(stored.map((m) => m.message).sort()).toEqual(['1', '2']);
    const [after] = await db.select().from(conversations).where(eq(conversations.id, conversation._id));
    expect(after?.waitingResponse).toBe(false);
    expect(manager.events.filter((e) => e.type === 'new_message')).toEqual([]);
  });
});
