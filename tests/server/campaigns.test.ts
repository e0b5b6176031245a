// Campaigns on unofficial chips: the calls' rules and access, and the sending job on the real server and
// database with the simulator: variables, random versions, ignored contacts, numbers without WhatsApp,
// pause on a chip's disconnection, cancel mid-send, tags audiences, flow campaigns, the report and its sheet.
// Intervals are shortened by CAMPAIGN_INTERVAL_SCALE (20 s becomes 100 ms).
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import {
  accounts,
  audiencePeople,
  audiences,
  campaignRecipients,
  campaigns,
  contacts,
  conversations,
  flows,
  messages,
} from '@/server/db/schema';
import type { Campaign, CampaignProgress } from '@/shared/contract/campaigns';
import { campaignRoom } from '@/shared/contract/events';
import { newId } from '@/shared/ids';
import { messages as texts } from '@/shared/messages';
import { campaignLabels, campaignMessages, campaignReportLabels } from '@/shared/messages-campaigns';
import { collect, connected, connectedSimulatorChip, until } from './channel-helpers';
import { type TestServer, testServerPerFile } from './helpers';

const SCALE = 0.005;
const ctx = testServerPerFile({ CAMPAIGN_INTERVAL_SCALE: String(SCALE) });

const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();
const phoneOf = (i: number) => `55119${String(70000000 + i).padStart(8, '0')}`;

async function setup() {
  const { t, seed } = ctx;
  const owner = await t.login('dono@demo.com');
  const { chip, simulatorToken } = await connectedSimulatorChip(t, owner, {
    department: seed.departments.support,
  });
  return { t, seed, owner, chip, simulatorToken, db: t.server.services.db };
}

/** An audience as import-audience stores one: its people with their sheet's columns. */
async function audienceOf(
  t: TestServer,
  accountId: string,
  people: { phone: string; [column: string]: string }[],
) {
  const db = t.server.services.db;
  const id = newId();
  const props = ['telefone', ...new Set(people.flatMap((p) => Object.keys(p).filter((k) => k !== 'phone')))];
  await db.insert(audiences).values({ id, accountId, name: 'Lista', props, peopleCount: people.length });
  if (people.length)
    await db
      .insert(audiencePeople)
      .values(people.map(({ phone, ...data }, position) => ({ audienceId: id, phone, data, position })));
  return id;
}

const textCampaign = (chip: string, audience: string, over: Record<string, unknown> = {}) => ({
  name: 'Promoção',
  chip,
  audience_type: 'audience',
  audience,
  message_type: 'text',
  message: ['Oi {nome:first}!'],
  interval: 20,
  scheduledTo: null,
  ...over,
});

async function campaignOf(t: TestServer, token: string, id: string) {
  const list = await t.call('get-campaigns-by-user', {}, token);
  return list.find((c) => c._id === id);
}

async function ended(t: TestServer, token: string, id: string, ms = 30_000): Promise<Campaign> {
  return until(async () => {
    const c = await campaignOf(t, token, id);
    return c && ['finished', 'canceled', 'error'].includes(c.status) ? c : undefined;
  }, ms);
}

/** The campaign's people with the message each was sent, in the sending order. */
async function sentTo(t: TestServer, campaignId: string) {
  return t.server.services.db
    .select({ r: campaignRecipients, text: messages.message, messageId: messages.messageId })
    .from(campaignRecipients)
    .leftJoin(messages, eq(messages.id, campaignRecipients.messageId))
    .where(eq(campaignRecipients.campaignId, campaignId))
    .orderBy(asc(campaignRecipients.seq));
}

/** The team's messages stored for a phone, whatever their message_id. */
async function teamMessagesTo(t: TestServer, phone: string) {
  return t.server.services.db
    .select({ text: messages.message })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .innerJoin(contacts, eq(contacts.id, conversations.contactId))
    .where(and(eq(contacts.phone, phone), inArray(messages.origin, ['user', 'chatbot'])))
    .orderBy(asc(messages.createdAt));
}

describe('campaign calls', () => {
  it('validates each field with the spec message, in the dialog order', async () => {
    const { t, owner, chip, seed } = await setup();
    const audience = await audienceOf(t, seed.accountId, [{ phone: phoneOf(1) }]);
    const base = textCampaign(chip._id, audience);
    const refused = async (body: Record<string, unknown>) => {
      const r = await t.post('create-campaign', body, owner);
      expect(r.body.error, JSON.stringify(body)).toBe(true);
      return r.body.message;
    };
    expect(await refused({ ...base, name: ' ' })).toBe(campaignMessages.campaignNameRequired);
    expect(await refused({ ...base, chip: '' })).toBe(texts.scheduleChipRequired);
    // No date and not 'Imediato' (null): refused.
    expect(await refused({ ...base, scheduledTo: undefined })).toBe(
      campaignMessages.campaignScheduleRequired,
    );
    expect(await refused({ ...base, scheduledTo: '' })).toBe(campaignMessages.campaignScheduleRequired);
    expect(await refused({ ...base, scheduledTo: 'amanhã' })).toBe(campaignMessages.campaignScheduleRequired);
    expect(await refused({ ...base, audience: null })).toBe(campaignMessages.campaignAudienceRequired);
    expect(await refused({ ...base, audience_type: 'tags', audience_tags: [] })).toBe(
      campaignMessages.campaignTagsRequired,
    );
    expect(await refused({ ...base, message: ['Oi', '  '] })).toBe(campaignMessages.campaignVersionsBlank);
    expect(await refused({ ...base, message: [] })).toBe(campaignMessages.campaignVersionsBlank);
    expect(await refused({ ...base, message_type: 'flow', flow: null })).toBe(
      campaignMessages.campaignFlowRequired,
    );
    expect(await refused({ ...base, interval: 25 })).toBe(campaignMessages.campaignIntervalInvalid);
    expect(await refused({ ...base, audience: newId() })).toBe(campaignMessages.audienceNotFound);
    expect(await refused({ ...base, message_type: 'flow', flow: newId() })).toBe(texts.flowNotFound);
    // The field travels with the message, for the dialog.
    const r = await t.post('create-campaign', { ...base, chip: '' }, owner);
    expect(r.body).toMatchObject({ error: true, field: 'chip' });

    // A disconnected chip cannot be chosen.
    await t.call('connect-chip', { _id: chip._id, connect: false }, owner);
    expect(await refused(base)).toBe(campaignMessages.campaignChipNotUsable);
  });

  it('creates once per id, edits while scheduled, cancels and deletes; the list is newest first', async () => {
    const { t, owner, chip, seed } = await setup();
    const audience = await audienceOf(t, seed.accountId, [{ phone: phoneOf(1) }, { phone: phoneOf(2) }]);
    const _id = newId();
    const body = textCampaign(chip._id, audience, { _id, scheduledTo: inMinutes(60) });
    const [a, b] = await Promise.all([
      t.call('create-campaign', body, owner),
      t.call('create-campaign', body, owner),
    ]);
    expect(a._id).toBe(_id);
    expect(b._id).toBe(_id);
    expect(a).toMatchObject({ status: 'scheduled', people_count: 2, sent_messages: 0, official: false });
    const second = await t.call(
      'create-campaign',
      textCampaign(chip._id, audience, { name: 'Outra', scheduledTo: inMinutes(90) }),
      owner,
    );
    const list = await t.call('get-campaigns-by-user', {}, owner);
    expect(list.map((c) => c._id)).toEqual([second._id, _id]);
    expect(await t.call('get-campaigns-by-user', { official: true }, owner)).toEqual([]);

    // An edit sends the dialog's whole form.
    const edited = await t.call(
      'update-campaign',
      { ...body, name: 'Promoção de verão', interval: 60 },
      owner,
    );
    expect(edited).toMatchObject({ name: 'Promoção de verão', interval: 60, message: ['Oi {nome:first}!'] });
    // A field left out keeps its value.
    const renamed = await t.call('update-campaign', { _id, name: 'Verão' }, owner);
    expect(renamed).toMatchObject({
      name: 'Verão',
      interval: 60,
      message: ['Oi {nome:first}!'],
      audience: edited.audience,
      scheduledTo: edited.scheduledTo,
    });
    const bad = await t.post('update-campaign', { ...body, message: [''] }, owner);
    expect(bad.body).toMatchObject({ error: true, message: campaignMessages.campaignVersionsBlank });

    const canceled = await t.call('update-campaign', { _id, cancel_now: true }, owner);
    expect(canceled).toMatchObject({ status: 'canceled', cancel_now: true });
    expect(canceled.finished).not.toBeNull();
    const again = await t.post('update-campaign', { ...body, name: 'X' }, owner);
    expect(again.body).toMatchObject({ error: true, message: campaignMessages.campaignNotEditable });
    const twice = await t.post('update-campaign', { _id, cancel_now: true }, owner);
    expect(twice.body).toMatchObject({ error: true, message: campaignMessages.campaignNotCancelable });

    await t.call('update-campaign', { _id, filed: true }, owner);
    expect((await t.call('get-campaigns-by-user', {}, owner)).map((c) => c._id)).toEqual([second._id]);
    const gone = await t.post('get-campaign-realtime', { _id }, owner);
    expect(gone.body).toMatchObject({ error: true, message: campaignMessages.campaignNotFound });
    // Nothing was sent for the canceled one.
    await new Promise((r) => setTimeout(r, 800));
    expect(await sentTo(t, _id)).toEqual([]);
  });

  it('refuses a chip of another account, an attendant, and an account whose plan has no campaigns', async () => {
    const { t, owner, chip, seed } = await setup();
    const audience = await audienceOf(t, seed.accountId, [{ phone: phoneOf(1) }]);
    // Another account with its own chip.
    const other = await t.call(
      'create-user',
      { name: 'Outra', email: 'outra@conta.test', password: 'SenhaOutra123' },
      await t.login('admin@demo.com'),
    );
    expect(other).toBeTruthy();
    const otherToken = await t.login('outra@conta.test', 'SenhaOutra123');
    const otherAccount = (await t.call('get-user', {}, otherToken)).account._id;
    await t.server.services.db
      .update(accounts)
      .set({ campaignsEnabled: true, maxChannels: 5 })
      .where(eq(accounts.id, otherAccount));
    const otherDepartment = await t.call('create-or-update-department', { name: 'Geral' }, otherToken);
    const foreign = await connectedSimulatorChip(t, otherToken, { department: otherDepartment._id });
    const cross = await t.post('create-campaign', textCampaign(foreign.chip._id, audience), owner);
    expect(cross.body).toMatchObject({ error: true, message: texts.notFound });
    // Nor another account's audience.
    const theirs = await t.post('create-campaign', textCampaign(foreign.chip._id, audience), otherToken);
    expect(theirs.body).toMatchObject({ error: true, message: campaignMessages.audienceNotFound });

    const attendant = await t.login('atendente@demo.com');
    const r = await t.post('get-campaigns-by-user', {}, attendant);
    expect(r.body).toMatchObject({ error: true, message: texts.insufficientPermissions });

    await t.server.services.db
      .update(accounts)
      .set({ campaignsEnabled: false })
      .where(eq(accounts.id, seed.accountId));
    const gated = await t.post('create-campaign', textCampaign(chip._id, audience), owner);
    expect(gated.body).toMatchObject({ error: true, message: campaignMessages.campaignsNotInPlan });
  });
});

describe('the sending job', () => {
  it('sends to each person once, a version drawn per person, variables resolved; skips ignored contacts; records numbers without WhatsApp; reports live and in a sheet', async () => {
    const { t, owner, chip, seed, db, simulatorToken } = await setup();
    const people = Array.from({ length: 30 }, (_, i) => ({
      phone: phoneOf(i),
      nome: `Pessoa${i} da Silva`,
      cidade: `Cidade ${i}`,
    }));
    const noWhatsapp = '5511900000000';
    const ignoredPhone = phoneOf(99);
    await db.insert(contacts).values({
      id: newId(),
      accountId: seed.accountId,
      phone: ignoredPhone,
      name: 'Ignorada',
      ignore: true,
    });
    // A known contact: the contact's own variables fill in too.
    await db.insert(contacts).values({
      id: newId(),
      accountId: seed.accountId,
      phone: phoneOf(0),
      name: 'Zé',
      data: { plano: 'Ouro' },
    });
    const audience = await audienceOf(t, seed.accountId, [
      ...people,
      { phone: noWhatsapp, nome: 'Sem Zap', cidade: 'X' },
      { phone: ignoredPhone, nome: 'Ignorada', cidade: 'Y' },
    ]);
    const versions = [
      'A: Oi {nome:first}, de {cidade}! {plano}',
      'B: Olá {nome}!',
      'C: {nome:first}, novidades',
    ];
    // Follow it live, as the dialog does.
    const sock = t.socket(owner);
    await connected(sock);
    const events = collect(sock);
    const created = await t.call(
      'create-campaign',
      textCampaign(chip._id, audience, { message: versions }),
      owner,
    );
    const joined = await new Promise<boolean>((r) => sock.emit('join-room', campaignRoom(created._id), r));
    expect(joined).toBe(true);

    const done = await ended(t, owner, created._id, 60_000);
    expect(done).toMatchObject({
      status: 'finished',
      people_count: 32,
      sent_messages: 30,
      failed_messages: 1,
    });
    const rows = await sentTo(t, created._id);
    expect(rows).toHaveLength(32);
    const byPhone = new Map(rows.map((x) => [x.r.phone, x]));
    for (const [i, p] of people.entries()) {
      const row = byPhone.get(p.phone);
      expect(row?.r.status).toBe('sent');
      expect(row?.messageId).toBe(`camp-${created._id}-${row?.r.seq}`);
      const expected = [
        // The contact's own variable for the known one; nothing (trimmed away) for the others.
        `A: Oi Pessoa${i}, de Cidade ${i}!${i === 0 ? ' Ouro' : ''}`,
        `B: Olá Pessoa${i} da Silva!`,
        `C: Pessoa${i}, novidades`,
      ][row?.r.version ?? -1];
      expect(row?.text).toBe(expected);
      expect(await teamMessagesTo(t, p.phone)).toHaveLength(1);
    }
    // 30 people, 3 versions: each one drawn for someone.
    expect(new Set(rows.filter((x) => x.r.status === 'sent').map((x) => x.r.version))).toEqual(
      new Set([0, 1, 2]),
    );
    expect(byPhone.get(noWhatsapp)?.r).toMatchObject({
      status: 'error',
      failure: campaignMessages.campaignNoWhatsapp,
    });
    expect(byPhone.get(ignoredPhone)?.r).toMatchObject({
      status: 'skipped',
      failure: campaignMessages.campaignContactIgnored,
    });
    expect(await teamMessagesTo(t, noWhatsapp)).toHaveLength(0);
    expect(await teamMessagesTo(t, ignoredPhone)).toHaveLength(0);
    // In the audience's order, paced: never two sends closer than the interval.
    expect(rows.map((x) => x.r.phone)).toEqual([...people.map((p) => p.phone), noWhatsapp, ignoredPhone]);
    const times = rows.filter((x) => x.r.sentAt).map((x) => x.r.sentAt?.getTime() ?? 0);
    for (let i = 1; i < times.length; i++)
      expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBeGreaterThanOrEqual(20_000 * SCALE - 1);

    // The follow dialog got the progress after each send, ending finished.
    const progress: CampaignProgress[] = [];
    for (;;) {
      const e = await events.next('campaign_progress', 2000).catch(() => null);
      if (!e) break;
      progress.push(e.message);
    }
    expect(progress.length).toBeGreaterThanOrEqual(30);
    expect(progress.at(-1)).toMatchObject({ status: 'finished', sent_messages: 30, next_messages: 0 });
    const sentCounts = progress.map((p) => p.sent_messages);
    expect([...sentCounts].sort((a, b) => a - b)).toEqual(sentCounts);

    // The customer answers one of them: the report counts the reply and the delivery marks.
    const first = byPhone.get(phoneOf(1));
    await t.call('simulator-send', {
      token: simulatorToken,
      phone: phoneOf(1),
      name: 'P',
      id: 'campaign-reply-1',
      type: 'text',
      text: 'Quero!',
    });
    const toSecond = await platformId(t, byPhone.get(phoneOf(2))?.r.messageId ?? '');
    await t.call('simulator-mark', { token: simulatorToken, phone: phoneOf(2), ids: [toSecond], status: 4 });
    const report = await until(async () => {
      const r = await t.call('get-campaign-report', { _id: created._id }, owner);
      return r.replied === 1 && r.read === 1 ? r : undefined;
    });
    expect(report).toMatchObject({
      people_count: 32,
      sent: 30,
      failed: 1,
      skipped: 1,
      waiting: 0,
      delivered: 1,
      read: 1,
      replied: 1,
    });
    expect(first?.r.status).toBe('sent');

    const sheet = await t.call('export-campaign-report', { _id: created._id }, owner);
    expect(sheet.file_name).toMatch(/^Campanha_Promoção_\d{4}-\d{2}-\d{2}\.xlsx$/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(sheet.content_base64, 'base64') as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    expect(ws?.getRow(1).values).toEqual([
      undefined,
      'telefone',
      'nome',
      'versão',
      'status',
      'enviada em',
      'entregue',
      'lida',
      'respondeu',
      'erro',
    ]);
    expect(ws?.rowCount).toBe(33);
    const line = (phone: string) => {
      for (let i = 2; i <= (ws?.rowCount ?? 0); i++) {
        const v = ws?.getRow(i).values as unknown[];
        if (v[1] === phone) return v;
      }
      return [];
    };
    expect(line(phoneOf(1)).slice(1, 5)).toEqual([
      phoneOf(1),
      'Pessoa1 da Silva',
      (byPhone.get(phoneOf(1))?.r.version ?? 0) + 1,
      'Enviada',
    ]);
    expect(line(phoneOf(1))[8]).toBe('sim');
    expect(line(phoneOf(2))[7]).toBe('sim');
    expect(line(noWhatsapp)[9]).toBe(campaignMessages.campaignNoWhatsapp);
  });

  it('a disconnected chip pauses the campaign (nothing sent) and its reconnection resumes it at once, without a burst', async () => {
    const { t, owner, chip, seed, simulatorToken } = await setup();
    const people = Array.from({ length: 8 }, (_, i) => ({ phone: phoneOf(i), nome: `P${i}` }));
    const audience = await audienceOf(t, seed.accountId, people);
    // 120 s scaled: 600 ms between sends.
    const c = await t.call('create-campaign', textCampaign(chip._id, audience, { interval: 120 }), owner);
    await until(async () => ((await campaignOf(t, owner, c._id))?.sent_messages ?? 0) >= 2, 20_000);
    await t.call('connect-chip', { _id: chip._id, connect: false }, owner);
    const paused = await until(async () => {
      const x = await campaignOf(t, owner, c._id);
      return x?.paused ? x : undefined;
    });
    expect(paused.status).toBe('started');
    const sentBefore = (await sentTo(t, c._id)).filter((x) => x.r.status === 'sent').length;
    await new Promise((r) => setTimeout(r, 2000));
    const held = await sentTo(t, c._id);
    expect(held.filter((x) => x.r.status === 'sent')).toHaveLength(sentBefore);
    expect(held.filter((x) => x.r.status === 'error')).toHaveLength(0);
    expect((await t.call('get-campaign-realtime', { _id: c._id }, owner)).paused).toBe(true);

    // Connected again (the QR link opened): it goes on.
    const sock = t.socket(owner);
    await connected(sock);
    const events = collect(sock);
    await t.call('connect-chip', { _id: chip._id, connect: true }, owner);
    const qr = await events.next('qrcode');
    const link = new URL(qr.message, t.url);
    const reconnectedAt = Date.now();
    await t.call('simulator-open', {
      token: simulatorToken,
      pair: link.searchParams.get('pair') ?? undefined,
    });
    const done = await ended(t, owner, c._id, 30_000);
    expect(done).toMatchObject({ status: 'finished', sent_messages: 8, paused: false });
    const rows = await sentTo(t, c._id);
    const after = rows.map((x) => x.r.sentAt?.getTime() ?? 0).filter((at) => at >= reconnectedAt);
    // The first send after the pause goes at once; the next ones an interval apart (no burst).
    expect((after[0] ?? Infinity) - reconnectedAt).toBeLessThan(2500);
    for (let i = 1; i < after.length; i++)
      expect((after[i] ?? 0) - (after[i - 1] ?? 0)).toBeGreaterThanOrEqual(600 - 1);
    for (const p of people) expect(await teamMessagesTo(t, p.phone)).toHaveLength(1);
  });

  it('a campaign’s message answers no one: a customer who wrote still waits (spec 2 §4)', async () => {
    const { t, owner, chip, seed, simulatorToken, db } = await setup();
    const phone = phoneOf(500);
    await t.call('simulator-send', {
      token: simulatorToken,
      phone,
      name: 'Rita',
      id: `w${phone}`,
      type: 'text',
      text: 'Oi',
    });
    const audience = await audienceOf(t, seed.accountId, [{ phone, nome: 'Rita' }]);
    const c = await t.call('create-campaign', textCampaign(chip._id, audience), owner);
    expect(await ended(t, owner, c._id)).toMatchObject({ status: 'finished', sent_messages: 1 });
    const [row] = await db
      .select({ waitingResponse: conversations.waitingResponse, isNew: conversations.isNew })
      .from(conversations)
      .innerJoin(contacts, eq(contacts.id, conversations.contactId))
      .where(eq(contacts.phone, phone));
    expect(row).toEqual({ waitingResponse: true, isNew: true });
  });

  it('two campaigns on one chip share its pace: the slowest interval between any two of its sends', async () => {
    const { t, owner, chip, seed } = await setup();
    // Eight on the fast one: it is still sending when the slow one starts, however loaded the machine is.
    const fast = await audienceOf(
      t,
      seed.accountId,
      Array.from({ length: 8 }, (_, i) => ({ phone: phoneOf(600 + i) })),
    );
    // Five on the slow one (4.8 s of sends): the fast one, created after it, starts while it runs even when
    // its creation and first run take seconds on a loaded machine (with three, it once started after).
    const slow = await audienceOf(
      t,
      seed.accountId,
      [0, 1, 2, 3, 4].map((i) => ({ phone: phoneOf(700 + i) })),
    );
    // 240 s and 120 s scaled: 1200 ms and 600 ms. The slow one first: the fast one starts while it runs.
    const b = await t.call('create-campaign', textCampaign(chip._id, slow, { interval: 240 }), owner);
    const a = await t.call('create-campaign', textCampaign(chip._id, fast, { interval: 120 }), owner);
    expect(await ended(t, owner, a._id, 60_000)).toMatchObject({ status: 'finished', sent_messages: 8 });
    expect(await ended(t, owner, b._id, 60_000)).toMatchObject({ status: 'finished', sent_messages: 5 });
    const sends = [...(await sentTo(t, a._id)), ...(await sentTo(t, b._id))]
      .map((x) => ({ campaign: x.r.campaignId, at: x.r.sentAt?.getTime() ?? 0 }))
      .sort((x, y) => x.at - y.at);
    // Until the slower campaign's last send both run: every two sends of the chip are 1200 ms apart, whichever
    // campaign each is (which one takes a turn is the job runner's timing: it may take several in a row).
    const slowLast = Math.max(...sends.filter((x) => x.campaign === b._id).map((x) => x.at));
    const shared = sends.filter((x) => x.at <= slowLast);
    const seen = JSON.stringify(
      sends.map((x) => [x.campaign === a._id ? 'fast' : 'slow', x.at - (sends[0]?.at ?? 0)]),
    );
    // The two took turns at least once while both ran: a fast send beside a slow one.
    expect(
      shared.some((x, i) => i > 0 && x.campaign !== shared[i - 1]?.campaign),
      seen,
    ).toBe(true);
    expect(shared.length, seen).toBeGreaterThanOrEqual(4);
    for (let i = 1; i < shared.length; i++)
      expect((shared[i]?.at ?? 0) - (shared[i - 1]?.at ?? 0), seen).toBeGreaterThanOrEqual(1200 - 1);
  });

  it('cancel mid-send stops before the next send', async () => {
    const { t, owner, chip, seed } = await setup();
    const people = Array.from({ length: 10 }, (_, i) => ({ phone: phoneOf(i) }));
    const audience = await audienceOf(t, seed.accountId, people);
    const c = await t.call('create-campaign', textCampaign(chip._id, audience, { interval: 120 }), owner);
    await until(async () => ((await campaignOf(t, owner, c._id))?.sent_messages ?? 0) >= 2, 20_000);
    const answer = await t.call('update-campaign', { _id: c._id, cancel_now: true }, owner);
    expect(answer.cancel_now).toBe(true);
    const done = await ended(t, owner, c._id, 10_000);
    expect(done.status).toBe('canceled');
    expect(done.finished).not.toBeNull();
    const sent = done.sent_messages;
    expect(sent).toBeGreaterThanOrEqual(2);
    expect(sent).toBeLessThan(10);
    await new Promise((r) => setTimeout(r, 1500));
    const rows = await sentTo(t, c._id);
    expect(rows.filter((x) => x.r.status === 'sent')).toHaveLength(sent);
    expect(rows.filter((x) => x.r.status === 'waiting')).toHaveLength(10 - sent);
    expect((await campaignOf(t, owner, c._id))?.sent_messages).toBe(sent);

    // The sheet calls the people never sent 'Não enviada' (nobody is 'Aguardando' a canceled campaign).
    const sheet = await t.call('export-campaign-report', { _id: c._id }, owner);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(sheet.content_base64, 'base64') as unknown as ArrayBuffer);
    const statuses = (wb.worksheets[0]?.getColumn(4).values ?? []).slice(2);
    expect(statuses.filter((v) => v === texts.statusSent)).toHaveLength(sent);
    expect(statuses.filter((v) => v === campaignReportLabels.status.skipped)).toHaveLength(10 - sent);
    expect(statuses).not.toContain(campaignLabels.campaigns.waiting);
  });

  it('a tags audience: contacts with any of the tags, minus those with a tag to skip and the ignored', async () => {
    const { t, owner, chip, seed, db } = await setup();
    const vip = await t.call(
      'create-or-update-tag',
      { name: 'VIP', color: '#00ff00', auto_tag: false, keywords: [] },
      owner,
    );
    const lead = await t.call(
      'create-or-update-tag',
      { name: 'Lead', color: '#0000ff', auto_tag: false, keywords: [] },
      owner,
    );
    const out = await t.call(
      'create-or-update-tag',
      { name: 'Sair', color: '#ff0000', auto_tag: false, keywords: [] },
      owner,
    );
    const add = (i: number, tags: string[], ignore = false) =>
      db.insert(contacts).values({
        id: newId(),
        accountId: seed.accountId,
        phone: phoneOf(i),
        name: `Contato ${i}`,
        tags,
        ignore,
      });
    await add(1, [vip._id]);
    await add(2, [lead._id]);
    await add(3, [vip._id, out._id]);
    await add(4, []);
    await add(5, [lead._id], true);
    const body = {
      ...textCampaign(chip._id, ''),
      audience_type: 'tags',
      audience: null,
      audience_tags: [vip._id, lead._id],
      audience_tags_skip: [out._id],
    };
    const c = await t.call('create-campaign', body, owner);
    // Estimated reach: the ignored one left out.
    expect(c.people_count).toBe(2);
    const done = await ended(t, owner, c._id);
    expect(done).toMatchObject({ status: 'finished', sent_messages: 2 });
    const rows = await sentTo(t, c._id);
    expect(rows.map((x) => [x.r.phone, x.r.status])).toEqual([
      [phoneOf(1), 'sent'],
      [phoneOf(2), 'sent'],
      [phoneOf(5), 'skipped'],
    ]);
    expect(rows[0]?.text).toBe('Oi Contato!');
    // Another account's tag is not found.
    const foreignTag = await t.post('create-campaign', { ...body, audience_tags: [newId()] }, owner);
    expect(foreignTag.body).toMatchObject({ error: true, message: texts.notFound });
  });

  it('a flow campaign starts the flow for each person', async () => {
    const { t, owner, chip, seed, db } = await setup();
    const [flow] = await db.select().from(flows).where(eq(flows.accountId, seed.accountId));
    const people = [
      { phone: phoneOf(1), nome: 'Rita Souza' },
      { phone: phoneOf(2), nome: 'Caio Lima' },
    ];
    const audience = await audienceOf(t, seed.accountId, people);
    const c = await t.call(
      'create-campaign',
      textCampaign(chip._id, audience, { message_type: 'flow', flow: flow?.id, message: [] }),
      owner,
    );
    const done = await ended(t, owner, c._id);
    expect(done).toMatchObject({ status: 'finished', sent_messages: 2 });
    for (const p of people) {
      const texts = await until(async () => {
        const m = await teamMessagesTo(t, p.phone);
        return m.length >= 2 ? m.map((x) => x.text) : undefined;
      }, 15_000);
      // The flow's greeting; the name is the contact's (the campaign's flow reads contact data).
      expect(texts[0]).toMatch(/^Olá, .*! Bem-vindo\(a\) à Loja Demo\.$/);
      expect(texts[1]).toBe('Como podemos ajudar?');
    }
    const [conversation] = await db
      .select()
      .from(conversations)
      .innerJoin(contacts, eq(contacts.id, conversations.contactId))
      .where(eq(contacts.phone, phoneOf(1)));
    expect(conversation?.conversations.flowId).toBe(flow?.id);
  });

  it('an audience deleted before the start is an error on the campaign; deleted mid-send, nobody is lost', async () => {
    const { t, owner, chip, seed, db } = await setup();
    const early = await audienceOf(t, seed.accountId, [{ phone: phoneOf(1) }]);
    const c1 = await t.call(
      'create-campaign',
      textCampaign(chip._id, early, { scheduledTo: new Date(Date.now() + 1500).toISOString() }),
      owner,
    );
    await db.update(audiences).set({ filed: true }).where(eq(audiences.id, early));
    const failed = await ended(t, owner, c1._id, 15_000);
    expect(failed).toMatchObject({
      status: 'error',
      failure: campaignMessages.audienceNotFound,
      sent_messages: 0,
    });

    const people = Array.from({ length: 6 }, (_, i) => ({ phone: phoneOf(i + 10) }));
    const later = await audienceOf(t, seed.accountId, people);
    const c2 = await t.call('create-campaign', textCampaign(chip._id, later, { interval: 60 }), owner);
    await until(async () => ((await campaignOf(t, owner, c2._id))?.sent_messages ?? 0) >= 1, 15_000);
    await db.update(audiences).set({ filed: true }).where(eq(audiences.id, later));
    const done = await ended(t, owner, c2._id, 20_000);
    expect(done).toMatchObject({ status: 'finished', sent_messages: 6 });
  });

  it("the follow room: only for a campaign of the user's account and a user who may follow campaigns", async () => {
    const { t, owner, chip, seed } = await setup();
    const audience = await audienceOf(t, seed.accountId, [{ phone: phoneOf(1) }]);
    const c = await t.call(
      'create-campaign',
      textCampaign(chip._id, audience, { scheduledTo: inMinutes(60) }),
      owner,
    );
    const join = async (token: string, room: string) => {
      const sock = t.socket(token);
      await connected(sock);
      return new Promise<boolean>((r) => sock.emit('join-room', room, r));
    };
    expect(await join(owner, campaignRoom(c._id))).toBe(true);
    expect(await join(await t.login('gerente@demo.com'), campaignRoom(c._id))).toBe(true);
    expect(await join(await t.login('atendente@demo.com'), campaignRoom(c._id))).toBe(false);
    expect(await join(owner, campaignRoom(newId()))).toBe(false);
    await t.call(
      'create-user',
      { name: 'Outra', email: 'outra@conta.test', password: 'SenhaOutra123' },
      await t.login('admin@demo.com'),
    );
    expect(await join(await t.login('outra@conta.test', 'SenhaOutra123'), campaignRoom(c._id))).toBe(false);
    // Following another campaign leaves the first one's room.
    const other = await t.call(
      'create-campaign',
      textCampaign(chip._id, audience, { name: 'Outra', scheduledTo: inMinutes(90) }),
      owner,
    );
    const sock = t.socket(owner);
    await connected(sock);
    const events = collect(sock);
    await new Promise((r) => sock.emit('join-room', campaignRoom(c._id), r));
    await new Promise((r) => sock.emit('join-room', campaignRoom(other._id), r));
    const realtime = t.server.services.realtime;
    const progressOf = async (id: string) => t.call('get-campaign-realtime', { _id: id }, owner);
    realtime.toCampaign(c._id, { type: 'campaign_progress', message: await progressOf(c._id) });
    realtime.toCampaign(other._id, { type: 'campaign_progress', message: await progressOf(other._id) });
    expect((await events.next('campaign_progress')).message._id).toBe(other._id);
    await new Promise((r) => setTimeout(r, 300));
    expect(events.events.filter((e) => e.type === 'campaign_progress')).toEqual([]);

    // Before its start the dialog shows the estimate.
    const progress = await t.call('get-campaign-realtime', { _id: c._id }, owner);
    expect(progress).toMatchObject({ status: 'scheduled', next_messages: 1, sent_messages: 0 });
    expect(progress.estimated_finish_time).not.toBeNull();
  });
});

describe('the report of a big campaign', () => {
  it('has every person once, in the sending order, read range by range (issue 37)', async () => {
    const { t, owner, chip, seed, db } = await setup();
    const audience = await audienceOf(t, seed.accountId, [{ phone: phoneOf(0) }]);
    const c = await t.call(
      'create-campaign',
      textCampaign(chip._id, audience, { scheduledTo: inMinutes(60) }),
      owner,
    );
    // More people than the first ranges hold, as the start materializes them (seq 1..n), and the campaign over.
    const people = 4_500;
    await db.execute(sql`
      insert into campaign_recipients (campaign_id, seq, phone, data, status)
      select ${c._id}, i, (5511800000000 + i)::text, jsonb_build_object('nome', 'Pessoa ' || i), 'skipped'
      from generate_series(1, ${people}) i`);
    await db
      .update(campaigns)
      .set({ status: 'canceled', peopleCount: people })
      .where(eq(campaigns.id, c._id));
    const sheet = await t.call('export-campaign-report', { _id: c._id }, owner);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(sheet.content_base64, 'base64') as unknown as ArrayBuffer);
    const phones: string[] = [];
    wb.worksheets[0]?.eachRow((row, n) => {
      if (n > 1) phones.push(String(row.getCell(1).value));
    });
    expect(phones).toEqual(Array.from({ length: people }, (_, i) => String(5511800000000 + i + 1)));
  });
});

async function platformId(t: TestServer, messageId: string) {
  const [row] = await t.server.services.db.select().from(messages).where(eq(messages.id, messageId));
  return row?.platformMessageId ?? '';
}
