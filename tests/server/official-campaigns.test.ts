// Official campaigns' calls and the person's conversation (issue 19; spec 3 §2.11, §3 Official campaign extras,
// §5 Official campaign, §7): create-or-update-official-campaign with every validation message, the plan and
// access gate, the listing with delivery_data, the report's extras and sheet; the conversation opened with
// the campaign's settings (rule 'all' right after the send, 'on_response' only at a reply, the template
// before the reply, its wamid so receipts reach it) and a quick-reply tap starting its button's flow.
// The sending itself is official-engine's (official-campaigns-engine.test.ts): the people are written here
// as the job leaves them (status sent, wamid, sent_at) on a campaign already finished, so no job runs.
import { and, asc, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  accounts,
  audiencePeople,
  audiences,
  campaignRecipients,
  campaigns,
  chips,
  contacts,
  conversations,
  messages,
} from '@/server/db/schema';
import { openOfficialConversation } from '@/server/domains/campaigns/official-conversation';
import { jobKinds } from '@/server/jobs';
import { OFFICIAL_CAMPAIGN_JOB } from '@/server/jobs/official-campaigns';
import { MESSAGE_STATUS } from '@/shared/constants';
import type { Campaign } from '@/shared/contract/campaigns';
import { newId } from '@/shared/ids';
import { messages as texts } from '@/shared/messages';
import { campaignMessages, officialCampaignMessages as m } from '@/shared/messages-campaigns';
import {
  type FakeGraph,
  graphEnv,
  messagesNotification,
  postWebhook,
  startFakeGraph,
} from '../fakes/graph-api';
import { connectedSimulatorChip, listen, until } from './channel-helpers';
import { testServerPerFile } from './helpers';

const SECRET = 'app-secret-official-campaigns';
const PHONE_NUMBER_ID = '1029384756';
const WABA = '5647382910';
// Smallest valid PNG (1×1): the media store checks images by content.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const graph: FakeGraph = await startFakeGraph();
const s = testServerPerFile({
  ...graphEnv(graph, { WHATSAPP_APP_SECRET: SECRET }),
});
afterAll(() => graph.close());
beforeAll(async () => {
  // Until official-engine's job is merged, its queue exists with a run that does nothing.
  if (!jobKinds.some((k) => k.name === OFFICIAL_CAMPAIGN_JOB))
    await s.t.server.services.jobs.define({ name: OFFICIAL_CAMPAIGN_JOB, run: async () => {} });
});
beforeEach(() => {
  graph.clear();
  graph.templates[WABA] = TEMPLATES;
});

const db = () => s.t.server.services.db;
const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

const PROMO = {
  name: 'promo_cupom',
  status: 'APPROVED',
  language: 'pt_BR',
  category: 'MARKETING',
  components: [
    { type: 'HEADER', format: 'TEXT', text: 'Oferta para {{1}}' },
    { type: 'BODY', text: 'Oi {{1}}, seu cupom é {{2}}.', example: { body_text: [['Maria', 'BF10']] } },
    {
      type: 'BUTTONS',
      buttons: [
        { type: 'URL', text: 'Ver loja', url: 'https://loja.example.com' },
        { type: 'QUICK_REPLY', text: 'Quero' },
        { type: 'QUICK_REPLY', text: 'Parar' },
      ],
    },
  ],
};
const IMAGE = {
  name: 'com_imagem',
  status: 'APPROVED',
  language: 'pt_BR',
  components: [
    { type: 'HEADER', format: 'IMAGE' },
    { type: 'BODY', text: 'Veja a foto' },
  ],
};
const PENDING = {
  name: 'pendente',
  status: 'PENDING',
  language: 'pt_BR',
  components: [{ type: 'BODY', text: 'Ainda não aprovado' }],
};
const TEMPLATES = [PENDING, PROMO, IMAGE];

/** An official chip as support sets it up, connected. */
async function officialChip(owner: string) {
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
  return s.t.call('connect-chip', { _id: created._id, connect: true }, owner);
}

/** An audience as import-audience stores one. */
async function audienceOf(people: { phone: string; [column: string]: string }[]) {
  const id = newId();
  const props = ['telefone', ...new Set(people.flatMap((p) => Object.keys(p).filter((k) => k !== 'phone')))];
  await db()
    .insert(audiences)
    .values({ id, accountId: s.seed.accountId, name: 'Lista', props, peopleCount: people.length });
  await db()
    .insert(audiencePeople)
    .values(people.map(({ phone, ...data }, position) => ({ audienceId: id, phone, data, position })));
  return id;
}

type Person = { phone: string; nome: string; cupom: string };
const PEOPLE: [Person, Person, Person] = [
  { phone: '5511987650001', nome: 'Ana Souza', cupom: 'ANA10' },
  { phone: '5511987650002', nome: 'Bruno Lima', cupom: '' },
  { phone: '5511987650003', nome: '', cupom: 'C30' },
];

async function setup() {
  const owner = await s.t.login('dono@demo.com');
  const chip = await officialChip(owner);
  const audience = await audienceOf(PEOPLE);
  const [flow] = await s.t.call('get-flows-by-user', {}, owner);
  if (!flow) throw new Error('the demo has a flow');
  return { owner, chip, audience, flow: flow._id };
}

/** A valid form: the promo template with its three parameters, rule all, a flow conversation in Suporte. */
function form(env: Awaited<ReturnType<typeof setup>>, over: Record<string, unknown> = {}) {
  return {
    _id: newId(),
    name: 'Black Friday',
    chip: env.chip._id,
    audience_type: 'audience',
    audience: env.audience,
    scheduledTo: inHours(24),
    template: {
      name: PROMO.name,
      language: PROMO.language,
      category: 'MARKETING',
      components: PROMO.components,
    },
    template_parameters: [
      { index: 1, par: '{{1}}', var: 'nome', fallback: 'cliente', location: 'header', type: 'text' },
      { index: 1, par: '{{1}}', var: 'nome', fallback: 'cliente', location: 'body', type: 'text' },
      { index: 2, par: '{{2}}', var: 'cupom', fallback: 'BEMVINDO', location: 'body', type: 'text' },
    ],
    template_payloads: [
      { type: 'button', button: 'Quero', tip: '', payload: env.flow },
      { type: 'button', button: 'Parar', tip: '', payload: null },
    ],
    conversation_creation_rule: 'all',
    redirect: 'flow_chatbot',
    flow: env.flow,
    department: s.seed.departments.sales,
    ...over,
  };
}

async function refused(body: unknown, token: string) {
  const r = await s.t.post('create-or-update-official-campaign', body, token);
  expect(r.status).toBe(200);
  expect(r.body.error).toBe(true);
  return r.body as unknown as { message: string; field?: string };
}

async function uploadPng(token: string) {
  const f = new FormData();
  f.append('type', 'image');
  f.append('name', 'banner');
  f.append('file', new Blob([new Uint8Array(PNG)]), 'banner.png');
  const res = await fetch(`${s.t.url}/api/upload-media`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: f,
  });
  const env = (await res.json()) as { error: boolean; message: { url: string } };
  if (env.error) throw new Error(JSON.stringify(env));
  return env.message.url;
}

describe('create-or-update-official-campaign: the rules', () => {
  it("answers each of the dialog's messages (spec 3 §5), in the form's order", async () => {
    const env = await setup();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: '  ' }, campaignMessages.campaignNameRequired, 'name'],
      [{ chip: '' }, texts.scheduleChipRequired, 'chip'],
      [{ scheduledTo: '' }, campaignMessages.campaignScheduleRequired, 'scheduledTo'],
      [{ audience: null }, campaignMessages.campaignAudienceRequired, 'audience'],
      [{ audience_type: 'tags', audience_tags: [] }, campaignMessages.campaignTagsRequired, 'audience_tags'],
      [{ template: null }, m.templateRequired, 'template'],
      [{ template_parameters: [] }, m.parameterRequired('{{1}}'), 'template_parameters.0'],
      [{ conversation_creation_rule: null }, m.conversationRuleRequired, 'conversation_creation_rule'],
      [{ redirect: null }, m.redirectRequired, 'redirect'],
      [{ redirect: 'ai_chatbot', chatbot: null }, m.chatbotRequired, 'chatbot'],
      [{ redirect: 'flow_chatbot', flow: null }, m.flowRequired, 'flow'],
      [{ department: null }, m.departmentRequired, 'department'],
    ];
    for (const [over, message, field] of cases)
      expect(await refused(form(env, over), env.owner), message).toMatchObject({ message, field });
    // Everything missing: the first of the form.
    expect(await refused({ _id: newId() }, env.owner)).toMatchObject({
      message: campaignMessages.campaignNameRequired,
    });
    // A {{n}} with neither a column nor a fallback.
    const [header, body1, body2] = form(env).template_parameters;
    expect(
      await refused(
        form(env, { template_parameters: [header, body1, { ...body2, var: '', fallback: '  ' }] }),
        env.owner,
      ),
    ).toMatchObject({ message: m.parameterRequired('{{2}}'), field: 'template_parameters.2' });
    // Rule 'on_response' needs no conversation settings.
    const saved = await s.t.call(
      'create-or-update-official-campaign',
      form(env, { conversation_creation_rule: 'on_response', redirect: null, flow: null, department: null }),
      env.owner,
    );
    expect(saved).toMatchObject({
      official: true,
      conversation_creation_rule: 'on_response',
      redirect: null,
    });
    expect(graph.to('/messages')).toHaveLength(0);
  });

  it('checks what only the server knows: chip, audience, template approved now, image, flows, chatbot, department', async () => {
    const env = await setup();
    // Another account's or an unknown chip is not found; a connected unofficial chip is not usable.
    expect(await refused(form(env, { chip: newId() }), env.owner)).toMatchObject({ message: texts.notFound });
    const { chip: qr } = await connectedSimulatorChip(s.t, env.owner, {
      department: s.seed.departments.support,
    });
    expect(await refused(form(env, { chip: qr._id }), env.owner)).toMatchObject({
      message: m.chipNotUsable,
      field: 'chip',
    });
    expect(await refused(form(env, { audience: newId() }), env.owner)).toMatchObject({
      message: campaignMessages.audienceNotFound,
      field: 'audience',
    });
    // Not approved, or not listed by Meta (any more).
    for (const name of ['pendente', 'nao_existe'])
      expect(
        await refused(
          form(env, { template: { name, language: 'pt_BR', components: [] }, template_parameters: [] }),
          env.owner,
        ),
      ).toMatchObject({ message: m.templateNotApproved, field: 'template' });
    // The client's components are not trusted: Meta's listed promo needs {{1}} and {{2}}.
    expect(
      await refused(
        form(env, {
          template: { name: PROMO.name, language: 'pt_BR', components: [{ type: 'BODY', text: 'Oi' }] },
          template_parameters: [],
        }),
        env.owner,
      ),
    ).toMatchObject({ message: m.parameterRequired('{{1}}'), field: 'template_parameters.0' });
    // Meta down: a clear message, not a 500.
    graph.failNext({ code: 1, status: 500 });
    expect(await refused(form(env), env.owner)).toMatchObject({ message: m.templatesUnavailable });
    // An image header: an upload is needed, and it must be a jpeg/png of our media store.
    const image = { name: IMAGE.name, language: 'pt_BR', components: IMAGE.components };
    const imageParameter = { index: 1, par: 'image', location: 'header', type: 'image' };
    expect(await refused(form(env, { template: image, template_parameters: [] }), env.owner)).toMatchObject({
      message: m.imageRequired,
      field: 'template_parameters.0',
    });
    for (const link of ['https://elsewhere.example.com/x.png', '/media/nao-existe.png'])
      expect(
        await refused(
          form(env, { template: image, template_parameters: [{ ...imageParameter, link }] }),
          env.owner,
        ),
      ).toMatchObject({ message: m.imageInvalid, field: 'template_parameters.0' });
    const link = await uploadPng(env.owner);
    const withImage = await s.t.call(
      'create-or-update-official-campaign',
      form(env, { template: image, template_parameters: [{ ...imageParameter, link }] }),
      env.owner,
    );
    expect(withImage.template_parameters).toEqual([
      expect.objectContaining({ type: 'image', location: 'header', link }),
    ]);
    // Flows, chatbot and department must be the account's.
    const other = newId();
    expect(
      await refused(
        form(env, { template_payloads: [{ type: 'button', button: 'Quero', payload: other }] }),
        env.owner,
      ),
    ).toMatchObject({ message: m.buttonFlowNotFound, field: 'template_payloads.0' });
    expect(await refused(form(env, { flow: other }), env.owner)).toMatchObject({ message: m.flowNotFound });
    expect(await refused(form(env, { redirect: 'ai_chatbot', chatbot: other }), env.owner)).toMatchObject({
      message: m.chatbotNotFound,
    });
    expect(await refused(form(env, { department: other }), env.owner)).toMatchObject({
      message: m.departmentNotFound,
    });
    // A disconnected official chip is not usable for a new campaign.
    await s.t.call('connect-chip', { _id: env.chip._id, connect: false }, env.owner);
    expect(await refused(form(env), env.owner)).toMatchObject({ message: m.chipNotUsable });
    const rows = await db().select().from(campaigns).where(eq(campaigns.official, true));
    expect(rows).toHaveLength(1);
  });

  it("stores Meta's template, the parameters it needs and one flow per quick reply; creates once; edits, cancels and deletes", async () => {
    const env = await setup();
    const body = form(env, {
      // Stale components and an extra parameter from the client: Meta's listing wins.
      template: { name: PROMO.name, language: 'pt_BR', components: [{ type: 'BODY', text: 'velho' }] },
      template_parameters: [
        ...form(env).template_parameters,
        { index: 9, par: '{{9}}', var: 'x', fallback: '', location: 'body', type: 'text' },
      ],
    });
    const [a, b] = await Promise.all([
      s.t.call('create-or-update-official-campaign', body, env.owner),
      s.t.call('create-or-update-official-campaign', body, env.owner),
    ]);
    expect(a._id).toBe(body._id);
    expect(b._id).toBe(body._id);
    expect(a).toMatchObject({
      official: true,
      status: 'scheduled',
      chip: env.chip._id,
      people_count: 3,
      template: { name: PROMO.name, language: 'pt_BR', category: 'MARKETING', components: PROMO.components },
      template_payloads: [
        { type: 'button', button: 'Quero', tip: '', payload: env.flow },
        { type: 'button', button: 'Parar', tip: '', payload: null },
      ],
      conversation_creation_rule: 'all',
      redirect: 'flow_chatbot',
      flow: env.flow,
      department: s.seed.departments.sales,
      delivery_data: null,
      started: null,
    });
    expect(a.template_parameters.map((p) => `${p.location}${p.par}:${p.var}|${p.fallback}`)).toEqual([
      'header{{1}}:nome|cliente',
      'body{{1}}:nome|cliente',
      'body{{2}}:cupom|BEMVINDO',
    ]);
    expect(await db().select().from(campaigns)).toHaveLength(1);

    // The lists keep official and regular campaigns apart.
    expect(
      (await s.t.call('get-campaigns-by-user', { official: true }, env.owner)).map((c) => c._id),
    ).toEqual([a._id]);
    expect(await s.t.call('get-campaigns-by-user', {}, env.owner)).toEqual([]);
    // The regular call does not touch it.
    expect(
      (await s.t.post('update-campaign', { _id: a._id, cancel_now: true }, env.owner)).body,
    ).toMatchObject({
      error: true,
      message: campaignMessages.campaignNotFound,
    });

    // An edit changes what it names and keeps the rest.
    const edited = await s.t.call(
      'create-or-update-official-campaign',
      { _id: a._id, name: 'Black Friday 2', conversation_creation_rule: 'on_response' },
      env.owner,
    );
    expect(edited).toMatchObject({
      name: 'Black Friday 2',
      conversation_creation_rule: 'on_response',
      flow: env.flow,
    });
    expect(edited.template_parameters).toEqual(a.template_parameters);
    // Only while scheduled.
    await db().update(campaigns).set({ status: 'started' }).where(eq(campaigns.id, a._id));
    expect(await refused({ _id: a._id, name: 'x' }, env.owner)).toMatchObject({
      message: campaignMessages.campaignNotEditable,
    });
    const canceled = await s.t.call(
      'create-or-update-official-campaign',
      { _id: a._id, cancel_now: true },
      env.owner,
    );
    expect(canceled).toMatchObject({ cancel_now: true, status: 'started' });
    await db().update(campaigns).set({ status: 'canceled' }).where(eq(campaigns.id, a._id));
    expect(await refused({ _id: a._id, cancel_now: true }, env.owner)).toMatchObject({
      message: campaignMessages.campaignNotCancelable,
    });
    await s.t.call('create-or-update-official-campaign', { _id: a._id, filed: true }, env.owner);
    expect(await s.t.call('get-campaigns-by-user', { official: true }, env.owner)).toEqual([]);
    // Cancel or delete of an unknown id: not found, nothing created.
    expect(await refused({ _id: newId(), filed: true }, env.owner)).toMatchObject({
      message: campaignMessages.campaignNotFound,
    });
  });

  it('is for the campaigns area on a plan with an official number', async () => {
    const env = await setup();
    const attendant = await s.t.login('atendente@demo.com');
    expect(await refused(form(env), attendant)).toMatchObject({ message: texts.insufficientPermissions });
    await db().update(accounts).set({ maxOfficialChannels: 0 }).where(eq(accounts.id, s.seed.accountId));
    expect(await refused(form(env), env.owner)).toMatchObject({
      message: campaignMessages.officialNotInPlan,
    });
    await db()
      .update(accounts)
      .set({ maxOfficialChannels: 1, campaignsEnabled: false })
      .where(eq(accounts.id, s.seed.accountId));
    expect(await refused(form(env), env.owner)).toMatchObject({
      message: campaignMessages.officialNotInPlan,
    });
    expect(await db().select().from(campaigns)).toHaveLength(0);
  });
});

// ---- the people and their conversations ----------------------------------------------------------------

/** A saved campaign whose people the job has sent to (wamid.<seq>), now finished. */
async function sentCampaign(env: Awaited<ReturnType<typeof setup>>, over: Record<string, unknown> = {}) {
  const c = await s.t.call('create-or-update-official-campaign', form(env, over), env.owner);
  const sentAt = new Date(Date.now() - 60_000);
  await db()
    .insert(campaignRecipients)
    .values(
      PEOPLE.map(({ phone, ...data }, i) => ({
        campaignId: c._id,
        seq: i + 1,
        phone,
        data,
        status: 'sent' as const,
        sentAt,
        platformMessageId: `wamid.${c._id}.${i + 1}`,
        attempts: 1,
      })),
    );
  const [row] = await db()
    .update(campaigns)
    .set({ status: 'finished', startedAt: sentAt, finishedAt: new Date(), peopleCount: PEOPLE.length })
    .where(eq(campaigns.id, c._id))
    .returning();
  if (!row) throw new Error('no campaign');
  return row;
}

let seq = 0;
const now = () => Math.floor(Date.now() / 1000);

/** A customer's message through the signed webhook, processed. */
async function customerSends(from: string, message: Record<string, unknown>) {
  const body = messagesNotification(
    { waba: WABA, phoneNumberId: PHONE_NUMBER_ID },
    {
      contacts: [{ profile: { name: 'Cliente' }, wa_id: from }],
      messages: [{ from, id: `wamid.IN${seq++}.${Date.now()}`, timestamp: String(now()), ...message }],
    },
  );
  const res = await postWebhook(s.t.url, body, { secret: SECRET });
  expect(res.status).toBe(200);
  await s.t.server.services.channels.cloudApi.idle();
}

async function receipt(id: string, status: string) {
  const body = messagesNotification(
    { waba: WABA, phoneNumberId: PHONE_NUMBER_ID },
    { statuses: [{ id, status, timestamp: String(now()), recipient_id: '5511987650001' }] },
  );
  expect((await postWebhook(s.t.url, body, { secret: SECRET })).status).toBe(200);
  await s.t.server.services.channels.cloudApi.idle();
}

async function conversationsOf(phone: string) {
  return db()
    .select({ conversation: conversations })
    .from(conversations)
    .innerJoin(contacts, eq(contacts.id, conversations.contactId))
    .where(eq(contacts.phone, phone))
    .then((rows) => rows.map((r) => r.conversation));
}

const messagesOf = (conversationId: string) =>
  db()
    .select()
    .from(messages)
    .where(eq(messages.conversationId, conversationId))
    .orderBy(asc(messages.createdAt), asc(messages.id));

async function person(campaignId: string, phone: string) {
  const [row] = await db()
    .select()
    .from(campaignRecipients)
    .where(and(eq(campaignRecipients.campaignId, campaignId), eq(campaignRecipients.phone, phone)));
  if (!row) throw new Error('no person');
  return row;
}

describe('the conversation of a person', () => {
  it("rule 'all': opened once with the campaign's settings and the template as its first message, which receipts update", async () => {
    const env = await setup();
    const c = await sentCampaign(env);
    const [chipRow] = await db().select().from(chips).where(eq(chips.id, env.chip._id));
    if (!chipRow) throw new Error('no chip');
    const sales = await listen(s.t, 'dono@demo.com');
    const ana = PEOPLE[0];
    const who = {
      phone: ana.phone,
      data: { nome: ana.nome, cupom: ana.cupom },
      platformMessageId: `wamid.${c.id}.1`,
      sentAt: new Date(Date.now() - 60_000),
    };
    const services = s.t.server.services;
    // Called twice at once (the send and the sweep): one conversation, one message.
    const [first, second] = await Promise.all([
      openOfficialConversation(services, c, chipRow, who),
      openOfficialConversation(services, c, chipRow, who),
    ]);
    expect(second).toBe(first);
    expect(await openOfficialConversation(services, c, chipRow, who)).toBe(first);
    const [conversation, ...others] = await conversationsOf(ana.phone);
    expect(others).toHaveLength(0);
    expect(conversation).toMatchObject({
      id: first,
      departmentId: s.seed.departments.sales,
      isManual: false,
      chatbotType: 'flow_chatbot',
      flowId: env.flow,
      // The flow starts at the person's answer: outside the reply window only templates go.
      startFlow: true,
      // Only a user's own message answers (spec 2 §4, issue 33 item 1): the campaign's leaves it new.
      isNew: true,
      waitingResponse: false,
    });
    const stored = await messagesOf(first);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      origin: 'user',
      message: 'Oferta para Ana Souza\n\nOi Ana Souza, seu cupom é ANA10.',
      platformMessageId: `wamid.${c.id}.1`,
      status: MESSAGE_STATUS.sent,
    });
    expect(await person(c.id, ana.phone)).toMatchObject({ conversationId: first, messageId: stored[0]?.id });
    const announced = await sales.next('new_conversation');
    expect(announced.message._id).toBe(first);
    // Meta's status webhooks find the message by its wamid.
    await receipt(`wamid.${c.id}.1`, 'read');
    expect((await messagesOf(first))[0]?.status).toBe(MESSAGE_STATUS.read);
    // Nothing was sent by opening it.
    expect(graph.to('/messages')).toHaveLength(0);
  });

  it("rule 'on_response': no conversation until the person replies; then the template first, the reply after, replied_at once", async () => {
    const env = await setup();
    const c = await sentCampaign(env, {
      conversation_creation_rule: 'on_response',
      redirect: null,
      flow: null,
      department: null,
    });
    const [, bruno, carla] = PEOPLE;
    // The webhooks told of a read before the reply.
    await db()
      .update(campaignRecipients)
      .set({ deliveredAt: new Date(), readAt: new Date() })
      .where(eq(campaignRecipients.phone, bruno.phone));
    expect(await conversationsOf(bruno.phone)).toHaveLength(0);
    const owner = await listen(s.t, 'dono@demo.com');
    await customerSends(bruno.phone, { type: 'text', text: { body: 'Quero saber mais' } });
    const [conversation, ...others] = await conversationsOf(bruno.phone);
    expect(others).toHaveLength(0);
    if (!conversation) throw new Error('no conversation');
    // The chip's settings (the campaign set none): human, in Suporte; the customer waits for an answer.
    expect(conversation).toMatchObject({
      isManual: true,
      departmentId: s.seed.departments.support,
      waitingResponse: true,
    });
    const stored = await messagesOf(conversation.id);
    expect(stored.map((x) => [x.origin, x.message, x.status])).toEqual([
      ['user', 'Oferta para Bruno Lima\n\nOi Bruno Lima, seu cupom é BEMVINDO.', MESSAGE_STATUS.read],
      ['customer', 'Quero saber mais', MESSAGE_STATUS.sent],
    ]);
    const announced = await owner.next('new_conversation');
    expect(announced.message._id).toBe(conversation.id);
    // The list's numbers changed (replied): the account is told, once for the burst.
    expect((await owner.next('official_campaign_updated', 3000)).message).toEqual({ _id: c.id });
    const first = await person(c.id, bruno.phone);
    expect(first.repliedAt).not.toBeNull();
    expect(first.conversationId).toBe(conversation.id);
    // A second message: the same conversation, replied_at kept.
    await customerSends(bruno.phone, { type: 'text', text: { body: 'Alô?' } });
    expect(await conversationsOf(bruno.phone)).toHaveLength(1);
    expect(await messagesOf(conversation.id)).toHaveLength(3);
    expect((await person(c.id, bruno.phone)).repliedAt).toEqual(first.repliedAt);
    // The others did not reply: no conversation, not replied.
    expect(await conversationsOf(carla.phone)).toHaveLength(0);
    expect((await person(c.id, carla.phone)).repliedAt).toBeNull();
    // Someone the campaign never sent to: a plain conversation, no template in it.
    await customerSends('5511987659999', { type: 'text', text: { body: 'Oi' } });
    const [stranger] = await conversationsOf('5511987659999');
    expect((await messagesOf(stranger?.id ?? '')).map((x) => x.origin)).toEqual(['customer']);
  });

  it('a reply more than 30 days after the send is not the campaign’s', async () => {
    const env = await setup();
    const c = await sentCampaign(env, { conversation_creation_rule: 'on_response' });
    const [ana] = PEOPLE;
    await db()
      .update(campaignRecipients)
      .set({ sentAt: new Date(Date.now() - 31 * 24 * 3_600_000) })
      .where(eq(campaignRecipients.campaignId, c.id));
    await customerSends(ana.phone, { type: 'text', text: { body: 'Oi' } });
    const [conversation] = await conversationsOf(ana.phone);
    expect((await messagesOf(conversation?.id ?? '')).map((x) => x.origin)).toEqual(['customer']);
    expect((await person(c.id, ana.phone)).repliedAt).toBeNull();
  });

  it("a quick-reply tap marks the button and starts that button's flow; a button without a flow only counts", async () => {
    const env = await setup();
    const c = await sentCampaign(env, { conversation_creation_rule: 'on_response', redirect: 'human' });
    const [ana, bruno] = PEOPLE;
    // 'Quero' is button 1 of the template (a URL button comes first): its flow is the demo's.
    await customerSends(ana.phone, { type: 'button', button: { text: 'Quero', payload: `camp:${c.id}:1` } });
    const [conversation] = await conversationsOf(ana.phone);
    expect(conversation).toMatchObject({ chatbotType: 'flow_chatbot', flowId: env.flow, isManual: false });
    expect(await person(c.id, ana.phone)).toMatchObject({ clickedButton: 'Quero' });
    expect((await person(c.id, ana.phone)).repliedAt).not.toBeNull();
    // The flow runs: its first message goes to the person (the tap opened the reply window).
    await until(async () => {
      const sent = graph.to('/messages');
      return sent.some((r) => JSON.stringify(r.json).includes('Bem-vindo')) ? true : undefined;
    }, 10_000);
    // The interactive form of a tap, on 'Parar' (no flow): counted, the conversation stays human.
    await customerSends(bruno.phone, {
      type: 'interactive',
      interactive: { type: 'button_reply', button_reply: { id: `camp:${c.id}:2`, title: 'Parar' } },
    });
    const [brunos] = await conversationsOf(bruno.phone);
    expect(brunos).toMatchObject({ isManual: true, chatbotType: null });
    expect(await person(c.id, bruno.phone)).toMatchObject({ clickedButton: 'Parar' });
    // A payload naming another campaign (or another account's) is just a reply to this one.
    await customerSends(PEOPLE[2].phone, {
      type: 'button',
      button: { text: 'Quero', payload: `camp:${newId()}:1` },
    });
    expect(await person(c.id, PEOPLE[2].phone)).toMatchObject({ clickedButton: null });
    expect((await person(c.id, PEOPLE[2].phone)).repliedAt).not.toBeNull();
  });
});

describe('delivery data and the report', () => {
  it('counts sent, delivered, read, failed, replied and clicked; failures by reason; pricing; the sheet', async () => {
    const env = await setup();
    const c = await sentCampaign(env);
    const [ana, bruno, carla] = PEOPLE;
    const at = new Date();
    const set = (phone: string, values: Partial<typeof campaignRecipients.$inferInsert>) =>
      db()
        .update(campaignRecipients)
        .set(values)
        .where(and(eq(campaignRecipients.campaignId, c.id), eq(campaignRecipients.phone, phone)));
    await set(ana.phone, {
      deliveredAt: at,
      readAt: at,
      repliedAt: at,
      clickedButton: 'Quero',
      pricingCategory: 'marketing',
    });
    await set(bruno.phone, { deliveredAt: at, pricingCategory: 'marketing' });
    await set(carla.phone, {
      status: 'error',
      failure: 'Este número não tem WhatsApp.',
      failureCode: 131026,
      platformMessageId: null,
    });
    const [listed] = await s.t.call('get-campaigns-by-user', { official: true }, env.owner);
    expect(listed?.delivery_data).toEqual({
      sent: 2,
      delivered: 2,
      read: 1,
      failed: 1,
      replied: 1,
      clicked: 1,
    });
    const report = await s.t.call('get-campaign-report', { _id: c.id }, env.owner);
    expect(report).toMatchObject({
      people_count: 3,
      waiting: 0,
      sent: 2,
      delivered: 2,
      read: 1,
      failed: 1,
      skipped: 0,
      replied: 1,
      clicked: 1,
      failed_by_reason: [{ reason: 'Este número não tem WhatsApp.', count: 1 }],
      pricing: [{ category: 'marketing', count: 2 }],
    });
    const sheet = await s.t.call('export-campaign-report', { _id: c.id }, env.owner);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(sheet.content_base64, 'base64') as never);
    const rows = (book.worksheets[0]?.getSheetValues() ?? []).filter(Boolean) as unknown[][];
    expect(rows[0]?.slice(1)).toEqual([...m.reportColumns]);
    expect(rows[1]?.slice(1, 4)).toEqual([ana.phone, 'Ana Souza', 'Enviada']);
    expect(rows[1]?.[8]).toBe('Quero');
    expect(rows[1]?.[9]).toBe('marketing');
    // An empty cell reads back as nothing.
    expect(rows[3]?.slice(1, 4)).toEqual([carla.phone, undefined, 'Erro']);
    expect(rows[3]?.[10]).toBe('Este número não tem WhatsApp.');
    // A scheduled campaign has no delivery data yet.
    const scheduled: Campaign = await s.t.call('create-or-update-official-campaign', form(env), env.owner);
    expect(scheduled.delivery_data).toBeNull();
  });
});
