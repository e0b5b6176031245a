// Platform administration (issue 22 items 1 and 5): the customers' table, a customer's password, an account's
// limits and its official numbers against the fake Graph API, the role boundaries (customer_admin, the admin
// flag, neither), and the CSP of /meta-login and of every other path.
import { eq } from 'drizzle-orm';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { accounts, chips, users } from '@/server/db/schema';
import { newId } from '@/shared/ids';
import { messages } from '@/shared/messages';
import { adminMessages } from '@/shared/messages-admin';
import { type FakeGraph, graphEnv, startFakeGraph } from '../fakes/graph-api';
import { collect, connected } from './channel-helpers';
import { testServerPerFile } from './helpers';

const graph: FakeGraph = await startFakeGraph();
const s = testServerPerFile(
  graphEnv(graph, { WHATSAPP_APP_ID: '1234567890', WHATSAPP_SIGNUP_CONFIG_ID: '987654321' }),
);
afterAll(() => graph.close());
beforeEach(() => graph.clear());

const WABA = '102030405060';
const NUMBERS = [
  {
    id: '5550001',
    display_phone_number: '+55 11 4000-0001',
    verified_name: 'Loja Demo',
    quality_rating: 'GREEN',
  },
  {
    id: '5550002',
    display_phone_number: '+55 11 4000-0002',
    verified_name: 'Loja Demo Vendas',
    quality_rating: 'YELLOW',
  },
  {
    id: '5550003',
    display_phone_number: '+55 11 4000-0003',
    verified_name: 'Loja Demo 3',
    quality_rating: 'NA',
  },
];

const refused = { error: true, message: messages.insufficientPermissions };
const db = () => s.t.server.services.db;
const admin = () => s.t.login('admin@demo.com');
const owner = () => s.t.login('dono@demo.com');

async function ownerRow(token: string) {
  const page = await s.t.call('get-customers', { query: 'dono@demo.com' }, token);
  const row = page.data.find((c) => c.email === 'dono@demo.com');
  if (!row) throw new Error('no owner row');
  return row;
}

describe('role boundaries', () => {
  it('every admin call is refused to a user without customer_admin; account creation needs the admin flag', async () => {
    const none = await owner();
    const account = s.seed.accountId;
    const someone = newId();
    const payloads: Record<string, unknown> = {
      'get-customers': {},
      'change-customer-password': { _id: someone, password: 'novasenha' },
      'get-account-usage': { account },
      'update-account': {
        _id: account,
        max_channels: 9,
        max_official_channels: 1,
        max_users: 10,
        max_flows: 10,
      },
      'get-official-chips-of-account': { account },
      'add-account-waba': { account, waba: WABA },
      'get-waba-phone-numbers': { account, waba: WABA },
      'admin-create-chip': { account, waba: WABA, phone_number_id: '5550001' },
      'admin-register-phone-number': { _id: someone, register: true, pin: '123456' },
      'admin-delete-chip': { _id: someone },
    };
    for (const [call, body] of Object.entries(payloads)) {
      expect((await s.t.post(call, body, none)).body, call).toEqual(refused);
    }
    // The account stayed as it was.
    const [row] = await db().select().from(accounts).where(eq(accounts.id, account));
    expect(row?.maxChannels).toBe(5);

    // customer_admin without the admin flag: the table, but no account creation.
    await db()
      .update(users)
      .set({ systemUserRoles: ['customer_admin'] })
      .where(eq(users.email, 'gerente@demo.com'));
    const staff = await s.t.login('gerente@demo.com');
    expect((await s.t.call('get-customers', {}, staff)).total).toBe(5);
    const create = { name: 'Nova', email: 'nova@cliente.com', password: 'abc123' };
    expect((await s.t.post('create-user', create, staff)).body).toEqual(refused);

    // The admin flag without customer_admin: creates accounts, but has no table.
    await db().update(users).set({ systemUserRoles: [] }).where(eq(users.email, 'admin@demo.com'));
    const flagOnly = await admin();
    expect((await s.t.post('get-customers', {}, flagOnly)).body).toEqual(refused);
    const created = await s.t.call('create-user', create, flagOnly);
    expect(created).toMatchObject({ email: 'nova@cliente.com', user_role: 'owner' });
  });

  it('/meta-login’s settings come from the configuration, for users of the chips area', async () => {
    expect(await s.t.call('get-meta-signup-config', {}, await owner())).toEqual({
      app_id: '1234567890',
      config_id: '987654321',
      graph_version: graph.version,
    });
    const attendant = await s.t.login('atendente@demo.com');
    expect((await s.t.post('get-meta-signup-config', {}, attendant)).body).toEqual(refused);
  });
});

describe('customers table', () => {
  it('searches by name or e-mail, accents and case aside, 10 a page with the total', async () => {
    const token = await admin();
    const all = await s.t.call('get-customers', {}, token);
    expect(all.total).toBe(5);
    const ownerRowAnswer = all.data.find((c) => c.email === 'dono@demo.com');
    expect(ownerRowAnswer).toMatchObject({
      name: 'Dona da Loja',
      user_role: 'owner',
      profile_picture: null,
      account: {
        _id: s.seed.accountId,
        name: 'Loja Demo',
        plan_id: 'demo',
        subscription_status: 'active',
        custom_negotiation: false,
        max_channels: 5,
        max_official_channels: 1,
      },
    });
    expect(Date.parse(ownerRowAnswer?.created ?? '')).not.toBeNaN();

    const attendants = await s.t.call('get-customers', { query: 'ATENDENTE' }, token);
    expect(attendants.total).toBe(2);
    expect(attendants.data.map((c) => c.email).sort()).toEqual(['atendente2@demo.com', 'atendente@demo.com']);

    // Accents either way: 'Joâo Álvares' is found as 'joao alvares', 'ÁLVARES' and 'álv'.
    const [hash] = await db().select({ h: users.passwordHash }).from(users).limit(1);
    const rows = Array.from({ length: 16 }, (_, i) => ({
      id: newId(),
      accountId: s.seed.accountId,
      name: i === 0 ? 'João Álvares' : `Pessoa ${String(i).padStart(2, '0')}`,
      email: `pessoa${i}@teste.com`,
      passwordHash: hash?.h ?? 'x',
      userRole: 'user' as const,
    }));
    await db().insert(users).values(rows);
    for (const q of ['joao alvares', 'ÁLVARES', 'álv', 'JOÃO']) {
      const found = await s.t.call('get-customers', { query: q }, token);
      expect(
        found.data.map((c) => c.name),
        q,
      ).toEqual(['João Álvares']);
    }
    // LIKE's own wildcards are letters in a search.
    expect((await s.t.call('get-customers', { query: '%' }, token)).total).toBe(0);
    expect((await s.t.call('get-customers', { query: '_' }, token)).total).toBe(0);

    const first = await s.t.call('get-customers', { page: 1 }, token);
    const second = await s.t.call('get-customers', { page: 2 }, token);
    const third = await s.t.call('get-customers', { page: 3 }, token);
    expect([first.total, first.data.length, second.data.length, third.data.length]).toEqual([21, 10, 10, 1]);
    const ids = [...first.data, ...second.data, ...third.data].map((c) => c._id);
    expect(new Set(ids).size).toBe(21);
    const people = await s.t.call('get-customers', { query: 'pessoa', page: 2 }, token);
    // 15 names and João's e-mail (pessoa0@…).
    expect([people.total, people.data.length]).toEqual([16, 6]);

    // Bad paging is an answer, not a 500.
    const bad = await s.t.post('get-customers', { page: 0 }, token);
    expect(bad.status).toBe(200);
    expect(bad.body.error).toBe(true);
  });
});

describe('change a customer’s password', () => {
  it('checks the new password, sets it and ends every session of that user', async () => {
    const token = await admin();
    const ownerToken = await owner();
    const row = await ownerRow(token);

    const short = await s.t.post('change-customer-password', { _id: row._id, password: '12345' }, token);
    expect(short.body).toEqual({ error: true, message: adminMessages.passwordTooShort });
    const differ = await s.t.post(
      'change-customer-password',
      { _id: row._id, password: '123456', confirmation: '123457' },
      token,
    );
    expect(differ.body).toMatchObject({ error: true, message: adminMessages.passwordsDontMatch });
    const unknown = await s.t.post('change-customer-password', { _id: newId(), password: '123456' }, token);
    expect(unknown.body).toEqual({ error: true, message: adminMessages.userNotFound });
    // Nothing changed yet: the old password and session still work.
    expect((await s.t.post('get-user', {}, ownerToken)).status).toBe(200);

    expect(
      await s.t.call(
        'change-customer-password',
        { _id: row._id, password: 'nova-senha', confirmation: 'nova-senha' },
        token,
      ),
    ).toEqual({ ok: true });
    const old = await s.t.post('get-user', {}, ownerToken);
    expect(old.status).toBe(401);
    expect((await s.t.post('auth', { email: 'dono@demo.com', password: 'demo123' })).body.error).toBe(true);
    expect((await s.t.call('get-user', {}, await s.t.login('dono@demo.com', 'nova-senha'))).email).toBe(
      'dono@demo.com',
    );
    // The admin's own session stays.
    expect((await s.t.post('get-user', {}, token)).status).toBe(200);
  });

  it('on the staff member’s own user: the session that asked stays, the others end', async () => {
    const asking = await admin();
    const other = await admin();
    const page = await s.t.call('get-customers', { query: 'admin@demo.com' }, asking);
    const self = page.data.find((c) => c.email === 'admin@demo.com');
    if (!self) throw new Error('no admin row');
    expect(
      await s.t.call('change-customer-password', { _id: self._id, password: 'outra-senha' }, asking),
    ).toEqual({ ok: true });
    expect((await s.t.post('get-user', {}, asking)).status).toBe(200);
    expect((await s.t.post('get-user', {}, other)).status).toBe(401);
  });

  it('customer_admin without the admin flag is platform staff on every account', async () => {
    await db()
      .update(users)
      .set({ systemUserRoles: ['customer_admin'] })
      .where(eq(users.email, 'gerente@demo.com'));
    const staff = await s.t.login('gerente@demo.com');
    const row = await ownerRow(staff);
    expect(await s.t.call('get-account-usage', { account: row.account._id }, staff)).toMatchObject({
      users: expect.any(Number),
    });
    expect(
      await s.t.call('change-customer-password', { _id: row._id, password: 'nova-senha' }, staff),
    ).toEqual({
      ok: true,
    });
    expect((await s.t.post('auth', { email: 'dono@demo.com', password: 'nova-senha' })).body.error).toBe(
      false,
    );
  });
});

describe('account limits', () => {
  it('refuses values that are not whole numbers from 0 to 10000, each with its own message', async () => {
    const token = await admin();
    const account = s.seed.accountId;
    const base = { _id: account, max_channels: 5, max_official_channels: 1, max_users: 10, max_flows: 10 };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ max_channels: -1 }, 'max_channels', messages.maxChannelsInvalid],
      [{ max_channels: 'abc' }, 'max_channels', messages.maxChannelsInvalid],
      [{ max_official_channels: 10_001 }, 'max_official_channels', messages.maxOfficialChannelsInvalid],
      [{ max_users: 1.5 }, 'max_users', messages.maxUsersInvalid],
      [{ max_users: '' }, 'max_users', messages.maxUsersInvalid],
      [{ max_flows: '1e9' }, 'max_flows', messages.maxFlowsInvalid],
      [{ max_flows: null }, 'max_flows', messages.maxFlowsInvalid],
    ];
    for (const [change, field, message] of cases) {
      const res = await s.t.post('update-account', { ...base, ...change }, token);
      expect(res.status).toBe(200);
      expect(res.body, JSON.stringify(change)).toEqual({ error: true, message, field });
    }
    const [row] = await db().select().from(accounts).where(eq(accounts.id, account));
    expect([row?.maxChannels, row?.maxOfficialChannels, row?.maxUsers, row?.maxFlows]).toEqual([
      5, 1, 10, 10,
    ]);

    const saved = await s.t.call(
      'update-account',
      { ...base, max_channels: '8', max_users: 20, campaigns_enabled: false, custom_negotiation: true },
      token,
    );
    expect(saved).toMatchObject({
      max_channels: 8,
      max_users: 20,
      campaigns_enabled: false,
      custom_negotiation: true,
    });
    const me = await s.t.call('get-user', {}, await owner());
    expect(me.account).toMatchObject({ max_channels: 8, max_users: 20, campaigns_enabled: false });
    expect(
      (await s.t.call('get-customers', { query: 'dono' }, token)).data[0]?.account.custom_negotiation,
    ).toBe(true);
    expect((await s.t.post('update-account', { ...base, _id: newId() }, token)).body).toEqual({
      error: true,
      message: adminMessages.accountNotFound,
    });
  });

  it('refuses a limit below what the account already uses', async () => {
    const token = await admin();
    const ownerToken = await owner();
    const account = s.seed.accountId;
    for (const name of ['Um', 'Dois', 'Tres']) {
      await s.t.call(
        'create-or-update-chip',
        { name, redirect: 'human', department: s.seed.departments.support },
        ownerToken,
      );
    }
    expect(await s.t.call('get-account-usage', { account }, token)).toEqual({
      channels: 3,
      official_channels: 0,
      users: 4,
      flows: 1,
    });
    const base = { _id: account, max_channels: 5, max_official_channels: 1, max_users: 10, max_flows: 10 };
    const cases: [Record<string, number>, string, string][] = [
      [{ max_channels: 2 }, 'max_channels', adminMessages.limitBelowUsage(adminMessages.usageChannels, 3)],
      [{ max_users: 3 }, 'max_users', adminMessages.limitBelowUsage(adminMessages.usageUsers, 4)],
      [{ max_flows: 0 }, 'max_flows', adminMessages.limitBelowUsage(adminMessages.usageFlows, 1)],
    ];
    for (const [change, field, message] of cases) {
      expect((await s.t.post('update-account', { ...base, ...change }, token)).body).toEqual({
        error: true,
        message,
        field,
      });
    }
    // Exactly what it uses is fine; the plan then refuses a fourth chip.
    expect(
      await s.t.call('update-account', { ...base, max_channels: 3, max_official_channels: 0 }, token),
    ).toMatchObject({
      max_channels: 3,
      max_official_channels: 0,
    });
    const fourth = await s.t.post(
      'create-or-update-chip',
      { name: 'Quatro', redirect: 'human', department: s.seed.departments.support },
      ownerToken,
    );
    expect(fourth.body).toEqual({ error: true, message: messages.channelLimitReached(3) });
  });
});

describe('official numbers of an account', () => {
  it('adds the WABA, lists its numbers from the Graph API, creates, registers with the PIN, unregisters, deletes', async () => {
    graph.wabas[WABA] = { name: 'WABA da Loja', phone_numbers: NUMBERS.map((n) => ({ ...n })) };
    const token = await admin();
    const ownerToken = await owner();
    const account = s.seed.accountId;

    expect(await s.t.call('get-official-chips-of-account', { account }, token)).toEqual({
      wabas: [],
      data: [],
    });
    expect((await s.t.post('add-account-waba', { account, waba: 'abc' }, token)).body).toMatchObject({
      error: true,
      message: adminMessages.wabaInvalid,
    });
    // A WABA the token cannot see: the provider's refusal, in pt-BR; nothing stored.
    expect((await s.t.post('add-account-waba', { account, waba: '999' }, token)).body).toEqual({
      error: true,
      message: messages.cloudApiInvalidParameter,
    });
    expect((await s.t.post('get-waba-phone-numbers', { account, waba: WABA }, token)).body).toEqual({
      error: true,
      message: adminMessages.wabaNotOfAccount,
    });
    expect(await s.t.call('add-account-waba', { account, waba: WABA }, token)).toEqual([
      { id: WABA, name: 'WABA da Loja' },
    ]);
    expect((await s.t.post('add-account-waba', { account, waba: WABA }, token)).body).toEqual({
      error: true,
      message: adminMessages.wabaAlreadyAdded,
    });

    // Three numbers over two pages of the Graph API.
    const listed = await s.t.call('get-waba-phone-numbers', { account, waba: WABA }, token);
    expect(listed.data).toEqual(NUMBERS);
    expect(graph.to('/phone_numbers')).toHaveLength(2);

    expect(
      (await s.t.post('admin-create-chip', { account, waba: WABA, phone_number_id: '5559999' }, token)).body,
    ).toEqual({ error: true, message: adminMessages.phoneNotInWaba });
    const chip = await s.t.call(
      'admin-create-chip',
      { account, waba: WABA, phone_number_id: '5550002' },
      token,
    );
    expect(chip).toMatchObject({
      name: 'Loja Demo Vendas',
      official: true,
      provider: 'cloud-api',
      status: 'new',
      registered: false,
      waba: WABA,
      phone_number_id: '5550002',
      display_phone_number: '+55 11 4000-0002',
      phone_number_quality: 'YELLOW',
    });
    // One of the account's departments takes its conversations until the owner picks one.
    expect([s.seed.departments.support, s.seed.departments.sales]).toContain(chip.department);
    expect(
      (await s.t.post('admin-create-chip', { account, waba: WABA, phone_number_id: '5550002' }, token)).body,
    ).toEqual({ error: true, message: adminMessages.phoneAlreadyChip });
    // The plan has one official number.
    expect(
      (await s.t.post('admin-create-chip', { account, waba: WABA, phone_number_id: '5550001' }, token)).body,
    ).toEqual({ error: true, message: messages.officialChannelLimitReached(1) });
    // …and its limit may not go below it now.
    expect(
      (
        await s.t.post(
          'update-account',
          { _id: account, max_channels: 5, max_official_channels: 0, max_users: 10, max_flows: 10 },
          token,
        )
      ).body,
    ).toMatchObject({ message: adminMessages.limitBelowUsage(adminMessages.usageOfficialChannels, 1) });

    // Register: a 6-digit PIN; the first sets the number's two-step verification PIN.
    for (const pin of ['', '12345', '12a456', '1234567']) {
      expect(
        (await s.t.post('admin-register-phone-number', { _id: chip._id, register: true, pin }, token)).body,
      ).toEqual({ error: true, message: adminMessages.pinInvalid, field: 'pin' });
    }
    expect(graph.to('/register')).toHaveLength(0);
    const registered = await s.t.call(
      'admin-register-phone-number',
      { _id: chip._id, register: true, pin: '123456' },
      token,
    );
    expect(registered).toMatchObject({ registered: true, status: 'close' });
    expect(graph.to('/5550002/register')[0]?.json).toEqual({ messaging_product: 'whatsapp', pin: '123456' });
    expect(graph.registered['5550002']).toBe(true);

    const off = await s.t.call('admin-register-phone-number', { _id: chip._id, register: false }, token);
    expect(off).toMatchObject({ registered: false, status: 'configuring' });
    expect(graph.registered['5550002']).toBe(false);
    // Another PIN than the number's: Meta's 133005, in pt-BR; the chip stays unregistered.
    const wrong = await s.t.post(
      'admin-register-phone-number',
      { _id: chip._id, register: true, pin: '654321' },
      token,
    );
    expect(wrong.body).toEqual({ error: true, message: adminMessages.pinMismatch });
    const [still] = await db().select().from(chips).where(eq(chips.id, chip._id));
    expect(still?.registered).toBe(false);
    await s.t.call('admin-register-phone-number', { _id: chip._id, register: true, pin: '123456' }, token);
    // The owner connects the registered number.
    expect(await s.t.call('connect-chip', { _id: chip._id, connect: true }, ownerToken)).toMatchObject({
      status: 'open',
    });
    expect(
      (await s.t.call('get-official-chips-of-account', { account }, token)).data.map((c) => c._id),
    ).toEqual([chip._id]);

    // Spec 3 §4: staff set the status by hand (open, configuring, close); the owner's /chips sees it live.
    const owners = collect(s.t.socket(ownerToken));
    await connected(owners.sock);
    const byHand = await s.t.call('admin-set-chip-status', { _id: chip._id, status: 'configuring' }, token);
    expect(byHand.status).toBe('configuring');
    expect(await owners.next('status')).toMatchObject({ chip_number_id: chip._id, message: 'configuring' });
    expect(
      (await s.t.post('admin-set-chip-status', { _id: chip._id, status: 'new' }, token)).body,
    ).toMatchObject({
      error: true,
    });
    expect(
      (await s.t.post('admin-set-chip-status', { _id: chip._id, status: 'open' }, ownerToken)).body,
    ).toMatchObject({ error: true });
    await s.t.call('admin-set-chip-status', { _id: chip._id, status: 'open' }, token);
    expect(await owners.next('status')).toMatchObject({ chip_number_id: chip._id, message: 'open' });
    owners.sock.close();

    const deleted = await s.t.call('admin-delete-chip', { _id: chip._id }, token);
    expect(deleted).toMatchObject({ filed: true, status: 'close' });
    expect((await s.t.call('get-official-chips-of-account', { account }, token)).data).toEqual([]);
    expect((await s.t.call('get-chip-numbers-by-user', {}, ownerToken)).map((c) => c._id)).not.toContain(
      chip._id,
    );
    expect((await s.t.post('admin-delete-chip', { _id: chip._id }, token)).body).toEqual({
      error: true,
      message: messages.notFound,
    });
    // The number is free again.
    expect(
      await s.t.call('admin-create-chip', { account, waba: WABA, phone_number_id: '5550002' }, token),
    ).toMatchObject({ phone_number_id: '5550002', registered: false });
  });

  it('a provider failure is a pt-BR answer and changes nothing', async () => {
    graph.wabas[WABA] = { name: 'WABA da Loja', phone_numbers: NUMBERS.map((n) => ({ ...n })) };
    const token = await admin();
    const account = s.seed.accountId;
    await s.t.call('add-account-waba', { account, waba: WABA }, token);
    graph.failNext('network');
    expect((await s.t.post('get-waba-phone-numbers', { account, waba: WABA }, token)).body).toEqual({
      error: true,
      message: messages.cloudApiUnreachable,
    });
    graph.failNext({ code: 190, status: 401 });
    expect(
      (await s.t.post('admin-create-chip', { account, waba: WABA, phone_number_id: '5550001' }, token)).body,
    ).toEqual({ error: true, message: messages.cloudApiTokenInvalid });
    expect((await s.t.call('get-official-chips-of-account', { account }, token)).data).toEqual([]);
  });
});

describe('content security policy', () => {
  it('lets the Facebook SDK in on /meta-login only', async () => {
    const cspOf = async (path: string) => {
      const res = await fetch(`${s.t.url}${path}`);
      await res.arrayBuffer();
      return res.headers.get('content-security-policy') ?? '';
    };
    for (const path of ['/meta-login', '/meta-login/', '/meta-login?x=1']) {
      const csp = await cspOf(path);
      expect(csp, path).toContain("script-src 'self' https://connect.facebook.net;");
      expect(csp, path).toMatch(/frame-src 'self' https:\/\/www\.facebook\.com/);
      expect(csp, path).toMatch(/connect-src [^;]*https:\/\/www\.facebook\.com/);
      expect(csp, path).toContain("object-src 'none'");
    }
    for (const path of [
      '/',
      '/chips',
      '/admin-clientes',
      '/meta-login-x',
      '/meta-login/x',
      '/api/get-user',
    ]) {
      const csp = await cspOf(path);
      expect(csp, path).toContain("script-src 'self';");
      expect(csp, path).not.toContain('facebook');
    }
  });
});
