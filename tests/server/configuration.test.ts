import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '@/server/db/schema';
import { ACCESS_AREAS } from '@/shared/constants';
import { messages } from '@/shared/messages';
import { testServerPerFile } from './helpers';

const s = testServerPerFile();
const as = (email: string) => s.t.login(email);

describe('tags', () => {
  it('creates, edits, lists and soft-deletes a tag', async () => {
    const token = await as('gerente@demo.com');
    const created = await s.t.call(
      'create-or-update-tag',
      {
        name: ' Orçamento ',
        color: '#00ff00',
        auto_tag: true,
        keywords: ['preço'],
        pending_keyword: 'orçamento',
      },
      token,
    );
    expect(created).toMatchObject({
      name: 'Orçamento',
      color: '#00FF00',
      auto_tag: true,
      keywords: ['preço', 'orçamento'],
    });
    const edited = await s.t.call(
      'create-or-update-tag',
      { _id: created._id, name: 'Orçamento', color: '#123456', auto_tag: false, keywords: ['preço'] },
      token,
    );
    expect(edited).toMatchObject({ color: '#123456', auto_tag: false, keywords: [] });
    expect((await s.t.call('get-tags-by-user', {}, token)).map((t) => t.name)).toEqual(['Orçamento']);

    const filed = await s.t.call('create-or-update-tag', { _id: created._id, filed: true }, token);
    expect(filed.filed).toBe(true);
    expect(await s.t.call('get-tags-by-user', {}, token)).toEqual([]);
    // A filed tag is gone for edits too.
    const again = await s.t.post(
      'create-or-update-tag',
      { _id: created._id, name: 'X', color: '#000000' },
      token,
    );
    expect(again.body).toEqual({ error: true, message: messages.notFound });
  });

  it('gives every validation message of spec 1 §5', async () => {
    const token = await as('gerente@demo.com');
    const cases: [object, string, string][] = [
      [{ name: '', color: '#00FF00' }, messages.nameRequired, 'name'],
      [{ name: 'A', color: '' }, messages.tagColorRequired, 'color'],
      [
        { name: 'A', color: '#00FF00', auto_tag: true, keywords: [] },
        messages.tagKeywordsRequired,
        'keyword',
      ],
      [
        { name: 'A', color: '#00FF00', auto_tag: true, keywords: ['  '] },
        messages.keywordRequired,
        'keyword',
      ],
      [
        { name: 'A', color: '#00FF00', auto_tag: true, keywords: ['Frete', 'frete'] },
        messages.keywordDuplicate,
        'keyword',
      ],
      [
        { name: 'A', color: '#00FF00', auto_tag: true, keywords: ['Frete'], pending_keyword: 'FRETE' },
        messages.keywordDuplicate,
        'keyword',
      ],
    ];
    for (const [body, message, field] of cases) {
      expect((await s.t.post('create-or-update-tag', body, token)).body).toEqual({
        error: true,
        message,
        field,
      });
    }
    expect(await s.t.call('get-tags-by-user', {}, token)).toEqual([]);
  });
});

describe('departments and quick messages', () => {
  it('creates, edits and soft-deletes a department; the name is required', async () => {
    const token = await as('gerente@demo.com');
    const before = await s.t.call('get-departments-by-user', {}, token);
    expect(before.map((d) => d.name).sort()).toEqual(['Suporte', 'Vendas']);
    const empty = await s.t.post('create-or-update-department', { name: ' ', description: 'x' }, token);
    expect(empty.body).toEqual({ error: true, message: messages.nameRequired, field: 'name' });
    const created = await s.t.call(
      'create-or-update-department',
      { name: 'Financeiro', description: '' },
      token,
    );
    expect(created).toMatchObject({ name: 'Financeiro', description: null });
    await s.t.call(
      'create-or-update-department',
      { _id: created._id, name: 'Cobrança', description: 'Boletos' },
      token,
    );
    await s.t.call('create-or-update-department', { _id: created._id, filed: true }, token);
    expect((await s.t.call('get-departments-by-user', {}, token)).map((d) => d.name).sort()).toEqual([
      'Suporte',
      'Vendas',
    ]);
  });

  it("refuses to delete an attendant's only department, and says so in the list; others lose it", async () => {
    const token = await as('gerente@demo.com');
    const { support, sales } = s.seed.departments;
    const listed = await s.t.call('get-departments-by-user', {}, token);
    expect(listed.find((d) => d._id === support)?.sole_attendants).toEqual(['Ana Atendente']);
    const refused = await s.t.post('create-or-update-department', { _id: support, filed: true }, token);
    expect(refused.body).toEqual({ error: true, message: messages.departmentOnlyOf(['Ana Atendente']) });
    expect(messages.departmentOnlyOf(['Ana Atendente'])).toBe(
      'Este é o único departamento de Ana Atendente. Defina outro departamento para essa pessoa em Minha Equipe antes de apagá-lo.',
    );
    // Once Ana also serves Vendas, Suporte can go: she keeps Vendas only.
    const owner = await as('dono@demo.com');
    const ana = (await s.t.call('get-team-users', {}, owner)).find((u) => u.email === 'atendente@demo.com');
    await s.t.call('update-team-user', { ...ana, departments: [support, sales] }, owner);
    await s.t.call('create-or-update-department', { _id: support, filed: true }, token);
    const after = (await s.t.call('get-team-users', {}, owner)).find((u) => u.email === 'atendente@demo.com');
    expect(after?.departments).toEqual([sales]);
    // An attendant's own list carries no names of colleagues.
    const attendant = await as('atendente@demo.com');
    expect((await s.t.call('get-departments-by-user', {}, attendant))[0]?.sole_attendants).toBeUndefined();
  });

  it('saves quick messages without the slash, refuses blanks and a repeated shortcut', async () => {
    const token = await as('dono@demo.com');
    expect(
      (await s.t.post('create-or-update-quick-message', { shortcut: '', message: 'x' }, token)).body,
    ).toEqual({
      error: true,
      message: messages.quickMessageShortcutRequired,
      field: 'shortcut',
    });
    expect(
      (await s.t.post('create-or-update-quick-message', { shortcut: 'oi', message: ' ' }, token)).body,
    ).toEqual({
      error: true,
      message: messages.quickMessageMessageRequired,
      field: 'message',
    });
    const qm = await s.t.call(
      'create-or-update-quick-message',
      { shortcut: '/oi', message: 'Olá! Como posso ajudar?' },
      token,
    );
    expect(qm.shortcut).toBe('oi');
    const dup = await s.t.post('create-or-update-quick-message', { shortcut: 'OI', message: 'Oi' }, token);
    expect(dup.body).toEqual({ error: true, message: messages.quickMessageShortcutTaken, field: 'shortcut' });
    // Editing itself keeps its shortcut.
    await s.t.call('create-or-update-quick-message', { _id: qm._id, shortcut: 'oi', message: 'Olá!' }, token);
    // Attendants read the list (the '/' menu) but cannot change it.
    const attendant = await as('atendente@demo.com');
    expect((await s.t.call('get-quick-messages-by-user', {}, attendant)).map((q) => q.message)).toEqual([
      'Olá!',
    ]);
    const refused = await s.t.post(
      'create-or-update-quick-message',
      { shortcut: 'x', message: 'y' },
      attendant,
    );
    expect(refused.body).toEqual({ error: true, message: messages.insufficientPermissions });
  });
});

describe('names', () => {
  it('refuses a tag or department name the account already has, whatever its case, also at once', async () => {
    const token = await as('gerente@demo.com');
    const tag = await s.t.call('create-or-update-tag', { name: 'Urgente', color: '#FF0000' }, token);
    const refusedTag = await s.t.post('create-or-update-tag', { name: ' urgente ', color: '#00FF00' }, token);
    expect(refusedTag.body).toEqual({ error: true, field: 'name', message: messages.tagNameTaken });
    // The same tag keeps its name; another one cannot take it.
    await s.t.call('create-or-update-tag', { _id: tag._id, name: 'URGENTE', color: '#FF0000' }, token);
    const other = await s.t.call('create-or-update-tag', { name: 'VIP', color: '#00FF00' }, token);
    expect(
      (await s.t.post('create-or-update-tag', { _id: other._id, name: 'Urgente', color: '#00FF00' }, token))
        .body,
    ).toEqual({ error: true, field: 'name', message: messages.tagNameTaken });
    // A deleted tag frees its name.
    await s.t.call('create-or-update-tag', { _id: tag._id, filed: true }, token);
    await s.t.call('create-or-update-tag', { name: 'Urgente', color: '#00FF00' }, token);

    // 'Suporte' is a demo department.
    const refusedDepartment = await s.t.post('create-or-update-department', { name: 'SUPORTE' }, token);
    expect(refusedDepartment.body).toEqual({
      error: true,
      field: 'name',
      message: messages.departmentNameTaken,
    });
    // Two creations of one new name at once: one is made, the other gets the message (never a 500).
    const results = await Promise.all(
      ['Financeiro', 'financeiro', 'FINANCEIRO'].map((name) =>
        s.t.post('create-or-update-department', { name }, token),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(results.filter((r) => !r.body.error)).toHaveLength(1);
    for (const r of results.filter((r) => r.body.error))
      expect(r.body).toEqual({ error: true, field: 'name', message: messages.departmentNameTaken });
  });
});

describe('roles, areas and accounts', () => {
  it('refuses attendants, and managers without the area, on every change', async () => {
    const attendant = await as('atendente@demo.com');
    const manager = await as('gerente@demo.com');
    const calls = [
      ['create-or-update-tag', { name: 'T', color: '#00FF00' }, 'tags'],
      ['create-or-update-department', { name: 'D' }, 'departments'],
      ['create-or-update-quick-message', { shortcut: 's', message: 'm' }, 'quick-messages'],
      ['get-team-users', {}, 'team'],
      ['create-team-user', { name: 'N', email: 'n@x.com', user_role: 'manager', password: '123456' }, 'team'],
    ] as const;
    for (const [call, body] of calls) {
      expect((await s.t.post(call, body, attendant)).body, call).toEqual({
        error: true,
        message: messages.insufficientPermissions,
      });
    }
    // The owner takes every area away from the manager except contacts.
    const owner = await as('dono@demo.com');
    const team = await s.t.call('get-team-users', {}, owner);
    const gerente = team.find((u) => u.email === 'gerente@demo.com');
    await s.t.call('update-team-user', { ...gerente, access_areas: ['contacts'] }, owner);
    for (const [call, body] of calls) {
      expect((await s.t.post(call, body, manager)).body, call).toEqual({
        error: true,
        message: messages.insufficientPermissions,
      });
    }
  });

  it('treats an id from another account as not found', async () => {
    const owner = await as('dono@demo.com');
    const tag = await s.t.call('create-or-update-tag', { name: 'Loja', color: '#00FF00' }, owner);
    const team = await s.t.call('get-team-users', {}, owner);
    const other = await as('admin@demo.com'); // owner of another account
    const attempts = [
      ['create-or-update-tag', { _id: tag._id, name: 'Roubada', color: '#000000' }],
      ['create-or-update-tag', { _id: tag._id, filed: true }],
      ['create-or-update-department', { _id: s.seed.departments.support, name: 'X' }],
      ['update-team-user', { ...team.find((u) => u.user_role === 'manager'), name: 'X' }],
    ] as const;
    for (const [call, body] of attempts) {
      expect((await s.t.post(call, body, other)).body, call).toEqual({
        error: true,
        message: messages.notFound,
      });
    }
    const agent = await s.t.post(
      'create-team-user',
      {
        name: 'A',
        email: 'a@outra.com',
        user_role: 'user',
        departments: [s.seed.departments.support],
        password: '123456',
      },
      other,
    );
    expect(agent.body).toEqual({ error: true, message: messages.notFound });
    expect(await s.t.call('get-tags-by-user', {}, other)).toEqual([]);
    expect((await s.t.call('get-tags-by-user', {}, owner))[0]?.name).toBe('Loja');
  });
});

describe('team', () => {
  const agent = (over: object = {}) => ({
    name: 'Carla',
    email: 'carla@demo.com',
    user_role: 'user',
    departments: [] as string[],
    access_areas: ['contacts'],
    password: '123456',
    ...over,
  });

  it('gives every validation message of spec 1 §5', async () => {
    const token = await as('gerente@demo.com');
    const dep = [s.seed.departments.support];
    // The refusal names the dialog's field it belongs to (the shared rule's { field, message }).
    const cases: [object, string, string][] = [
      [agent({ name: '', departments: dep }), messages.teamAllFieldsRequired, 'form'],
      [agent({ email: '', departments: dep }), messages.teamAllFieldsRequired, 'form'],
      [agent({ user_role: '', departments: dep }), messages.teamAllFieldsRequired, 'form'],
      [agent({ departments: [] }), messages.teamDepartmentRequired, 'departments'],
      [agent({ departments: dep, password: '12345' }), messages.teamPasswordTooShort, 'password'],
      [agent({ departments: dep, email: 'carla' }), messages.emailInvalid, 'email'],
      [agent({ departments: dep, user_role: 'owner' }), messages.teamRoleInvalid, 'role'],
      [agent({ departments: dep, email: 'DONO@demo.com' }), messages.emailInUse, 'email'],
    ];
    for (const [body, message, field] of cases) {
      expect((await s.t.post('create-team-user', body, token)).body).toEqual({ error: true, message, field });
    }
  });

  it('creates an agent who can sign in; updates without a password; deletion ends the sessions and frees the e-mail', async () => {
    const token = await as('gerente@demo.com');
    const created = await s.t.call(
      'create-team-user',
      agent({ departments: [s.seed.departments.sales] }),
      token,
    );
    expect(created).toMatchObject({
      user_role: 'user',
      departments: [s.seed.departments.sales],
      access_areas: ['contacts'],
    });
    const carla = await s.t.login('carla@demo.com', '123456');
    // Made manager: departments are cleared.
    const updated = await s.t.call(
      'update-team-user',
      { ...created, name: 'Carla Lima', user_role: 'manager', password: 'ignored' },
      token,
    );
    expect(updated).toMatchObject({ name: 'Carla Lima', user_role: 'manager', departments: [] });
    expect(await s.t.login('carla@demo.com', '123456')).toBeTruthy(); // the password did not change

    await s.t.call('update-team-user', { ...updated, filed: true }, token);
    expect((await s.t.post('get-user', {}, carla)).status).toBe(401);
    expect((await s.t.call('get-team-users', {}, token)).some((u) => u.email === 'carla@demo.com')).toBe(
      false,
    );
    await expect(s.t.login('carla@demo.com', '123456')).rejects.toThrow();
    // The e-mail can be used again.
    await s.t.call('create-team-user', agent({ departments: [s.seed.departments.sales] }), token);
  });

  it('keeps only the access areas a role can hold; a manager may hold every one (spec 1 §6, spec 3 §6)', async () => {
    const token = await as('dono@demo.com');
    const every = [...ACCESS_AREAS];
    const created = await s.t.call(
      'create-team-user',
      agent({ departments: [s.seed.departments.sales], access_areas: every }),
      token,
    );
    expect(created.access_areas).toEqual(['contacts']);
    const manager = await s.t.call(
      'update-team-user',
      { ...created, user_role: 'manager', access_areas: every },
      token,
    );
    expect(manager.access_areas).toEqual(every);
    const back = await s.t.call(
      'update-team-user',
      { ...manager, user_role: 'user', departments: [s.seed.departments.sales] },
      token,
    );
    expect(back.access_areas).toEqual(['contacts']);
    // An attendant saved earlier with more areas: the server answers and allows only contacts.
    await s.t.server.services.db
      .update(users)
      .set({ accessAreas: every })
      .where(eq(users.email, 'atendente@demo.com'));
    const attendant = await as('atendente@demo.com');
    expect((await s.t.call('get-user', {}, attendant)).access_areas).toEqual(['contacts']);
    expect((await s.t.post('create-or-update-tag', { name: 'T', color: '#00FF00' }, attendant)).body).toEqual(
      {
        error: true,
        message: messages.insufficientPermissions,
      },
    );
    expect(
      (await s.t.call('get-team-users', {}, token)).find((u) => u.email === 'atendente@demo.com'),
    ).toMatchObject({
      access_areas: ['contacts'],
    });
  });

  it('never edits or deletes the owner row, not even through the API', async () => {
    const manager = await as('gerente@demo.com');
    const owner = (await s.t.call('get-team-users', {}, manager)).find((u) => u.user_role === 'owner');
    expect(owner?.email).toBe('dono@demo.com');
    for (const change of [
      { name: 'Outro' },
      { user_role: 'user', departments: [s.seed.departments.sales] },
      { filed: true },
    ]) {
      const res = await s.t.post('update-team-user', { ...owner, ...change }, manager);
      expect(res.body).toEqual({ error: true, message: messages.ownerProtected });
    }
    expect(await s.t.login('dono@demo.com')).toBeTruthy();
  });

  it("refuses a user beyond the plan's max_users, also under concurrent creations", async () => {
    const token = await as('dono@demo.com');
    // Loja Demo allows 10 users and has 4: six more fit, sent at once.
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        s.t.post(
          'create-team-user',
          agent({ email: `a${i}@demo.com`, departments: [s.seed.departments.support] }),
          token,
        ),
      ),
    );
    const ok = results.filter((r) => !r.body.error);
    const refused = results.filter((r) => r.body.error);
    expect(ok).toHaveLength(6);
    expect(refused.map((r) => r.body.message)).toEqual([
      messages.userLimitReached(10),
      messages.userLimitReached(10),
    ]);
    expect(await s.t.call('get-team-users', {}, token)).toHaveLength(10);
  });
});

describe('repeated requests', () => {
  const ID = 'A'.repeat(28);
  it('a create sent twice (in turn or at once) makes one item; a repeated delete answers the same', async () => {
    const token = await as('gerente@demo.com');
    const body = { _id: ID, name: 'Retry', color: '#00FF00' };
    const first = await s.t.call('create-or-update-tag', body, token);
    const again = await s.t.call('create-or-update-tag', body, token);
    expect(again).toEqual(first);
    const [a, b] = await Promise.all([
      s.t.post('create-or-update-quick-message', { _id: 'B'.repeat(28), shortcut: 'x', message: 'y' }, token),
      s.t.post('create-or-update-quick-message', { _id: 'B'.repeat(28), shortcut: 'x', message: 'y' }, token),
    ]);
    expect([a.body.error, b.body.error]).toEqual([false, false]);
    expect(await s.t.call('get-quick-messages-by-user', {}, token)).toHaveLength(1);
    expect((await s.t.call('get-tags-by-user', {}, token)).map((t) => t.name)).toEqual(['Retry']);

    const deleted = await s.t.call('create-or-update-tag', { _id: ID, filed: true }, token);
    expect(await s.t.call('create-or-update-tag', { _id: ID, filed: true }, token)).toEqual(deleted);
    // A filed item's id is not reused for a new one.
    expect((await s.t.post('create-or-update-tag', body, token)).body).toEqual({
      error: true,
      message: messages.notFound,
    });
  });

  it("another account's id is never taken over by a create", async () => {
    const owner = await as('dono@demo.com');
    await s.t.call('create-or-update-department', { _id: ID, name: 'Loja' }, owner);
    const other = await as('admin@demo.com');
    const res = await s.t.post('create-or-update-department', { _id: ID, name: 'Minha' }, other);
    expect(res.body).toEqual({ error: true, message: messages.notFound });
    expect((await s.t.call('get-departments-by-user', {}, owner)).some((d) => d.name === 'Loja')).toBe(true);
  });

  it('a team user created twice, in turn or at once, is one user', async () => {
    const token = await as('gerente@demo.com');
    const body = { _id: ID, name: 'Dani', email: 'dani@demo.com', user_role: 'manager', password: '123456' };
    const [a, b] = await Promise.all([
      s.t.post('create-team-user', body, token),
      s.t.post('create-team-user', body, token),
    ]);
    expect([a.body.error, b.body.error]).toEqual([false, false]);
    const again = await s.t.call('create-team-user', body, token);
    expect(again._id).toBe(ID);
    expect(
      (await s.t.call('get-team-users', {}, token)).filter((u) => u.email === 'dani@demo.com'),
    ).toHaveLength(1);
  });
});
