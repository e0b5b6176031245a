// The integrations' outbound module (issue 20): a text, a flow and an approved template sent to a phone on
// one of the account's chips, each idempotent by the caller's key (repeated, even at once, it sends once and
// answers the same), with 404 for another account's chip or flow, 400 for a phone that cannot be
// normalised, and the official number's 24 h window.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { apiKeyActor } from '@/server/access';
import {
  campaignRecipients,
  campaigns,
  contacts,
  conversations,
  messages,
  outboundSends,
} from '@/server/db/schema';
import { createAccount } from '@/server/domains/accounts/accounts.service';
import * as outbound from '@/server/domains/integrations/outbound';
import { outboundMessageId } from '@/server/domains/integrations/outbound';
import type { AppError } from '@/server/http/errors';
import type { Services } from '@/server/services';
import { newId } from '@/shared/ids';
import { messages as texts } from '@/shared/messages';
import { apiMessages } from '@/shared/messages-api';
import { officialCampaignMessages } from '@/shared/messages-campaigns';
import { type FakeGraph, startFakeGraph } from '../fakes/graph-api';
import { connected, connectedSimulatorChip, simulatorSocket, until } from './channel-helpers';
import { flowsSettled, insertFlow, openConversationOf, waitBot } from './flow-helpers';
import { testServerPerFile } from './helpers';
import { graphEnv, officialChip, WABA } from './official-helpers';

const graph: FakeGraph = await startFakeGraph();
const s = testServerPerFile(graphEnv(graph));
afterAll(() => graph.close());
beforeEach(() => graph.clear());

const services = () => s.t.server.services;

// The sends as the public API makes them: the caller is the account's key (apiKeyActor).
type Input<F extends (...a: never[]) => unknown> = { accountId: string } & Parameters<F>[2];
const sendTextTo = (sv: Services, { accountId, ...o }: Input<typeof outbound.sendTextTo>) =>
  outbound.sendTextTo(sv, apiKeyActor(accountId), o);
const startFlowFor = (sv: Services, { accountId, ...o }: Input<typeof outbound.startFlowFor>) =>
  outbound.startFlowFor(sv, apiKeyActor(accountId), o);
const sendTemplateTo = (sv: Services, { accountId, ...o }: Input<typeof outbound.sendTemplateTo>) =>
  outbound.sendTemplateTo(sv, apiKeyActor(accountId), o);
const db = () => services().db;
let n = 0;
const newPhone = () => `55119${String(70000000 + n++).padStart(8, '0')}`;

async function simulatorChip() {
  const owner = await s.t.login('dono@demo.com');
  const { chip, simulatorToken } = await connectedSimulatorChip(s.t, owner, {
    department: s.seed.departments.support,
  });
  return { chipId: chip._id, token: simulatorToken };
}

/** The customer's phone page on the simulator: what it received. */
async function phonePage(token: string, phone: string) {
  const page = simulatorSocket(s.t, token, phone);
  await connected(page.sock);
  return { ...page, texts: () => page.events.filter((e) => e.type === 'message') };
}

const failure = async (p: Promise<unknown>) => {
  const err = (await p.then(
    () => null,
    (e: unknown) => e,
  )) as AppError | null;
  if (!err) throw new Error('expected a failure');
  return { status: err.status, message: err.message };
};

const storedById = async (id: string) => (await db().select().from(messages).where(eq(messages.id, id)))[0];

const storedTexts = (accountId: string, key: string) =>
  db()
    .select()
    .from(messages)
    .where(and(eq(messages.accountId, accountId), eq(messages.messageId, outboundMessageId(key))));

describe('sendTextTo', () => {
  it('sends to the phone once per key, even asked 5 times at once, and answers the same each time', async () => {
    const { chipId, token } = await simulatorChip();
    const phone = newPhone();
    const page = await phonePage(token, phone);
    const input = { accountId: s.seed.accountId, chipId, phone, text: 'Seu pedido saiu', key: 'test:1' };
    const answers = await Promise.all(Array.from({ length: 5 }, () => sendTextTo(services(), input)));
    // One message: every answer names it; a repeat that came while the first was still sending says
    // 'pending' (never 'sent' before it is), and once it is sent every repeat says so.
    const first = answers.find((a) => a.status === 'sent');
    expect(first).toMatchObject({ status: 'sent', failure: null });
    for (const a of answers) {
      expect(a).toMatchObject({ conversation_id: first?.conversation_id, message_id: first?.message_id });
      expect(['sent', 'pending']).toContain(a.status);
    }
    expect(await sendTextTo(services(), input)).toEqual(first);
    await until(() => page.texts().length >= 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(page.texts()).toHaveLength(1);
    expect(await storedTexts(s.seed.accountId, 'test:1')).toHaveLength(1);
    // The conversation is the phone's on that chip (opened for it), and a new key is a new message.
    const conversation = await openConversationOf(services(), phone);
    expect(first?.conversation_id).toBe(conversation.id);
    const second = await sendTextTo(services(), { ...input, key: 'test:2', text: 'Chegou?' });
    expect(second.conversation_id).toBe(conversation.id);
    expect(second.message_id).not.toBe(first?.message_id);
    await until(() => page.texts().length >= 2);
    page.sock.close();
  });

  it('the API’s text and a webhook’s flow answer no one: a customer who wrote still waits (spec 2 §4)', async () => {
    const { chipId, token } = await simulatorChip();
    const phone = newPhone();
    await s.t.call('simulator-send', {
      token,
      phone,
      name: 'Rita',
      id: `o${phone}`,
      type: 'text',
      text: 'Oi',
    });
    const conversation = await openConversationOf(services(), phone);
    const flowId = await insertFlow(
      services(),
      s.seed.accountId,
      [
        { id: 'start', type: 'start' },
        { id: 'hello', type: 'message', data: { kind: 'text', text: 'Pedido recebido' } },
      ],
      [['start', 'hello']],
    );
    const base = { accountId: s.seed.accountId, chipId, phone };
    expect(await sendTextTo(services(), { ...base, text: 'Seu pedido saiu', key: 'wait:1' })).toMatchObject({
      conversation_id: conversation.id,
      status: 'sent',
    });
    await startFlowFor(services(), { ...base, flowId, variables: {}, key: 'wait:2' });
    const [flowMessage] = await waitBot(services(), conversation.id, 1);
    await until(async () => ((await storedById(flowMessage?.id ?? ''))?.status ?? 0) >= 1);
    await flowsSettled(services());
    const [row] = await db().select().from(conversations).where(eq(conversations.id, conversation.id));
    expect(row).toMatchObject({ waitingResponse: true, isNew: true });
  });

  it('refuses another account’s chip (404, as if missing), a bad phone (400) and an empty text; sends nothing', async () => {
    const { chipId } = await simulatorChip();
    const { accountId: other } = await createAccount(db(), {
      account: { name: 'Outra', maxChannels: 5 },
      owner: { name: 'Outro dono', email: `outro${n++}@exemplo.com`, passwordHash: 'x' },
    });
    const base = { accountId: s.seed.accountId, chipId, phone: newPhone(), text: 'Oi', key: 'k' };
    expect(await failure(sendTextTo(services(), { ...base, accountId: other }))).toEqual({
      status: 404,
      message: apiMessages.chipNotFound,
    });
    expect(await failure(sendTextTo(services(), { ...base, chipId: 'nao-e-um-id' }))).toMatchObject({
      status: 404,
    });
    expect(await failure(sendTextTo(services(), { ...base, phone: '12' }))).toEqual({
      status: 400,
      message: texts.invalidPhone,
    });
    expect(await failure(sendTextTo(services(), { ...base, text: '  ' }))).toMatchObject({ status: 400 });
    expect(await db().select().from(messages)).toHaveLength(0);
  });
});

describe('startFlowFor', () => {
  it('starts the flow once per key, with the metadata as contact variables the flow reads', async () => {
    const { chipId, token } = await simulatorChip();
    const phone = newPhone();
    const page = await phonePage(token, phone);
    const flowId = await insertFlow(
      services(),
      s.seed.accountId,
      [
        { id: 'start', type: 'start' },
        { id: 'hello', type: 'message', data: { kind: 'text', text: 'Pedido {pedido} confirmado' } },
      ],
      [['start', 'hello']],
    );
    const input = {
      accountId: s.seed.accountId,
      chipId,
      phone,
      flowId,
      variables: { pedido: 'A-123' },
      key: 'flow:1',
    };
    const answers = await Promise.all([startFlowFor(services(), input), startFlowFor(services(), input)]);
    expect(answers[0]).toEqual(answers[1]);
    const conversationId = answers[0]?.conversation_id ?? '';
    const sent = await waitBot(services(), conversationId, 1);
    expect(sent.map((m) => m.message)).toEqual(['Pedido A-123 confirmado']);
    await flowsSettled(services());
    expect(await startFlowFor(services(), input)).toEqual(answers[0]);
    await flowsSettled(services());
    await new Promise((r) => setTimeout(r, 300));
    expect(page.texts()).toHaveLength(1);
    const [contact] = await db().select().from(contacts).where(eq(contacts.phone, phone));
    expect(contact?.data).toMatchObject({ pedido: 'A-123' });
    expect(await db().select().from(outboundSends)).toHaveLength(1);
    page.sock.close();
  });

  it('a mapped nome names a new contact and never renames one the business named; the flow reads both', async () => {
    const { chipId } = await simulatorChip();
    const flowId = await insertFlow(
      services(),
      s.seed.accountId,
      [
        { id: 'start', type: 'start' },
        { id: 'hello', type: 'message', data: { kind: 'text', text: 'Olá, {nome:first}!' } },
      ],
      [['start', 'hello']],
    );
    const named = newPhone();
    await db()
      .insert(contacts)
      .values({ id: newId(), accountId: s.seed.accountId, phone: named, name: 'Ana Souza' });
    const fresh = newPhone();
    const greeting = async (phone: string, key: string) => {
      const { conversation_id } = await startFlowFor(services(), {
        accountId: s.seed.accountId,
        chipId,
        phone,
        flowId,
        variables: { nome: 'Joana Lima' },
        key,
      });
      return (await waitBot(services(), conversation_id, 1))[0]?.message;
    };
    expect(await greeting(fresh, 'name:1')).toBe('Olá, Joana!');
    expect(await greeting(named, 'name:2')).toBe('Olá, Ana!');
    await flowsSettled(services());
    const names = await db().select({ phone: contacts.phone, name: contacts.name }).from(contacts);
    expect(names).toEqual(
      expect.arrayContaining([
        { phone: fresh, name: 'Joana Lima' },
        { phone: named, name: 'Ana Souza' },
      ]),
    );
  });

  it('another account’s flow is not found (404) and nothing is opened', async () => {
    const { chipId } = await simulatorChip();
    const { accountId: other } = await createAccount(db(), {
      account: { name: 'Outra', maxChannels: 5 },
      owner: { name: 'Outro dono', email: `outro${n++}@exemplo.com`, passwordHash: 'x' },
    });
    const foreignFlow = await insertFlow(services(), other, [{ id: 'start', type: 'start' }], []);
    const phone = newPhone();
    expect(
      await failure(
        startFlowFor(services(), {
          accountId: s.seed.accountId,
          chipId,
          phone,
          flowId: foreignFlow,
          key: 'f',
        }),
      ),
    ).toEqual({ status: 404, message: texts.flowNotFound });
    expect(await db().select().from(contacts).where(eq(contacts.phone, phone))).toHaveLength(0);
  });
});

describe('official chips', () => {
  const TEMPLATE = {
    name: 'pedido_enviado',
    status: 'APPROVED',
    language: 'pt_BR',
    category: 'UTILITY',
    components: [
      { type: 'BODY', text: 'Olá {{1}}, seu pedido {{2}} foi enviado.' },
      { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Rastrear' }] },
    ],
  };
  beforeEach(() => {
    graph.templates[WABA] = [TEMPLATE];
  });

  it('a text outside the 24 h window is refused with the reason; nothing is opened', async () => {
    const { chipId } = await officialChip(s.t, s.seed.departments.support);
    const phone = newPhone();
    expect(
      await failure(
        sendTextTo(services(), { accountId: s.seed.accountId, chipId, phone, text: 'Oi', key: 'o' }),
      ),
    ).toEqual({ status: 400, message: apiMessages.officialWindowClosed });
    expect(graph.sent).toHaveLength(0);
  });

  it('a template is sent once per key (a one-person official campaign) with its variables', async () => {
    const { chipId } = await officialChip(s.t, s.seed.departments.support);
    const phone = newPhone();
    const input = {
      accountId: s.seed.accountId,
      chipId,
      phone,
      template: 'pedido_enviado',
      variables: { '1': 'Maria', '2': 'A-9' },
      key: 'tpl:1',
    };
    const answers = await Promise.all([sendTemplateTo(services(), input), sendTemplateTo(services(), input)]);
    expect(answers[0]).toEqual(answers[1]);
    const campaignId = answers[0]?.campaign_id ?? '';
    await until(async () => {
      const [c] = await db().select().from(campaigns).where(eq(campaigns.id, campaignId));
      return c?.status === 'finished';
    }, 15_000);
    expect(await sendTemplateTo(services(), input)).toEqual(answers[0]);
    expect(graph.sent.map((x) => x.to)).toEqual([phone]);
    const [person] = await db()
      .select()
      .from(campaignRecipients)
      .where(eq(campaignRecipients.campaignId, campaignId));
    expect(person).toMatchObject({ phone, status: 'sent' });
    const [c] = await db().select().from(campaigns).where(eq(campaigns.id, campaignId));
    expect(c).toMatchObject({ name: apiMessages.templateCampaignName('pedido_enviado'), official: true });
    expect(c?.templateParameters.map((p) => p.fallback)).toEqual(['Maria', 'A-9']);
  });

  it('a missing variable, a template not approved and a regular chip are refused; nothing is sent', async () => {
    const { chipId } = await officialChip(s.t, s.seed.departments.support);
    const base = { accountId: s.seed.accountId, chipId, phone: newPhone(), template: 'pedido_enviado' };
    expect(
      await failure(sendTemplateTo(services(), { ...base, variables: { '1': 'Maria' }, key: 'a' })),
    ).toEqual({ status: 200, message: officialCampaignMessages.parameterRequired('{{2}}') });
    expect(await failure(sendTemplateTo(services(), { ...base, template: 'nao_existe', key: 'b' }))).toEqual({
      status: 200,
      message: officialCampaignMessages.templateNotApproved,
    });
    const { chipId: regular } = await simulatorChip();
    expect(await failure(sendTemplateTo(services(), { ...base, chipId: regular, key: 'c' }))).toEqual({
      status: 400,
      message: apiMessages.chipNotOfficial,
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(graph.sent).toHaveLength(0);
    expect(await db().select().from(campaigns)).toHaveLength(0);
  });
});
