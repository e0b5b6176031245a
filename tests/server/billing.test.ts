// Billing (issue 22): the Guru offers, the Guru webhook (authenticity, replay, unknown offer, the account it
// creates or renews, the past-due status the app reads), the financial dashboard's arithmetic over a seeded
// ledger with hand-computed figures, and every role boundary.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accounts, billingEvents, users } from '@/server/db/schema';
import { rebuildBillingDays } from '@/server/domains/billing/financial';
import { messages } from '@/shared/messages';
import { billingMessages as M } from '@/shared/messages-billing';
import { GURU_TOKEN, postGuru, proOffer, type Sale, subscriptionEvent, transaction } from './billing-helpers';
import { mailsHandedOn, testServerPerFile } from './helpers';

const ctx = testServerPerFile({ GURU_WEBHOOK_TOKEN: GURU_TOKEN });
const db = () => ctx.t.server.services.db;

const refusal = async (call: string, body: unknown, token: string) => {
  const r = await ctx.t.post(call, body, token);
  expect(r.status).toBe(200);
  expect(r.body.error, call).toBe(true);
  return r.body as { error: true; message: string; field?: string };
};
const ledgerSize = async () =>
  (await db().select({ n: sql<number>`count(*)::int` }).from(billingEvents))[0]?.n;
const admin = () => ctx.t.login('admin@demo.com');

describe('offers', () => {
  it('creates, lists with an accent-insensitive search and edits an offer', async () => {
    const token = await admin();
    const made = await ctx.t.call('create-guru-offer', proOffer, token);
    expect(made).toMatchObject({
      name: 'Plano Pro',
      offer_id: 'off-pro',
      max_channels: 4,
      campaigns_enabled: true,
    });
    await ctx.t.call(
      'create-guru-offer',
      { ...proOffer, name: 'Promoção Anual', offer_id: 'off-anual' },
      token,
    );
    const found = await ctx.t.call('get-guru-offers', { query: 'PROMOCAO' }, token);
    expect(found.map((o) => o.name)).toEqual(['Promoção Anual']);
    expect((await ctx.t.call('get-guru-offers', { query: 'ção' }, token)).map((o) => o.name)).toEqual([
      'Promoção Anual',
    ]);
    expect((await ctx.t.call('get-guru-offers', {}, token)).map((o) => o.name)).toEqual([
      'Plano Pro',
      'Promoção Anual',
    ]);
    const edited = await ctx.t.call(
      'update-guru-offer',
      { ...proOffer, _id: made._id, name: 'Plano Pró', max_users: 12 },
      token,
    );
    expect(edited).toMatchObject({ _id: made._id, name: 'Plano Pró', max_users: 12 });
  });

  it('refuses a missing name, bad limits and a Guru offer id already used, storing nothing', async () => {
    const token = await admin();
    expect(await refusal('create-guru-offer', { ...proOffer, name: '  ' }, token)).toMatchObject({
      message: messages.nameRequired,
      field: 'name',
    });
    const { name: _n, ...noName } = proOffer;
    expect((await refusal('create-guru-offer', noName, token)).message).toBe(messages.nameRequired);
    expect(await refusal('create-guru-offer', { ...proOffer, max_users: -1 }, token)).toMatchObject({
      message: messages.maxUsersInvalid,
      field: 'max_users',
    });
    expect((await refusal('create-guru-offer', { ...proOffer, max_flows: 1e9 }, token)).message).toBe(
      messages.maxFlowsInvalid,
    );
    expect((await refusal('create-guru-offer', { ...proOffer, max_channels: 1.5 }, token)).message).toBe(
      messages.maxChannelsInvalid,
    );
    await ctx.t.call('create-guru-offer', proOffer, token);
    const dup = await refusal('create-guru-offer', { ...proOffer, name: 'Outra' }, token);
    expect(dup).toMatchObject({ message: M.offerIdTaken, field: 'offer_id' });
    expect(await ctx.t.call('get-guru-offers', {}, token)).toHaveLength(1);
  });
});

describe('role boundaries', () => {
  const calls = [
    ['get-guru-offers', {}],
    ['create-guru-offer', proOffer],
    ['update-guru-offer', { ...proOffer, _id: 'A'.repeat(28) }],
    ['get-financial-dashboard-data', {}],
  ] as const;

  it('refuses every billing call to an account owner without system roles', async () => {
    const owner = await ctx.t.login('dono@demo.com');
    for (const [call, body] of calls)
      expect((await refusal(call, body, owner)).message).toBe(messages.insufficientPermissions);
  });

  it('customer_admin manages offers but cannot read the financial dashboard, and the reverse', async () => {
    await db()
      .update(users)
      .set({ systemUserRoles: ['customer_admin'] })
      .where(eq(users.email, 'admin@demo.com'));
    let token = await admin();
    await ctx.t.call('get-guru-offers', {}, token);
    expect((await refusal('get-financial-dashboard-data', {}, token)).message).toBe(
      messages.insufficientPermissions,
    );
    await db()
      .update(users)
      .set({ systemUserRoles: ['financial_dashboard'] })
      .where(eq(users.email, 'admin@demo.com'));
    token = await admin();
    await ctx.t.call('get-financial-dashboard-data', {}, token);
    for (const [call, body] of calls.slice(0, 3))
      expect((await refusal(call, body, token)).message).toBe(messages.insufficientPermissions);
  });
});

describe('the Guru webhook', () => {
  const sale = {
    id: 'tx-1',
    email: 'nova@cliente.com',
    name: 'Nova Cliente',
    subscription: 'sub-1',
    total: 97,
    at: '2026-03-20T15:00:00Z',
  };

  it('refuses a wrong, missing or empty token and stores nothing', async () => {
    await ctx.t.call('create-guru-offer', proOffer, await admin());
    for (const body of [
      transaction(sale, 'wrong-token-wrong-token-wrong'),
      transaction(sale, null),
      transaction(sale, ''),
    ]) {
      const r = await postGuru(ctx.t, body);
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ error: true, message: M.webhookTokenInvalid });
    }
    expect((await postGuru(ctx.t, null, '{not json')).status).toBe(400);
    expect((await postGuru(ctx.t, { ...transaction(sale), webhook_type: 'other' })).body.message).toBe(
      M.webhookTypeUnknown,
    );
    expect(await ledgerSize()).toBe(0);
    expect(await db().select().from(users).where(eq(users.email, sale.email))).toHaveLength(0);
  });

  it('a sale creates the account with the offer limits and mails the owner a link; a replay changes nothing', async () => {
    await ctx.t.call('create-guru-offer', proOffer, await admin());
    const first = await postGuru(ctx.t, transaction(sale));
    expect(first).toMatchObject({
      status: 200,
      body: { error: false, message: messages.eventReceived, duplicate: false },
    });
    const [owner] = await db().select().from(users).where(eq(users.email, sale.email));
    expect(owner).toMatchObject({ userRole: 'owner', name: 'Nova Cliente' });
    const [account] = await db()
      .select()
      .from(accounts)
      .where(eq(accounts.id, owner?.accountId ?? ''));
    expect(account).toMatchObject({
      maxChannels: 4,
      maxOfficialChannels: 2,
      maxUsers: 8,
      maxFlows: 6,
      maxSummaries: 300,
      maxFollowUps: 200,
      campaignsEnabled: true,
      planId: 'off-pro',
      subscriptionStatus: 'active',
    });
    // The welcome mail's link sets the password; the owner signs in with it.
    await mailsHandedOn(ctx.t);
    const dir = path.join(ctx.t.dataDir, 'mail');
    const files = (await readdir(dir)).sort();
    const mail = (await readFile(path.join(dir, files.at(-1) as string), 'utf8'))
      .replace(/=\r?\n/g, '')
      .replace(/=3D/g, '=');
    expect(mail).toContain(`To: ${sale.email}`);
    const link = /\/redefinir-senha\?token=([\w-]+)/.exec(mail)?.[1] as string;
    await ctx.t.call('reset-password', { token: link, password: 'segredo123' });
    const ownerToken = await ctx.t.login(sale.email, 'segredo123');
    expect(await ctx.t.call('get-guru-subscription', {}, ownerToken)).toMatchObject({
      last_status: 'active',
    });

    const before = { ledger: await ledgerSize(), users: (await db().select().from(users)).length };
    const replay = await postGuru(ctx.t, transaction({ ...sale, total: 500 }));
    expect(replay).toMatchObject({
      status: 200,
      body: { error: false, message: M.alreadyReceived, duplicate: true },
    });
    expect(await ledgerSize()).toBe(before.ledger);
    expect((await db().select().from(users)).length).toBe(before.users);
    const [row] = await db().select().from(billingEvents);
    expect(row).toMatchObject({
      kind: 'sale',
      saleType: 'new',
      amountCents: 9700,
      accountId: owner?.accountId,
    });
    expect(row?.payload).not.toHaveProperty('api_token');
    // Two replays at once: one ledger row still.
    await Promise.all([postGuru(ctx.t, transaction(sale)), postGuru(ctx.t, transaction(sale))]);
    expect(await ledgerSize()).toBe(before.ledger);
  });

  it('a transaction and a subscription event of one new buyer at once make one account', async () => {
    await ctx.t.call('create-guru-offer', proOffer, await admin());
    const active = subscriptionEvent({ id: 'sub-1', status: 'active', at: sale.at, email: sale.email });
    const answers = await Promise.all([postGuru(ctx.t, transaction(sale)), postGuru(ctx.t, active)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(await db().select().from(users).where(eq(users.email, sale.email))).toHaveLength(1);
    expect(await ledgerSize()).toBe(2);
  });

  it('an unknown offer is answered and stored as rejected, nothing else changes; its retry after the offer exists is applied', async () => {
    const body = transaction({ ...sale, offer: 'off-desconhecida' });
    const r = await postGuru(ctx.t, body);
    expect(r).toMatchObject({
      status: 422,
      body: { error: true, message: M.unknownOffer('off-desconhecida') },
    });
    const rows = await db().select().from(billingEvents);
    expect(rows).toMatchObject([
      { kind: 'rejected', error: M.unknownOffer('off-desconhecida'), accountId: null },
    ]);
    expect(await db().select().from(users).where(eq(users.email, sale.email))).toHaveLength(0);
    await ctx.t.call('create-guru-offer', { ...proOffer, offer_id: 'off-desconhecida' }, await admin());
    expect((await postGuru(ctx.t, body)).status).toBe(200);
    expect(await ledgerSize()).toBe(1);
    expect(await db().select().from(users).where(eq(users.email, sale.email))).toHaveLength(1);
  });

  it('renews an owner’s account by e-mail; pastdue reaches get-guru-subscription with the payment link; canceled and refunds change the status', async () => {
    await ctx.t.call('create-guru-offer', proOffer, await admin());
    const owner = await ctx.t.login('dono@demo.com');
    const renew = { ...sale, email: 'dono@demo.com', id: 'tx-dono', subscription: 'sub-dono' };
    expect((await postGuru(ctx.t, transaction(renew))).status).toBe(200);
    expect(await db().select().from(users).where(eq(users.email, 'dono@demo.com'))).toHaveLength(1);
    const [acc] = await db().select().from(accounts).where(eq(accounts.id, ctx.seed.accountId));
    expect(acc).toMatchObject({ maxUsers: 8, planId: 'off-pro', subscriptionStatus: 'active' });

    const late = subscriptionEvent({
      id: 'sub-dono',
      status: 'pastdue',
      at: '2026-04-20T15:00:00Z',
      email: 'dono@demo.com',
      cycle: 2,
      paymentUrl: 'https://pay.example/inv-2',
    });
    expect((await postGuru(ctx.t, late)).status).toBe(200);
    expect(await ctx.t.call('get-guru-subscription', {}, owner)).toEqual({
      last_status: 'pastdue',
      invoices: [{ cycle: 2, status: 'overdue', payment_url: 'https://pay.example/inv-2' }],
    });
    expect((await postGuru(ctx.t, late)).body.duplicate).toBe(true);

    const canceled = subscriptionEvent({
      id: 'sub-dono',
      status: 'canceled',
      at: '2026-04-25T15:00:00Z',
      email: 'dono@demo.com',
      cycle: 2,
    });
    expect((await postGuru(ctx.t, canceled)).status).toBe(200);
    expect((await ctx.t.call('get-guru-subscription', {}, owner)).last_status).toBe('canceled');
    expect(
      (await db().select().from(accounts).where(eq(accounts.id, ctx.seed.accountId)))[0]?.subscriptionStatus,
    ).toBe('canceled');

    // A new sale on the same subscription reactivates it; its refund cancels it again.
    const again = { ...renew, id: 'tx-dono-2', cycle: 3, at: '2026-05-20T15:00:00Z' };
    await postGuru(ctx.t, transaction(again));
    expect((await ctx.t.call('get-guru-subscription', {}, owner)).last_status).toBe('active');
    await postGuru(ctx.t, transaction({ ...again, status: 'refunded' }));
    expect((await ctx.t.call('get-guru-subscription', {}, owner)).last_status).toBe('canceled');
  });

  it('a status change for a subscription nobody has is refused and stored, changing nothing', async () => {
    const r = await postGuru(
      ctx.t,
      subscriptionEvent({
        id: 'sub-x',
        status: 'pastdue',
        at: '2026-03-20T15:00:00Z',
        email: 'ninguem@x.com',
      }),
    );
    expect(r).toMatchObject({ status: 422, body: { message: M.unknownSubscription('sub-x') } });
    expect(await db().select().from(billingEvents)).toMatchObject([{ kind: 'rejected' }]);
  });
});

describe('the financial dashboard', () => {
  // Noon of 2026-03-20 in São Paulo (UTC−3): 'today'.
  const NOW = new Date('2026-03-20T15:00:00Z');
  const day = (d: string, hourUtc = '15:00') => `${d}T${hourUtc}:00Z`;
  const sales: Sale[] = [
    { id: 'T1', email: 'a@x.com', subscription: 'S1', total: 100, cycle: 1, at: day('2026-03-20') },
    { id: 'T2', email: 'b@x.com', subscription: 'S2', total: 50, cycle: 2, at: day('2026-03-20') },
    // 23:30 of the 19th in São Paulo, 02:30 of the 20th in UTC: counts on the 19th.
    { id: 'T7', email: 'g@x.com', subscription: 'S7', total: 10, cycle: 1, at: day('2026-03-20', '02:30') },
    { id: 'T3', email: 'c@x.com', subscription: 'S3', total: 200, cycle: 1, at: day('2026-03-17') },
    { id: 'T4', email: 'd@x.com', subscription: 'S4', total: 70, cycle: 3, at: day('2026-03-10') },
    { id: 'T5', email: 'e@x.com', subscription: 'S5', total: 300, cycle: 1, at: day('2026-02-28') },
    // 00:30 of Feb 19th local: the first day of the 30; 23:30 of Feb 18th local: outside it.
    { id: 'T8', email: 'h@x.com', subscription: 'S8', total: 40, cycle: 2, at: day('2026-02-19', '03:30') },
    { id: 'T9', email: 'i@x.com', subscription: 'S9', total: 5, cycle: 1, at: day('2026-02-19', '02:30') },
    { id: 'T6', email: 'f@x.com', subscription: 'S6', total: 1000, cycle: 1, at: day('2026-02-03') },
  ];

  const saleOf = (id: string) => sales.find((s) => s.id === id) as Sale;

  it('computes every card and chart from the ledger (hand-computed figures, BRL cents)', async () => {
    ctx.t.server.services.clock = { now: () => NOW };
    try {
      await ctx.t.call('create-guru-offer', proOffer, await admin());
      for (const s of sales) expect((await postGuru(ctx.t, transaction(s))).status, s.id).toBe(200);
      await postGuru(ctx.t, transaction({ ...saleOf('T3'), status: 'refunded', at: day('2026-03-18') }));
      await postGuru(
        ctx.t,
        subscriptionEvent({ id: 'S4', status: 'canceled', at: day('2026-03-15'), email: 'd@x.com' }),
      );
      await postGuru(
        ctx.t,
        subscriptionEvent({ id: 'S1', status: 'pastdue', at: day('2026-03-20', '16:00'), email: 'a@x.com' }),
      );
      // Replays and an ignored status add nothing.
      await postGuru(ctx.t, transaction(saleOf('T1')));
      await postGuru(ctx.t, transaction({ ...saleOf('T4'), status: 'waiting_payment' }));

      const d = await ctx.t.call('get-financial-dashboard-data', {}, await admin());
      expect(d.today).toBe('2026-03-20');
      expect(d.real_time).toEqual({ active: 6, pastdue: 1, canceled: 2 });
      expect(d.sell_status).toEqual({ today: 1, week: 3, month: 4 });
      expect(d.sell_income).toEqual({
        today: { new_clients: 10000, old_clients: 5000, total: 15000, net: 15000 },
        week: { new_clients: 31000, old_clients: 5000, total: 36000, net: 16000 },
        month: { new_clients: 61000, old_clients: 16000, total: 77000, net: 57000 },
        two_weeks: { total: 43000 },
      });
      expect(d.refunds).toEqual({ today: { total: 0 }, week: { total: 20000 }, month: { total: 20000 } });
      // 43000/14 = 3071.43; 36000/7 = 5142.86; 77000/30 = 2566.67
      expect(d.averages).toEqual({ two_weeks: 3071, week: 5143, month: 2567 });
      // week: 3071.43 × 7 = 21500, 100 − 36000/21500 × 100 = −67.44; month: × 30 = 92142.86, 100 − 83.57 = 16.43
      expect(d.projections).toEqual({
        week: { value: 21500, difference: -67.4 },
        month: { value: 92143, difference: 16.4 },
      });
      const c = d.charts;
      expect(c.cycle_chart).toEqual([
        { _id: '1', all: 4 },
        { _id: '2', all: 2 },
        { _id: '3', all: 1 },
      ]);
      expect(c.sell_type_chart).toHaveLength(30);
      expect(c.sell_type_chart[0]).toEqual({ _id: '2026-02-19', new: 0, old: 1 });
      expect(c.sell_type_chart.find((p) => p._id === '2026-03-19')).toEqual({
        _id: '2026-03-19',
        new: 1,
        old: 0,
      });
      expect(c.sell_type_chart.at(-1)).toEqual({ _id: '2026-03-20', new: 1, old: 1 });
      expect(c.sell_income_chart).toHaveLength(60);
      expect(c.sell_income_chart.reduce((s, p) => s + p.income, 0)).toBe(177500);
      expect(c.sell_income_chart.find((p) => p._id === '2026-02-18')?.income).toBe(500);
      expect(c.month_incomes.slice(-2)).toEqual([
        { _id: '2026-02', total: 134500 },
        { _id: '2026-03', total: 43000 },
      ]);
      expect(c.month_incomes).toHaveLength(12);
      expect(c.month_refunds.at(-1)).toEqual({ _id: '2026-03', total: 20000 });
      expect(c.average_revenue_chart.at(-1)).toEqual({ reference_date: '2026-03-20', value: 3071 });
      expect(c.canceled_chart.find((p) => p.canceled > 0)).toEqual({ _id: '2026-03-15', canceled: 1 });
      expect(c.canceled_chart.reduce((s, p) => s + p.canceled, 0)).toBe(1);
      expect(c.active_accounts_chart[0]).toEqual({ reference_date: '2026-02-19', value: 3 });
      expect(c.active_accounts_chart.find((p) => p.reference_date === '2026-03-15')?.value).toBe(4);
      expect(c.active_accounts_chart.at(-1)).toEqual({ reference_date: '2026-03-20', value: 7 });
      expect(c.month_projection_chart).toHaveLength(31);
      expect(c.month_projection_chart[19]).toEqual({ _id: '2026-03-20', realized: 43000, projected: 43000 });
      expect(c.month_projection_chart.at(-1)).toEqual({
        _id: '2026-03-31',
        realized: null,
        projected: 76786,
      });
      // The running day totals equal the ones recomputed from the ledger.
      await rebuildBillingDays(db());
      expect(await ctx.t.call('get-financial-dashboard-data', {}, await admin())).toEqual(d);
    } finally {
      ctx.t.server.services.clock = undefined;
    }
  });

  it('answers zeros on an empty ledger', async () => {
    const d = await ctx.t.call('get-financial-dashboard-data', {}, await admin());
    expect(d.real_time).toEqual({ active: 0, pastdue: 0, canceled: 0 });
    expect(d.projections).toEqual({ week: { value: 0, difference: 0 }, month: { value: 0, difference: 0 } });
  });
});
