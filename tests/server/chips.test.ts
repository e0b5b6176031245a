// Channels: the create/edit rules of spec 3 §5, plan limits, roles and the account boundary, connect,
// disconnect and reset, and socket rooms that follow a user's departments.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accounts } from '@/server/db/schema';
import { messages as texts } from '@/shared/messages';
import {
  connected,
  connectedSimulatorChip,
  listen,
  roundTrip,
  simulatorSocket,
  until,
} from './channel-helpers';
import { testServerPerFile } from './helpers';

const s = testServerPerFile();

const chipBody = (over: Record<string, unknown> = {}) => ({
  name: 'Atendimento',
  redirect: 'human',
  department: s.seed.departments.support,
  ...over,
});

describe('create-or-update-chip', () => {
  it('applies the channel rules in order, with the spec’s messages', async () => {
    const owner = await s.t.login('dono@demo.com');
    // Each refusal names the dialog's field it belongs to.
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: ' !!! ' }, texts.chipNameRequired, 'name'],
      [{ redirect: '' }, texts.chipRedirectRequired, 'redirect'],
      [{ redirect: 'ai_chatbot' }, texts.chipChatbotRequired, 'chatbot'],
      [{ redirect: 'flow_chatbot' }, texts.chipFlowRequired, 'flow'],
      [{ department: '' }, texts.chipDepartmentRequired, 'department'],
      [{ department: '0000000000000000000000000000' }, texts.departmentNotFound, 'department'],
      // No chatbot exists yet, so none can be named.
      [{ redirect: 'ai_chatbot', chatbot: '0000000000000000000000000000' }, texts.chatbotNotFound, 'chatbot'],
    ];
    for (const [over, message, field] of cases) {
      const res = await s.t.post('create-or-update-chip', chipBody(over), owner);
      expect(res.body, JSON.stringify(over)).toEqual({ error: true, message, field });
    }
  });

  it('strips accents and symbols from the name; a repeated create makes one chip; edit and delete', async () => {
    const owner = await s.t.login('dono@demo.com');
    const _id = 'CHIPNAMEDBYTHEDIALOG00000001';
    const body = chipBody({ _id, name: 'Atenção #1 — Loja São João!' });
    const [a, b] = await Promise.all([
      s.t.call('create-or-update-chip', body, owner),
      s.t.call('create-or-update-chip', body, owner),
    ]);
    expect(a).toMatchObject({
      _id,
      name: 'Atencao 1 Loja Sao Joao',
      status: 'new',
      official: false,
      provider: 'simulator',
    });
    expect(b._id).toBe(_id);
    expect(await s.t.call('get-chip-numbers-by-user', {}, owner)).toHaveLength(1);

    const edited = await s.t.call(
      'create-or-update-chip',
      { ...body, name: 'Vendas', department: s.seed.departments.sales },
      owner,
    );
    expect(edited).toMatchObject({ name: 'Vendas', department: s.seed.departments.sales });
    const filed = await s.t.call('create-or-update-chip', { _id, filed: true }, owner);
    expect(filed.filed).toBe(true);
    expect(await s.t.call('get-chip-numbers-by-user', {}, owner)).toEqual([]);
  });

  it('holds the plan limits, also under concurrent creations; a deleted chip frees its place', async () => {
    const owner = await s.t.login('dono@demo.com');
    await s.t.server.services.db
      .update(accounts)
      .set({ maxChannels: 2, maxOfficialChannels: 0 })
      .where(eq(accounts.id, s.seed.accountId));
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        s.t.post('create-or-update-chip', chipBody({ name: `Chip ${i}` }), owner),
      ),
    );
    expect(results.filter((r) => !r.body.error)).toHaveLength(2);
    expect(results.find((r) => r.body.error)?.body.message).toBe(texts.channelLimitReached(2));
    const official = await s.t.post('create-or-update-chip', chipBody({ official: true }), owner);
    expect(official.body).toEqual({ error: true, message: texts.officialChannelLimitReached(0) });

    const [first] = await s.t.call('get-chip-numbers-by-user', {}, owner);
    await s.t.call('create-or-update-chip', { _id: first?._id, filed: true }, owner);
    expect((await s.t.post('create-or-update-chip', chipBody({ name: 'De novo' }), owner)).body.error).toBe(
      false,
    );
  });

  it('official chips wait for support: status Configurar, and connect refuses until registered', async () => {
    const owner = await s.t.login('dono@demo.com');
    const chip = await s.t.call('create-or-update-chip', chipBody({ official: true }), owner);
    expect(chip).toMatchObject({
      official: true,
      status: 'new',
      registered: false,
      provider: 'cloud-api',
    });
    const res = await s.t.post('connect-chip', { _id: chip._id, connect: true }, owner);
    expect(res.body).toEqual({ error: true, message: texts.chipNotRegistered });
    // Support's calls are for platform admins only.
    const denied = await s.t.post('register-phone-number', { _id: chip._id, register: true }, owner);
    expect(denied.body).toEqual({ error: true, message: texts.insufficientPermissions });
  });

  it('is for owners and managers with the chips area; an attendant lists only their departments’ chips', async () => {
    const owner = await s.t.login('dono@demo.com');
    await s.t.call('create-or-update-chip', chipBody(), owner);
    await s.t.call(
      'create-or-update-chip',
      chipBody({ name: 'Vendas', department: s.seed.departments.sales }),
      owner,
    );
    const agent = await s.t.login('atendente@demo.com');
    const res = await s.t.post('create-or-update-chip', chipBody(), agent);
    expect(res.body).toEqual({ error: true, message: texts.insufficientPermissions });
    expect((await s.t.call('get-chip-numbers-by-user', {}, agent)).map((c) => c.name)).toEqual([
      'Atendimento',
    ]);
  });

  it('another account’s chip is not found', async () => {
    const owner = await s.t.login('dono@demo.com');
    const chip = await s.t.call('create-or-update-chip', chipBody(), owner);
    const admin = await s.t.login('admin@demo.com');
    for (const [call, body] of [
      ['connect-chip', { _id: chip._id, connect: true }],
      ['reset-chip-connection', { _id: chip._id }],
      ['create-or-update-chip', { _id: chip._id, filed: true }],
    ] as const) {
      const res = await s.t.post(call, body, admin);
      expect(res.body, call).toEqual({ error: true, message: texts.notFound });
    }
  });
});

describe('connect, disconnect and reset (simulator)', () => {
  it('a QR code is offered, opening its link connects; disconnect closes; reset kills the old link', async () => {
    const owner = await s.t.login('dono@demo.com');
    const { chip, simulatorToken, link } = await connectedSimulatorChip(s.t, owner, {
      department: s.seed.departments.support,
    });
    expect(link.pathname).toBe(`/simulador/${simulatorToken}`);
    // The same link opened again (the QR was used) does not pair a second time, and a wrong pair does nothing.
    const events = await listen(s.t, 'gerente@demo.com');
    await s.t.call('connect-chip', { _id: chip._id, connect: false }, owner);
    expect((await events.next('status')).message).toBe('close');
    expect(await s.t.call('simulator-open', { token: simulatorToken, pair: 'wrong' })).toEqual({
      chip_name: 'Simulador',
      connected: false,
      numbered_menus: false,
    });
    const page = simulatorSocket(s.t, simulatorToken, '5511955554444');
    await connected(page.sock);

    await s.t.call('reset-chip-connection', { _id: chip._id }, owner);
    await until(() => page.events.find((e) => e.type === 'chip' && !e.message.connected));
    const gone = await s.t.post('simulator-open', { token: simulatorToken });
    expect(gone.body).toEqual({ error: true, message: texts.simulatorLinkInvalid });
    // A new connect makes a new link.
    await s.t.call('connect-chip', { _id: chip._id, connect: true }, owner);
    const qr = await events.next('qrcode');
    expect(qr.message).not.toContain(simulatorToken);
    const [listed] = await s.t.call('get-chip-numbers-by-user', {}, owner);
    expect(listed).toMatchObject({ status: 'connecting', qrcode: qr.message });
  });
});

describe('socket rooms follow the team', () => {
  it('an attendant moved to another department gets that department’s events at once', async () => {
    const owner = await s.t.login('dono@demo.com');
    const { simulatorToken } = await connectedSimulatorChip(s.t, owner, {
      department: s.seed.departments.sales,
    });
    const agent = await listen(s.t, 'atendente@demo.com');
    const [me] = (await s.t.call('get-team-users', {}, owner)).filter(
      (u) => u.email === 'atendente@demo.com',
    );
    if (!me) throw new Error('seed changed');
    await s.t.call('update-team-user', { ...me, departments: [s.seed.departments.sales] }, owner);
    await roundTrip(agent.sock);
    await s.t.call('simulator-send', {
      token: simulatorToken,
      phone: '5511944443333',
      name: 'Cliente',
      id: 'rooms-follow-0001',
      type: 'text',
      text: 'Quero comprar',
    });
    expect((await agent.next('new_conversation')).message.department).toBe(s.seed.departments.sales);
  });
});
