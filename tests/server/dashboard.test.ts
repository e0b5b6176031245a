// The dashboards on the real server (spec 3 §2.1, §2.2, §7; README 'Dashboard numbers'): a month seeded row by
// row with chosen opening times (midnight edges in São Paulo included) and every card and chart written out
// by hand; the bad intervals and chips (a pt-BR refusal, never a 500, never another account's rows); the
// access rule; and the live hints on the dashboard room when a simulator customer writes.
import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '@/server/db';
import { accounts, chips, contacts, conversations, messages, tags, users } from '@/server/db/schema';
import { dashboardRoom } from '@/shared/contract/events';
import { newId } from '@/shared/ids';
import { messages as texts } from '@/shared/messages';
import { dashboardMessages as M } from '@/shared/messages-dashboard';
import { collect, connected, connectedSimulatorChip, until } from './channel-helpers';
import { testServerPerFile } from './helpers';

const ctx = testServerPerFile();

// The server's 'now': 2026-03-31 12:00 in São Paulo (UTC-3, no daylight saving since 2019).
const NOW = new Date('2026-03-31T15:00:00Z');

type Ids = Awaited<ReturnType<typeof seedMonth>>;

/**
 * Account A (the demo's Loja Demo, São Paulo): chips 1 (open) and 2 (close); departments Suporte and Vendas;
 * tags VIP and Atacado, and a filed one; contacts c1..c5. Account B (trial) with its own chips and
 * conversations, account C (canceled) with a connecting chip. Opening times in UTC; the São Paulo day in the
 * comment.
 */
async function seedMonth(db: Db, accountA: string, dep: { support: string; sales: string }) {
  const ids = {
    chip1: newId(),
    chip2: newId(),
    chip3: newId(),
    chip4: newId(),
    chip5: newId(),
    accountB: newId(),
    accountC: newId(),
    c: [newId(), newId(), newId(), newId(), newId(), newId()],
    k: {} as Record<string, string>,
  };
  const vip = newId();
  const atacado = newId();
  const old = newId();
  await db.transaction(async (tx) => {
    await tx.insert(accounts).values([
      { id: ids.accountB, name: 'Conta B', subscriptionStatus: 'trial' },
      { id: ids.accountC, name: 'Conta C', subscriptionStatus: 'canceled' },
    ]);
    await tx.insert(chips).values([
      { id: ids.chip1, accountId: accountA, name: 'Chip 1', status: 'open' },
      { id: ids.chip2, accountId: accountA, name: 'Chip 2', status: 'close' },
      { id: ids.chip3, accountId: ids.accountB, name: 'Chip B', status: 'open' },
      { id: ids.chip4, accountId: ids.accountB, name: 'Chip B antigo', status: 'open', filed: true },
      { id: ids.chip5, accountId: ids.accountC, name: 'Chip C', status: 'connecting' },
    ]);
    await tx.insert(tags).values([
      { id: vip, accountId: accountA, name: 'VIP', color: '#ff0000' },
      { id: atacado, accountId: accountA, name: 'Atacado', color: '#00ff00' },
      { id: old, accountId: accountA, name: 'Antiga', color: '#0000ff', filed: true },
    ]);
    const [c1, c2, c3, c4, c5, cb] = ids.c as [string, string, string, string, string, string];
    await tx.insert(contacts).values([
      { id: c1, accountId: accountA, name: 'Carla', phone: '5511900000001', tags: [vip] },
      {
        id: c2,
        accountId: accountA,
        name: 'Diego',
        overrideName: 'Diego (atacado)',
        phone: '5511900000002',
        tags: [vip, atacado],
      },
      { id: c3, accountId: accountA, name: 'Elisa', phone: '5511900000003' },
      { id: c4, accountId: accountA, name: 'Fábio', phone: '5511900000004', tags: [old] },
      { id: c5, accountId: accountA, name: 'Gabi', phone: '5511900000005', tags: [atacado] },
      { id: cb, accountId: ids.accountB, name: 'Outra conta', phone: '5511900000001', tags: [vip] },
    ]);
    const conv = (
      key: string,
      row: Omit<typeof conversations.$inferInsert, 'id' | 'accountId'> & { accountId?: string },
    ) => {
      ids.k[key] = newId();
      return { id: ids.k[key] as string, accountId: accountA, ...row };
    };
    const t = (iso: string) => new Date(iso);
    await tx.insert(conversations).values([
      // 31/03 11:00, human, open, waiting
      conv('k1', {
        contactId: c1,
        chipId: ids.chip1,
        departmentId: dep.support,
        createdAt: t('2026-03-31T14:00:00Z'),
        isManual: true,
        waitingResponse: true,
      }),
      // 31/03 00:00 (the day's first instant), AI chatbot, open, waiting
      conv('k2', {
        contactId: c2,
        chipId: ids.chip1,
        departmentId: dep.sales,
        createdAt: t('2026-03-31T03:00:00Z'),
        chatbotType: 'chatbot',
        waitingResponse: true,
      }),
      // 30/03 23:59 (31/03 in UTC), flow chatbot, no department, finished
      conv('k3', {
        contactId: c3,
        chipId: ids.chip2,
        createdAt: t('2026-03-31T02:59:00Z'),
        chatbotType: 'flow_chatbot',
        finishedAt: t('2026-03-31T05:00:00Z'),
      }),
      // 25/03, chatbot then human then back (human_at stays): human, finished
      conv('k4', {
        contactId: c1,
        chipId: ids.chip2,
        departmentId: dep.support,
        createdAt: t('2026-03-25T12:00:00Z'),
        chatbotType: 'chatbot',
        finishedAt: t('2026-03-26T12:00:00Z'),
      }),
      // 25/03 17:00, AI chatbot, finished (its contact has only a filed tag)
      conv('k5', {
        contactId: c4,
        chipId: ids.chip1,
        departmentId: dep.sales,
        createdAt: t('2026-03-25T20:00:00Z'),
        chatbotType: 'chatbot',
        finishedAt: t('2026-03-25T21:00:00Z'),
      }),
      // 02/03 00:00: the 30-day interval's first instant; human, finished
      conv('k6', {
        contactId: c5,
        chipId: ids.chip1,
        departmentId: dep.support,
        createdAt: t('2026-03-02T03:00:00Z'),
        isManual: true,
        finishedAt: t('2026-03-02T04:00:00Z'),
      }),
      // 01/03 23:59: one minute before the 30-day interval; AI chatbot, finished
      conv('k7', {
        contactId: c5,
        chipId: ids.chip2,
        departmentId: dep.sales,
        createdAt: t('2026-03-02T02:59:00Z'),
        chatbotType: 'chatbot',
        finishedAt: t('2026-03-02T04:00:00Z'),
      }),
      // 15/02, human, finished: outside every button but 90 days and more
      conv('k8', {
        contactId: c2,
        chipId: ids.chip2,
        departmentId: dep.sales,
        createdAt: t('2026-02-15T12:00:00Z'),
        isManual: true,
        finishedAt: t('2026-02-16T12:00:00Z'),
      }),
      // 29/03, flow chatbot, no department, open, not waiting
      conv('k9', {
        contactId: c3,
        chipId: ids.chip2,
        createdAt: t('2026-03-29T12:00:00Z'),
        chatbotType: 'flow_chatbot',
      }),
      // Account B: 31/03 human open (would make A's today 3 if it leaked), 20/03 without a chatbot type
      conv('kb1', {
        accountId: ids.accountB,
        contactId: cb,
        chipId: ids.chip3,
        createdAt: t('2026-03-31T12:00:00Z'),
        isManual: true,
        waitingResponse: true,
      }),
      conv('kb2', {
        accountId: ids.accountB,
        contactId: cb,
        chipId: ids.chip3,
        createdAt: t('2026-03-20T12:00:00Z'),
        finishedAt: t('2026-03-20T13:00:00Z'),
      }),
    ]);
    // k4 went to a person and came back to the chatbot: the trigger keeps human_at.
    await tx
      .update(conversations)
      .set({ isManual: true })
      .where(eq(conversations.id, ids.k.k4 as string));
    await tx
      .update(conversations)
      .set({ isManual: false })
      .where(eq(conversations.id, ids.k.k4 as string));
    const msg = (key: string, origin: 'customer' | 'user' | 'chatbot', iso: string, chip = ids.chip1) => ({
      id: newId(),
      accountId: key === 'kb1' ? ids.accountB : accountA,
      conversationId: ids.k[key] as string,
      chipId: chip,
      origin,
      type: 'text' as const,
      message: 'oi',
      createdAt: t(iso),
    });
    await tx.insert(messages).values([
      msg('k1', 'customer', '2026-03-31T14:00:00Z'),
      msg('k1', 'user', '2026-03-31T14:05:00Z'),
      msg('k2', 'customer', '2026-03-31T03:00:00Z'),
      msg('k2', 'chatbot', '2026-03-31T03:01:00Z'),
      // 30/03 23:59:30 and 31/03 00:00:30 in São Paulo
      msg('k3', 'customer', '2026-03-31T02:59:30Z', ids.chip2),
      msg('k3', 'chatbot', '2026-03-31T03:00:30Z', ids.chip2),
      // 01/03 23:59: outside 30 days
      msg('k7', 'customer', '2026-03-02T02:59:00Z', ids.chip2),
      msg('k6', 'customer', '2026-03-02T03:00:00Z'),
      msg('kb1', 'customer', '2026-03-31T12:00:00Z', ids.chip3),
      msg('kb1', 'user', '2026-03-31T12:01:00Z', ids.chip3),
    ]);
  });
  return ids;
}

/** 30 zero points from 02/03 to 31/03, with `over` on some days. */
function month<T extends Record<string, number>>(zero: T, over: Record<string, Partial<T>>) {
  const out: ({ _id: string } & T)[] = [];
  for (let d = 2; d <= 31; d++) {
    const day = `2026-03-${String(d).padStart(2, '0')}`;
    out.push({ _id: day, ...zero, ...over[day] } as { _id: string } & T);
  }
  return out;
}

const refusal = async (call: string, body: unknown, token: string) => {
  const r = await ctx.t.post(call, body, token);
  expect(r.status, `${call} ${JSON.stringify(body)}`).toBe(200);
  expect(r.body.error, `${call} ${JSON.stringify(body)}`).toBe(true);
  return (r.body as { message: string }).message;
};

describe('dashboard numbers of a seeded month', () => {
  let ids: Ids;
  let owner: string;
  beforeEach(async () => {
    ctx.t.server.services.clock = { now: () => NOW };
    ids = await seedMonth(ctx.t.server.services.db, ctx.seed.accountId, ctx.seed.departments);
    owner = await ctx.t.login('dono@demo.com');
  });

  it('the trigger keeps human_at: set on insert (its opening), on the first handover, never cleared', async () => {
    const rows = await ctx.t.server.services.db
      .select({ id: conversations.id, humanAt: conversations.humanAt, isManual: conversations.isManual })
      .from(conversations);
    const of = (k: string) => rows.find((r) => r.id === ids.k[k]);
    expect(of('k1')?.humanAt?.toISOString()).toBe('2026-03-31T14:00:00.000Z');
    expect(of('k2')?.humanAt).toBeNull();
    expect(of('k4')?.isManual).toBe(false);
    expect(of('k4')?.humanAt).not.toBeNull();
    expect(rows.filter((r) => r.humanAt).length).toBe(5); // k1, k4, k6, k8, kb1
  });

  it('30 days: every card and chart, by hand', async () => {
    const d = await ctx.t.call('get-dashboard-data', { interval: 30 }, owner);
    expect(d.interval).toEqual({
      start: '2026-03-02',
      end: '2026-03-31',
      days: 30,
      time_zone: 'America/Sao_Paulo',
    });
    // k1 k4 k6 human; k2 k3 k5 k9 chatbot. k7 (01/03 23:59), k8 and account B's are out.
    expect(d.conversation_cards).toEqual({ all: 7, chatbot: 4, manual: 3 });
    expect(d.conversation_chart).toEqual(
      month(
        { all: 0, chatbot: 0, manual: 0 },
        {
          '2026-03-02': { all: 1, manual: 1 },
          '2026-03-25': { all: 2, chatbot: 1, manual: 1 },
          '2026-03-29': { all: 1, chatbot: 1 },
          '2026-03-30': { all: 1, chatbot: 1 },
          '2026-03-31': { all: 2, chatbot: 1, manual: 1 },
        },
      ),
    );
    expect(d.departments).toEqual(['Suporte', 'Vendas', 'Sem departamento']);
    expect(d.conversation_chart_departments).toEqual(
      month(
        { Suporte: 0, Vendas: 0, 'Sem departamento': 0 },
        {
          '2026-03-02': { Suporte: 1 },
          '2026-03-25': { Suporte: 1, Vendas: 1 },
          '2026-03-29': { 'Sem departamento': 1 },
          '2026-03-30': { 'Sem departamento': 1 },
          '2026-03-31': { Suporte: 1, Vendas: 1 },
        },
      ),
    );
    expect(d.department_distribution).toEqual([
      { name: 'Suporte', all: 3 },
      { name: 'Vendas', all: 2 },
      { name: 'Sem departamento', all: 2 },
    ]);
    // VIP: k1 k2 k4 (c1, c2, c1); Atacado: k2 k6. The filed tag of c4 is not shown; B's VIP contact is B's.
    expect(d.tag_distribution).toEqual([
      { name: 'VIP', all: 3, color: '#ff0000' },
      { name: 'Atacado', all: 2, color: '#00ff00' },
    ]);
    const [c1, c2, c3, c4, c5] = ids.c;
    expect(d.latest_contacts.map((c) => [c._id, c.created])).toEqual([
      [c1, '2026-03-31T14:00:00.000Z'],
      [c2, '2026-03-31T03:00:00.000Z'],
      [c3, '2026-03-31T02:59:00.000Z'],
      [c4, '2026-03-25T20:00:00.000Z'],
      [c5, '2026-03-02T03:00:00.000Z'],
    ]);
    expect(d.latest_contacts[1]).toMatchObject({
      name: 'Diego',
      override_name: 'Diego (atacado)',
      phone: '5511900000002',
      profile_picture: null,
    });
  });

  it('latest contacts: the same when one contact holds the last 250 conversations', async () => {
    const { db } = ctx.t.server.services;
    const [c1, c2, c3, c4, c5] = ids.c as string[];
    await db.insert(conversations).values(
      Array.from({ length: 250 }, (_, i) => ({
        id: newId(),
        accountId: ctx.seed.accountId,
        chipId: ids.chip2,
        contactId: c3 as string,
        createdAt: new Date(Date.parse('2026-03-30T12:00:00Z') + i * 1000),
        finishedAt: new Date('2026-03-30T20:00:00Z'),
      })),
    );
    const d = await ctx.t.call('get-dashboard-data', { interval: 30 }, owner);
    expect(d.conversation_cards.all).toBe(257);
    expect(d.latest_contacts.map((c) => c._id)).toEqual([c1, c2, c3, c4, c5]);
  });

  it('the other buttons and custom ranges', async () => {
    const cards = async (interval: unknown) =>
      (await ctx.t.call('get-dashboard-data', { interval }, owner)).conversation_cards;
    // Today: k1 (11:00) and k2 (00:00); k3 (23:59 yesterday) and B's are not.
    expect(await cards(1)).toEqual({ all: 2, chatbot: 1, manual: 1 });
    // 25/03 to 31/03: k1 k2 k3 k4 k5 k9.
    expect(await cards(7)).toEqual({ all: 6, chatbot: 4, manual: 2 });
    expect(await cards(90)).toEqual({ all: 9, chatbot: 5, manual: 4 });
    // Beyond a month the tags are counted by a join instead of look-ups: the same rule. VIP: k1 k2 k4 k8;
    // Atacado: k2 k6 k7 k8 (a tie: by name).
    expect((await ctx.t.call('get-dashboard-data', { interval: 90 }, owner)).tag_distribution).toEqual([
      { name: 'Atacado', all: 4, color: '#00ff00' },
      { name: 'VIP', all: 4, color: '#ff0000' },
    ]);
    // The default is 7 days.
    expect((await ctx.t.call('get-dashboard-data', {}, owner)).interval.days).toBe(7);
    expect(await cards({ start: '2026-03-01', end: '2026-03-01' })).toEqual({
      all: 1,
      chatbot: 1,
      manual: 0,
    });
    expect(await cards({ start: '2026-03-30', end: '2026-03-30' })).toEqual({
      all: 1,
      chatbot: 1,
      manual: 0,
    });
    // Into the future: clamped to today.
    const far = await ctx.t.call(
      'get-dashboard-data',
      { interval: { start: '2026-02-01', end: '2026-04-30' } },
      owner,
    );
    expect(far.interval).toMatchObject({ start: '2026-02-01', end: '2026-03-31', days: 59 });
    expect(far.conversation_cards).toEqual({ all: 9, chatbot: 5, manual: 4 });
    expect(far.conversation_chart).toHaveLength(59);
  });

  it("the account's time zone decides the day", async () => {
    await ctx.t.server.services.db
      .update(accounts)
      .set({ timeZone: 'UTC' })
      .where(eq(accounts.id, ctx.seed.accountId));
    const token = await ctx.t.login('dono@demo.com');
    const d = await ctx.t.call('get-dashboard-data', { interval: 1 }, token);
    expect(d.interval).toMatchObject({ start: '2026-03-31', time_zone: 'UTC' });
    // In UTC k3 (02:59) is on the 31st too.
    expect(d.conversation_cards).toEqual({ all: 3, chatbot: 2, manual: 1 });
  });

  it('one chip: its conversations, no tag chart; the real-time cards', async () => {
    const d = await ctx.t.call('get-dashboard-data', { interval: 30, selected_chip: ids.chip1 }, owner);
    // chip 1: k1 k2 k5 k6
    expect(d.conversation_cards).toEqual({ all: 4, chatbot: 2, manual: 2 });
    expect(d.department_distribution).toEqual([
      { name: 'Suporte', all: 2 },
      { name: 'Vendas', all: 2 },
    ]);
    expect(d.tag_distribution).toEqual([]);
    expect(d.latest_contacts.map((c) => c._id)).toEqual([ids.c[0], ids.c[1], ids.c[3], ids.c[4]]);
    // Open now: k1 (human, waiting), k2 (chatbot, waiting) on chip 1; k9 (chatbot) on chip 2.
    expect(await ctx.t.call('get-dashboard-real-time-data', {}, owner)).toEqual({
      all: 3,
      waiting_response: 2,
      chatbot: 2,
      manual: 1,
    });
    expect(await ctx.t.call('get-dashboard-real-time-data', { selected_chip: ids.chip1 }, owner)).toEqual({
      all: 2,
      waiting_response: 2,
      chatbot: 1,
      manual: 1,
    });
    expect(await ctx.t.call('get-dashboard-real-time-data', { selected_chip: ids.chip2 }, owner)).toEqual({
      all: 1,
      waiting_response: 0,
      chatbot: 1,
      manual: 0,
    });
  });

  it('the technical dashboard: every account, São Paulo days', async () => {
    const admin = await ctx.t.login('admin@demo.com');
    const d = await ctx.t.call('get-admin-dashboard-data', { interval: 30 }, admin);
    expect(d.interval).toMatchObject({ start: '2026-03-02', end: '2026-03-31', days: 30 });
    expect(d.admin_cards).toEqual({
      // k1 k4 k6 kb1 human; k2 k5 AI; k3 k9 kb2 (no type) flow.
      conversations_all: 9,
      conversations_chatbot: 5,
      conversations_manual: 4,
      // Plataforma and Loja Demo (active), B (trial); C is canceled.
      accounts_active: 3,
      // chip 1 and B's chip; B's filed one is not counted.
      chips_connected: 2,
      // k1 c u, k2 c b, k3 c b, k6 c, kb1 c u; k7's is on 01/03.
      messages_all: 9,
      messages_chatbot: 2,
      messages_manual: 2,
    });
    expect(d.admin_charts.conversations).toEqual(
      month(
        { human: 0, ai_chatbot: 0, flow_chatbot: 0 },
        {
          '2026-03-02': { human: 1 },
          '2026-03-20': { flow_chatbot: 1 },
          '2026-03-25': { human: 1, ai_chatbot: 1 },
          '2026-03-29': { flow_chatbot: 1 },
          '2026-03-30': { flow_chatbot: 1 },
          '2026-03-31': { human: 2, ai_chatbot: 1 },
        },
      ),
    );
    expect(d.admin_charts.messages).toEqual(
      month(
        { user: 0, chatbot: 0, customer: 0 },
        {
          '2026-03-02': { customer: 1 },
          '2026-03-30': { customer: 1 },
          '2026-03-31': { customer: 3, user: 2, chatbot: 2 },
        },
      ),
    );
    expect(d.admin_charts.chip_distribution).toEqual([
      { _id: 'Conectado', all: 2 },
      { _id: 'Conectando', all: 1 },
      { _id: 'Desconectado', all: 1 },
    ]);
  });

  it('bad intervals and chips: a pt-BR refusal, never a 500', async () => {
    const asks: [unknown, string][] = [
      [2, M.intervalInvalid],
      [0, M.intervalInvalid],
      [-7, M.intervalInvalid],
      [{ start: '2026-02-30', end: '2026-03-01' }, M.dateInvalid],
      [{ start: '2026-03-10', end: '2026-03-01' }, M.rangeReversed],
      [{ start: '2024-01-01', end: '2026-03-01' }, M.rangeTooLong],
      [{ start: '2026-04-01', end: '2026-04-02' }, M.rangeInFuture],
    ];
    for (const [interval, message] of asks) {
      expect(await refusal('get-dashboard-data', { interval }, owner)).toBe(message);
    }
    const admin = await ctx.t.login('admin@demo.com');
    expect(await refusal('get-admin-dashboard-data', { interval: 2 }, admin)).toBe(M.intervalInvalid);
    expect(
      await refusal(
        'get-admin-dashboard-data',
        { interval: { start: '2026-03-10', end: '2026-03-01' } },
        admin,
      ),
    ).toBe(M.rangeReversed);
    // Malformed payloads: refused by the contract, still a clear message and no 500.
    for (const interval of ['7', { start: 'ontem', end: 'hoje' }, null, { start: '2026-03-01' }]) {
      expect(await refusal('get-dashboard-data', { interval }, owner)).toBeTruthy();
    }
    // Another account's chip, an unknown one: as if it did not exist.
    for (const chip of [ids.chip3, newId()]) {
      expect(await refusal('get-dashboard-data', { interval: 7, selected_chip: chip }, owner)).toBe(
        texts.chipNotFound,
      );
      expect(await refusal('get-dashboard-real-time-data', { selected_chip: chip }, owner)).toBe(
        texts.chipNotFound,
      );
    }
  });

  it('the access rule: area dashboard for the report, tech_dashboard for the technical one', async () => {
    const attendant = await ctx.t.login('atendente@demo.com');
    for (const call of ['get-dashboard-data', 'get-dashboard-real-time-data'])
      expect(await refusal(call, {}, attendant)).toBe(texts.insufficientPermissions);
    for (const call of ['get-admin-dashboard-data', 'get-online-users']) {
      expect(await refusal(call, {}, owner)).toBe(texts.insufficientPermissions);
      expect(await refusal(call, {}, attendant)).toBe(texts.insufficientPermissions);
    }
    // A manager without the dashboard area.
    await ctx.t.server.services.db
      .update(users)
      .set({ accessAreas: ['contacts'] })
      .where(eq(users.email, 'gerente@demo.com'));
    const manager = await ctx.t.login('gerente@demo.com');
    expect(await refusal('get-dashboard-data', {}, manager)).toBe(texts.insufficientPermissions);
    // The platform admin holds tech_dashboard (and its own account's dashboard, with no rows).
    const admin = await ctx.t.login('admin@demo.com');
    expect((await ctx.t.call('get-dashboard-data', { interval: 30 }, admin)).conversation_cards).toEqual({
      all: 0,
      chatbot: 0,
      manual: 0,
    });
  });
});

describe('who served a conversation: one definition for the live cards, the report and /dash-tecnico', () => {
  it('each path counts the same on all three (shared/rules/service-kind.ts)', async () => {
    const { db } = ctx.t.server.services;
    ctx.t.server.services.clock = { now: () => NOW };
    const accountId = ctx.seed.accountId;
    const chipId = newId();
    await db.insert(chips).values({ id: chipId, accountId, name: 'Chip', status: 'open' });
    const createdAt = new Date('2026-03-31T14:00:00Z');
    let n = 0;
    /** A customer's open conversation (one per contact and chip). */
    const open = async (row: Partial<typeof conversations.$inferInsert>) => {
      const [id, contactId] = [newId(), newId()];
      const phone = `55119000001${String(n++).padStart(2, '0')}`;
      await db.insert(contacts).values({ id: contactId, accountId, name: 'Rita', phone });
      await db.insert(conversations).values({ id, accountId, chipId, contactId, createdAt, ...row });
      return id;
    };
    const set = (id: string, row: Partial<typeof conversations.$inferInsert>) =>
      db.update(conversations).set(row).where(eq(conversations.id, id));
    const userSaid = (conversationId: string) =>
      db.insert(messages).values({
        id: newId(),
        accountId,
        conversationId,
        chipId,
        origin: 'user',
        type: 'text',
        message: 'Olá',
        createdAt,
      });
    // Flow only; chatbot only.
    await open({ chatbotType: 'flow_chatbot' });
    await open({ chatbotType: 'chatbot' });
    // Chatbot → human and flow → human: their handovers.
    await set(await open({ chatbotType: 'chatbot' }), { isManual: true });
    await set(await open({ chatbotType: 'flow_chatbot' }), { isManual: true });
    // Human only (the chip's first service), answered by a user.
    await userSaid(await open({ isManual: true }));
    // API / webhook started: opened in human service (the chip's first) and handed to the flow at once.
    await set(await open({ isManual: true }), { isManual: false, chatbotType: 'flow_chatbot' });
    // Human, answered by a user, then transferred to a flow: a person served it.
    const served = await open({ isManual: true });
    await userSaid(served);
    await set(served, { isManual: false, chatbotType: 'flow_chatbot' });

    const owner = await ctx.t.login('dono@demo.com');
    const admin = await ctx.t.login('admin@demo.com');
    const report = await ctx.t.call('get-dashboard-data', { interval: 1 }, owner);
    const live = await ctx.t.call('get-dashboard-real-time-data', {}, owner);
    const tech = await ctx.t.call('get-admin-dashboard-data', { interval: 1 }, admin);
    expect(report.conversation_cards).toEqual({ all: 7, chatbot: 3, manual: 4 });
    expect(live).toMatchObject({ all: 7, chatbot: 3, manual: 4 });
    expect(tech.admin_cards).toMatchObject({
      conversations_all: 7,
      conversations_chatbot: 3,
      conversations_manual: 4,
    });
    expect(tech.admin_charts.conversations).toEqual([
      { _id: '2026-03-31', human: 4, ai_chatbot: 1, flow_chatbot: 2 },
    ]);
  });
});

describe('online users and the live hints', () => {
  it('counts distinct users with a live socket, not simulator pages', async () => {
    const { t } = ctx;
    const admin = await t.login('admin@demo.com');
    // The admin asking counts, socket or not ('Usuários online 0' while the admin looked at it).
    const before = (await t.call('get-online-users', {}, admin)).count;
    expect(before).toBe(1);
    const owner = await t.login('dono@demo.com');
    const a = t.socket(owner);
    const b = t.socket(await t.login('dono@demo.com'));
    const c = t.socket(await t.login('gerente@demo.com'));
    await Promise.all([connected(a), connected(b), connected(c)]);
    expect((await t.call('get-online-users', {}, admin)).count).toBe(3);
    c.close();
    await until(async () => (await t.call('get-online-users', {}, admin)).count === 2);
  });

  it('a socket in the dashboard room hears load_open_conversations and load_realtime; the cards change', async () => {
    const { t, seed } = ctx;
    const owner = await t.login('dono@demo.com');
    const { chip, simulatorToken } = await connectedSimulatorChip(t, owner, {
      department: seed.departments.support,
      redirect: 'human',
    });
    // The owner's socket is in the dashboard room from its handshake: it asks for nothing.
    const dash = t.socket(owner);
    await connected(dash);
    const events = collect(dash);
    // An attendant may not hold the dashboard: not put in the room, and refused if it asks; nor may anyone
    // join another account's room.
    const attendant = t.socket(await t.login('atendente@demo.com'));
    await connected(attendant);
    const attendantEvents = collect(attendant);
    expect(
      await new Promise<boolean>((resolve) =>
        attendant.emit('join-room', dashboardRoom(seed.accountId), resolve),
      ),
    ).toBe(false);
    expect(
      await new Promise<boolean>((resolve) => dash.emit('join-room', dashboardRoom(newId()), resolve)),
    ).toBe(false);

    expect(await t.call('get-dashboard-real-time-data', {}, owner)).toEqual({
      all: 0,
      waiting_response: 0,
      chatbot: 0,
      manual: 0,
    });
    let n = 0;
    const say = (text: string) =>
      t.call('simulator-send', {
        token: simulatorToken,
        phone: '5511988887777',
        name: 'Rita',
        id: `dash${Date.now().toString(36)}${n++}xxxxxxx`,
        type: 'text',
        text,
      });
    await say('Oi, tudo bem?');
    const opened = await events.next('load_open_conversations');
    expect(opened.message.chip_id).toBe(chip._id);
    expect(await t.call('get-dashboard-real-time-data', {}, owner)).toEqual({
      all: 1,
      waiting_response: 1,
      chatbot: 0,
      manual: 1,
    });
    // A burst of ten messages: at most a couple of hints, not ten.
    events.events.length = 0;
    const burstStart = Date.now();
    for (let i = 0; i < 10; i++) await say(`mensagem ${i}`);
    const burstMs = Date.now() - burstStart;
    // The customer's messages: load_realtime.
    await events.next('load_realtime');
    await new Promise((r) => setTimeout(r, 600));
    // next() took the first hint out of the list: it counts too.
    const hints = 1 + events.events.filter((e) => e.type === 'load_realtime').length;
    // One at once, then at most one per window (and the trailing one): never one per message.
    expect(hints).toBeGreaterThanOrEqual(1);
    expect(hints).toBeLessThanOrEqual(Math.min(9, Math.ceil(burstMs / 250) + 2));
    // The attendant's socket (not in the room) heard no hint.
    expect(attendantEvents.events.some((e) => e.type === 'load_realtime')).toBe(false);
    const [conversation] = await t.server.services.db
      .select({ id: conversations.id, humanAt: conversations.humanAt })
      .from(conversations)
      .where(eq(conversations.chipId, chip._id));
    // Opened by a human-served chip: human since its opening.
    expect(conversation?.humanAt).not.toBeNull();
    // Finished: load_open_conversations, and the cards are empty again.
    await new Promise((r) => setTimeout(r, 300));
    events.events.length = 0;
    await t.call('finish-conversation', { conversation_id: conversation?.id }, owner);
    await events.next('load_open_conversations');
    expect(await t.call('get-dashboard-real-time-data', {}, owner)).toMatchObject({ all: 0, manual: 0 });
  });

  it('a manager hears the hints once given the dashboard area, on the socket already open', async () => {
    const { t, seed } = ctx;
    const owner = await t.login('dono@demo.com');
    const { simulatorToken } = await connectedSimulatorChip(t, owner, {
      department: seed.departments.support,
      redirect: 'human',
    });
    const [manager] = (await t.call('get-team-users', {}, owner)).filter(
      (u) => u.email === 'gerente@demo.com',
    );
    if (!manager) throw new Error('seed changed');
    const withoutDashboard = manager.access_areas.filter((a) => a !== 'dashboard');
    await t.call('update-team-user', { ...manager, access_areas: withoutDashboard }, owner);
    const sock = t.socket(await t.login('gerente@demo.com'));
    await connected(sock);
    const events = collect(sock);
    let n = 0;
    const say = () =>
      t.call('simulator-send', {
        token: simulatorToken,
        phone: '5511977776666',
        name: 'Bia',
        id: `area${Date.now().toString(36)}${n++}xxxxxxx`,
        type: 'text',
        text: 'Olá',
      });
    await say();
    // The manager sees the conversation open, but no hint.
    await events.next('new_conversation');
    await new Promise((r) => setTimeout(r, 400));
    expect(events.events.some((e) => e.type.startsWith('load_'))).toBe(false);
    // Given the area: the open socket is moved into the room at once.
    await t.call('update-team-user', { ...manager, access_areas: [...withoutDashboard, 'dashboard'] }, owner);
    await say();
    await events.next('load_realtime');
  });
});
