// Flows' menus on the simulator channel: the simulated phone gets WhatsApp's buttons or list (the simulator
// plays an official number), or the numbered text when its page asks to play a number without them; a tap
// on an option arrives as the customer's message with the option's title and the choice named. The panel's
// messages carry the menu, so the team sees what the customer was offered.
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chips, messages } from '@/server/db/schema';
import type { InteractiveMenu } from '@/shared/contract/common';
import { messages as texts } from '@/shared/messages';
import { numberedMenu } from '@/shared/rules/menu';
import { collect, connected, connectedSimulatorChip, simulatorSocket, until } from './channel-helpers';
import { testServerPerFile } from './helpers';

const s = testServerPerFile();
afterEach(() => vi.restoreAllMocks());

const customer = { phone: '11 98765-4321', name: 'Maria Cliente' };
const wa = '5511987654321';
let seq = 0;
const localId = () => `m${Date.now().toString(36)}${(seq++).toString(36)}xx`;

const buttons: InteractiveMenu = {
  kind: 'buttons',
  button: null,
  options: [
    { id: 'sim', title: 'Sim' },
    { id: 'nao', title: 'Não' },
  ],
};
const list: InteractiveMenu = {
  kind: 'list',
  button: 'Ver assuntos',
  options: [
    { id: 'fin', title: 'Financeiro', description: 'Boletos e notas' },
    { id: 'sup', title: 'Suporte' },
  ],
};

async function setup() {
  const owner = await s.t.login('dono@demo.com');
  const { chip, simulatorToken } = await connectedSimulatorChip(s.t, owner, {
    department: s.seed.departments.support,
  });
  return { owner, simulatorToken, chipId: chip._id };
}

const chipRow = async (id: string) => {
  const [row] = await s.t.server.services.db.select().from(chips).where(eq(chips.id, id));
  if (!row) throw new Error('no chip');
  return row;
};

/** Sends a menu the way the engine does: the body, the menu, and its numbered text for other numbers. */
const sendMenu = async (chipId: string, body: string, menu: InteractiveMenu) =>
  s.t.server.services.channels.simulator.adapter.send(await chipRow(chipId), wa, {
    type: 'interactive',
    body,
    menu,
    text: numberedMenu(body, menu),
  });

describe("flows' menus on the simulated phone", () => {
  it('arrive as buttons or a list under their text; with numbered menus asked, as the numbered text', async () => {
    const { simulatorToken, chipId } = await setup();
    expect(await s.t.call('simulator-open', { token: simulatorToken })).toMatchObject({
      numbered_menus: false,
    });
    const phone = simulatorSocket(s.t, simulatorToken, customer.phone);
    await connected(phone.sock);

    await sendMenu(chipId, 'Podemos confirmar?', buttons);
    await sendMenu(chipId, 'Escolha um assunto', list);
    const menus = await until(() => {
      const got = phone.events.filter((e) => e.type === 'message');
      return got.length === 2 ? got : undefined;
    });
    expect(menus.map((e) => e.type === 'message' && [e.message.text, e.message.interactive])).toEqual([
      ['Podemos confirmar?', buttons],
      ['Escolha um assunto', list],
    ]);

    await s.t.call('simulator-set-menus', { token: simulatorToken, numbered: true });
    expect(await s.t.call('simulator-open', { token: simulatorToken })).toMatchObject({
      numbered_menus: true,
    });
    await sendMenu(chipId, 'Podemos confirmar?', buttons);
    const numbered = await until(() => phone.events.filter((e) => e.type === 'message')[2]);
    expect(numbered).toMatchObject({
      message: { text: `Podemos confirmar?\n\n1. Sim\n2. Não\n\n${texts.flowMenuFooter}` },
    });
    expect(numbered.type === 'message' && numbered.message.interactive).toBeFalsy();

    // Reconnecting the chip (a new QR code) keeps the page's choice.
    const owner = await s.t.login('dono@demo.com');
    await s.t.call('connect-chip', { _id: chipId, connect: true }, owner);
    expect(await s.t.call('simulator-open', { token: simulatorToken })).toMatchObject({
      numbered_menus: true,
    });
    phone.sock.close();
  });

  it('a tap sends the option title as the customer text, with the choice, once per page id', async () => {
    const { simulatorToken } = await setup();
    const inbound = vi.spyOn(s.t.server.services.channels.sink, 'inbound');
    const id = localId();
    const tap = {
      token: simulatorToken,
      ...customer,
      id,
      type: 'text' as const,
      text: '',
      choice: { id: 'fin', title: 'Financeiro' },
    };
    const answer = await s.t.call('simulator-send', tap);
    expect(answer).toMatchObject({ from_me: false, type: 'text', text: 'Financeiro' });
    expect(inbound).toHaveBeenCalledWith(
      // The chip, as the simulator read it.
      expect.objectContaining({ provider: 'simulator' }),
      expect.objectContaining({
        type: 'text',
        text: 'Financeiro',
        choice: { id: 'fin', title: 'Financeiro' },
      }),
    );
    // A retry of the same tap (same page id) is one message.
    await s.t.call('simulator-send', tap);
    const rows = await s.t.server.services.db.select().from(messages);
    expect(rows.filter((m) => m.origin === 'customer').map((m) => m.message)).toEqual(['Financeiro']);

    // Typed text carries no choice.
    await s.t.call('simulator-send', { ...tap, id: localId(), text: '1', choice: undefined });
    expect(inbound.mock.calls.at(-1)?.[1]).not.toHaveProperty('choice');
  });

  it('the history and the panel show the menu a message carried; numbered menus show its numbered text', async () => {
    const { simulatorToken, owner } = await setup();
    const team = collect(s.t.socket(owner));
    await connected(team.sock);
    await s.t.call('simulator-send', {
      token: simulatorToken,
      ...customer,
      id: localId(),
      type: 'text',
      text: 'Oi',
    });
    const { message: conversation } = await team.next('new_conversation');
    const sent = await s.t.call(
      'send-conversation-message',
      { conversation_id: conversation._id, message_id: localId(), text: 'Escolha um assunto' },
      owner,
    );
    // The engine stores its menus so; an attendant's message has none.
    await s.t.server.services.db.update(messages).set({ interactive: list }).where(eq(messages.id, sent._id));

    const history = await s.t.call('simulator-get-messages', {
      token: simulatorToken,
      phone: customer.phone,
    });
    expect(history.map((m) => [m.from_me, m.text, m.interactive ?? null])).toEqual([
      [false, 'Oi', null],
      [true, 'Escolha um assunto', list],
    ]);
    const panel = await s.t.call(
      'get-messages-by-conversation',
      { conversation_id: conversation._id },
      owner,
    );
    expect(panel.map((m) => m.interactive ?? null)).toEqual([null, list]);

    await s.t.call('simulator-set-menus', { token: simulatorToken, numbered: true });
    const numbered = await s.t.call('simulator-get-messages', {
      token: simulatorToken,
      phone: customer.phone,
    });
    expect(numbered[1]).toMatchObject({ text: numberedMenu('Escolha um assunto', list), interactive: null });
    team.sock.close();
  });

  it('refuses a bad link for the menus switch', async () => {
    const res = await s.t.post('simulator-set-menus', { token: 'x'.repeat(43), numbered: true });
    expect(res.body).toMatchObject({ error: true, message: texts.simulatorLinkInvalid });
  });
});
