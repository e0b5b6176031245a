// Audiences (spec 3 §2.9, §3 Audience, §5, §6): the import with the contacts import's analysis, the name
// rule, the people in one transaction, replace by _id, a repeated create, create_contacts, rename and the
// soft delete, the account boundary, the access area and the plan gate.
import { asc, eq, isNull, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { systemActor } from '@/server/access';
import type { Hold } from '@/server/db/holds';
import { accounts, audiencePeople, audiences, contacts } from '@/server/db/schema';
import { audiencesRepo, peopleRowOf } from '@/server/domains/audiences/audiences.repo';
import { DEMO_LOGINS } from '@/server/seed/demo';
import type { Envelope } from '@/shared/contract';
import type { Audience } from '@/shared/contract/campaigns';
import { newId } from '@/shared/ids';
import { messages as texts } from '@/shared/messages';
import { campaignMessages } from '@/shared/messages-campaigns';
import { makeBigXlsx, makeXlsx } from '../xlsx';
import { testServerPerFile } from './helpers';

const s = testServerPerFile();

const SHEET: (string | number | null)[][] = [
  ['Telefone', 'Nome', 'Cidade'],
  [5581988887777, 'Joana Prado', 'Recife'],
  ['5521977776666', 'Pedro Lins', 'Rio'],
  ['81 9888-7777', 'Sem código', 'Recife'],
  ['5581988887777', 'Repetida', 'Recife'],
];

/** import-audience as the screen sends it (fields before the file: the server reads those that come first). */
function postImport(token: string, fields: Record<string, string>, file: Buffer | null, filename: string) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append('file', new Blob([new Uint8Array(file)]), filename);
  return fetch(`${s.t.url}/api/import-audience`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
}

async function importAudience(
  token: string,
  fields: Record<string, string>,
  file: Buffer | null,
  filename = 'audiencia.xlsx',
) {
  const res = await postImport(token, fields, file, filename);
  expect(res.status).toBe(200);
  return (await res.json()) as Envelope<Audience> & { field?: string };
}

/** An import the database fails midway: the server's answer for what it did not expect (status aside). */
async function failedImport(token: string, fields: Record<string, string>, file: Buffer) {
  const res = await postImport(token, fields, file, 'a.xlsx');
  expect(((await res.json()) as Envelope<unknown>).error).toBe(true);
}

async function imported(token: string, fields: Record<string, string>, file: Buffer) {
  const answer = await importAudience(token, fields, file);
  if (answer.error) throw new Error(answer.message);
  return answer.message;
}

/** The audience's people, where its last import wrote them. */
const peopleOf = async (id: string) => {
  const { db } = s.t.server.services;
  const [audience] = await db.select().from(audiences).where(eq(audiences.id, id));
  return db
    .select({ phone: audiencePeople.phone, data: audiencePeople.data, position: audiencePeople.position })
    .from(audiencePeople)
    .where(eq(audiencePeople.audienceId, audience ? peopleRowOf(audience) : id))
    .orderBy(asc(audiencePeople.position));
};

const contactsByPhone = async () =>
  new Map(
    (
      await s.t.server.services.db.select().from(contacts).where(eq(contacts.accountId, s.seed.accountId))
    ).map((c) => [c.phone, c]),
  );

describe('import-audience', () => {
  it('stores the valid people in order with their variables, and lists the audience', async () => {
    const owner = await s.t.login(DEMO_LOGINS.owner);
    const a = await imported(
      owner,
      { name: '  Clientes de Recife ', create_contacts: 'false' },
      await makeXlsx(SHEET),
    );
    expect(a).toMatchObject({
      name: 'Clientes de Recife',
      people_count: 2,
      props: ['telefone', 'nome', 'cidade'],
      create_contacts: false,
      filed: false,
    });
    expect(await peopleOf(a._id)).toEqual([
      { phone: '5581988887777', data: { nome: 'Joana Prado', cidade: 'Recife' }, position: 0 },
      { phone: '5521977776666', data: { nome: 'Pedro Lins', cidade: 'Rio' }, position: 1 },
    ]);
    expect(await s.t.call('get-audiences-by-user', {}, owner)).toEqual([a]);
    // create_contacts false: no contact was made.
    expect((await contactsByPhone()).size).toBe(0);
    const live = await audiencesRepo.findLive(
      s.t.server.services.db,
      systemActor(s.seed.accountId, 'test'),
      a._id,
    );
    expect(live?.id).toBe(a._id);
  });

  it('creates or updates the contacts by phone with create_contacts (the default), as the contacts import does', async () => {
    const owner = await s.t.login(DEMO_LOGINS.owner);
    await s.t.server.services.db.insert(contacts).values({
      id: newId(),
      accountId: s.seed.accountId,
      name: 'Joana do WhatsApp',
      phone: '5581988887777',
      data: { cpf: '123' },
    });
    const a = await imported(owner, { name: 'Com contatos' }, await makeXlsx(SHEET));
    expect(a.create_contacts).toBe(true);
    const byPhone = await contactsByPhone();
    expect(byPhone.size).toBe(2);
    // The existing contact keeps its name and gains the sheet's variables over its own.
    expect(byPhone.get('5581988887777')).toMatchObject({
      name: 'Joana do WhatsApp',
      data: { cpf: '123', nome: 'Joana Prado', cidade: 'Recife' },
    });
    expect(byPhone.get('5521977776666')).toMatchObject({
      name: 'Pedro Lins',
      data: { nome: 'Pedro Lins', cidade: 'Rio' },
    });
  });

  it('answers the analysis errors in pt-BR and stores nothing', async () => {
    const owner = await s.t.login(DEMO_LOGINS.owner);
    const name = { name: 'Ruim' };
    const cases: [Buffer, string, string][] = [
      [Buffer.from('telefone,nome\n5581988887777,Joana\n'), 'a.csv', texts.importNotXlsx],
      [Buffer.from('isto não é uma planilha'), 'a.xlsx', texts.importUnreadable],
      [await makeXlsx([['nome'], ['Joana']]), 'a.xlsx', texts.importPhoneColumnMissing],
      [await makeXlsx([['telefone', 'nome']]), 'a.xlsx', texts.importEmpty],
      [await makeXlsx([]), 'a.xlsx', texts.importEmpty],
      // Only phones without country code, duplicates and blanks: no valid person.
      [
        await makeXlsx([
          ['telefone', 'nome'],
          ['81988887777x', 'A'],
          ['', 'B'],
          ['9888-7777', 'C'],
        ]),
        'a.xlsx',
        campaignMessages.audienceNoValid,
      ],
    ];
    for (const [file, filename, message] of cases)
      expect(await importAudience(owner, name, file, filename)).toMatchObject({ error: true, message });
    // A big file (read on a thread of its own) that is no spreadsheet inside.
    const bigBroken = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(400 * 1024, 7)]);
    expect(await importAudience(owner, name, bigBroken, 'grande.xlsx')).toMatchObject({
      error: true,
      message: texts.importUnreadable,
    });
    // A formula's result is read as the phone, as the contacts import reads it.
    const workbookWithFormula = await makeXlsx([['telefone', 'nome']]);
    const ExcelJS = (await import('exceljs')).default;
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(workbookWithFormula as unknown as ArrayBuffer);
    wb.worksheets[0]?.addRow([{ formula: '5511900000000+1', result: 5511900000001 }, 'Fórmula']);
    wb.worksheets[0]?.addRow([{ formula: '1/0', error: '#DIV/0!' } as never, 'Erro']);
    const formulas = await imported(owner, { name: 'Fórmulas' }, Buffer.from(await wb.xlsx.writeBuffer()));
    expect(await peopleOf(formulas._id)).toEqual([
      { phone: '5511900000001', data: { nome: 'Fórmula' }, position: 0 },
    ]);
    // No file at all: as every upload answers it.
    expect(await importAudience(owner, name, null)).toMatchObject({
      error: true,
      message: texts.fileRequired,
    });
    const list = await s.t.call('get-audiences-by-user', {}, owner);
    expect(list.map((a) => a.name)).toEqual(['Fórmulas']);
  });

  it("refuses a blank name with 'Nome da audiência necessário' on the name field", async () => {
    const owner = await s.t.login(DEMO_LOGINS.owner);
    const file = await makeXlsx(SHEET);
    for (const name of [undefined, '', '   ']) {
      const answer = await importAudience(owner, name === undefined ? {} : { name }, file);
      expect(answer).toMatchObject({ error: true, message: texts.audienceNameRequired, field: 'name' });
    }
    const a = await imported(owner, { name: 'Nome' }, file);
    expect(await s.t.post('create-or-update-audience', { _id: a._id, name: ' ' }, owner)).toMatchObject({
      body: { error: true, message: texts.audienceNameRequired },
    });
    expect(await s.t.call('get-audiences-by-user', {}, owner)).toEqual([a]);
  });

  it('an _id already there gets the new sheet instead of its people; a repeated create makes one audience', async () => {
    const owner = await s.t.login(DEMO_LOGINS.owner);
    const _id = newId();
    const file = await makeXlsx(SHEET);
    const [first, second] = await Promise.all([
      imported(owner, { _id, name: 'Duas vezes' }, file),
      imported(owner, { _id, name: 'Duas vezes' }, file),
    ]);
    expect(first._id).toBe(_id);
    expect(second._id).toBe(_id);
    expect(await s.t.call('get-audiences-by-user', {}, owner)).toHaveLength(1);
    expect(await peopleOf(_id)).toHaveLength(2);

    const replaced = await imported(
      owner,
      { _id, name: 'Nova lista', create_contacts: 'false' },
      await makeXlsx([
        ['telefone', 'produto'],
        ['5511912345678', 'Curso'],
      ]),
    );
    expect(replaced).toMatchObject({
      _id,
      name: 'Nova lista',
      people_count: 1,
      props: ['telefone', 'produto'],
      create_contacts: false,
      created: first.created,
    });
    expect(await peopleOf(_id)).toEqual([
      { phone: '5511912345678', data: { produto: 'Curso' }, position: 0 },
    ]);
  });

  it('saves all or nothing: a contact the database refuses leaves the audience and the contacts as they were', async () => {
    const owner = await s.t.login(DEMO_LOGINS.owner);
    const a = await imported(owner, { name: 'Intacta', create_contacts: 'false' }, await makeXlsx(SHEET));
    const { db } = s.t.server.services;
    // A failure injected after the people are written: the contacts' batch of the same transaction fails.
    await db.execute(sql`alter table contacts add constraint test_no_falha check (name <> 'Falha')`);
    try {
      const sheet = await makeXlsx([
        ['telefone', 'nome'],
        ['5511911112222', 'Boa'],
        ['5511933334444', 'Falha'],
      ]);
      await failedImport(owner, { _id: a._id, name: 'Trocada' }, sheet);
    } finally {
      await db.execute(sql`alter table contacts drop constraint test_no_falha`);
    }
    expect(await s.t.call('get-audiences-by-user', {}, owner)).toEqual([a]);
    expect((await peopleOf(a._id)).map((p) => p.phone)).toEqual(['5581988887777', '5521977776666']);
    expect((await contactsByPhone()).size).toBe(0);
  });

  it('renames, changes create_contacts and deletes softly', async () => {
    const owner = await s.t.login(DEMO_LOGINS.manager);
    const a = await imported(owner, { name: 'Antiga' }, await makeXlsx(SHEET));
    const renamed = await s.t.call(
      'create-or-update-audience',
      { _id: a._id, name: ' Renomeada ', create_contacts: false },
      owner,
    );
    expect(renamed).toMatchObject({ _id: a._id, name: 'Renomeada', create_contacts: false, people_count: 2 });
    expect((await contactsByPhone()).size).toBe(2); // made by the import (create_contacts was on)
    await s.t.server.services.db.delete(contacts);
    // Turned on again: the people become contacts now, as an import with it on does.
    const on = await s.t.call('create-or-update-audience', { _id: a._id, create_contacts: true }, owner);
    expect(on.create_contacts).toBe(true);
    expect([...(await contactsByPhone()).values()].map((c) => [c.phone, c.name, c.data]).sort()).toEqual([
      ['5521977776666', 'Pedro Lins', { nome: 'Pedro Lins', cidade: 'Rio' }],
      ['5581988887777', 'Joana Prado', { nome: 'Joana Prado', cidade: 'Recife' }],
    ]);
    const filed = await s.t.call('create-or-update-audience', { _id: a._id, filed: true }, owner);
    expect(filed.filed).toBe(true);
    expect(await s.t.call('get-audiences-by-user', {}, owner)).toEqual([]);
    // The row and its people stay (campaigns that sent to it); it is no longer live.
    const [row] = await s.t.server.services.db.select().from(audiences).where(eq(audiences.id, a._id));
    expect(row?.filed).toBe(true);
    expect(await peopleOf(a._id)).toHaveLength(2);
    expect(
      await audiencesRepo.findLive(s.t.server.services.db, systemActor(s.seed.accountId, 'test'), a._id),
    ).toBeNull();
    // A deleted audience is not there any more: neither edited, deleted again nor refilled by an import.
    for (const body of [
      { _id: a._id, name: 'Volta' },
      { _id: a._id, filed: true },
    ])
      expect((await s.t.post('create-or-update-audience', body, owner)).body).toEqual({
        error: true,
        message: texts.notFound,
      });
    expect(await importAudience(owner, { _id: a._id, name: 'Volta' }, await makeXlsx(SHEET))).toMatchObject({
      error: true,
      message: texts.notFound,
    });
  });
});

describe('who may', () => {
  it("answers another account's audience as not found and changes nothing of it", async () => {
    const owner = await s.t.login(DEMO_LOGINS.owner);
    const a = await imported(owner, { name: 'De A' }, await makeXlsx(SHEET));
    const otherAccount = newId();
    await s.t.server.services.db
      .insert(accounts)
      .values({ id: otherAccount, name: 'Outra', maxChannels: 1, maxUsers: 1, campaignsEnabled: true });
    // The audience moves to the other account: for the demo owner it is another account's now.
    await s.t.server.services.db
      .update(audiences)
      .set({ accountId: otherAccount })
      .where(eq(audiences.id, a._id));
    for (const body of [{ _id: a._id, name: 'Tomada' }, { _id: a._id, filed: true }, { _id: a._id }])
      expect((await s.t.post('create-or-update-audience', body, owner)).body).toEqual({
        error: true,
        message: texts.notFound,
      });
    expect(await importAudience(owner, { _id: a._id, name: 'Tomada' }, await makeXlsx(SHEET))).toMatchObject({
      error: true,
      message: texts.notFound,
    });
    expect(await s.t.call('get-audiences-by-user', {}, owner)).toEqual([]);
    const [row] = await s.t.server.services.db.select().from(audiences).where(eq(audiences.id, a._id));
    expect(row).toMatchObject({ name: 'De A', filed: false, peopleCount: 2 });
    expect(await peopleOf(a._id)).toHaveLength(2);
    expect(
      await audiencesRepo.findLive(s.t.server.services.db, systemActor(s.seed.accountId, 'test'), a._id),
    ).toBeNull();
    expect(
      (await audiencesRepo.findLive(s.t.server.services.db, systemActor(otherAccount, 'test'), a._id))?.id,
    ).toBe(a._id);
  });

  it("refuses the attendant (no campaigns area) with 'Permissões insuficientes.'", async () => {
    const owner = await s.t.login(DEMO_LOGINS.owner);
    const a = await imported(owner, { name: 'Da equipe' }, await makeXlsx(SHEET));
    const attendant = await s.t.login(DEMO_LOGINS.attendant);
    const refused = { error: true, message: texts.insufficientPermissions };
    expect((await s.t.post('get-audiences-by-user', {}, attendant)).body).toMatchObject(refused);
    expect(
      (await s.t.post('create-or-update-audience', { _id: a._id, filed: true }, attendant)).body,
    ).toMatchObject(refused);
    expect(await importAudience(attendant, { name: 'Minha' }, await makeXlsx(SHEET))).toMatchObject(refused);
    expect(await s.t.call('get-audiences-by-user', {}, owner)).toHaveLength(1);
  });

  it('refuses an account whose plan has no campaigns with the upgrade notice', async () => {
    const owner = await s.t.login(DEMO_LOGINS.owner);
    const a = await imported(owner, { name: 'Antes do plano' }, await makeXlsx(SHEET));
    await s.t.server.services.db
      .update(accounts)
      .set({ campaignsEnabled: false })
      .where(eq(accounts.id, s.seed.accountId));
    const refused = { error: true, message: campaignMessages.campaignsNotInPlan };
    expect((await s.t.post('get-audiences-by-user', {}, owner)).body).toMatchObject(refused);
    expect(
      (await s.t.post('create-or-update-audience', { _id: a._id, filed: true }, owner)).body,
    ).toMatchObject(refused);
    expect(await importAudience(owner, { name: 'Sem plano' }, await makeXlsx(SHEET))).toMatchObject(refused);
    const rows = await s.t.server.services.db.select().from(audiences).where(isNull(audiences.importFor));
    expect(rows.map((r) => [r.name, r.filed])).toEqual([['Antes do plano', false]]);
  });
});

describe('in pieces (issue 37: no operation holds the embedded database over 250 ms)', () => {
  const count = async (query: ReturnType<typeof sql>) => {
    const { rows } = (await s.t.server.services.db.execute(query)) as unknown as { rows: { n: number }[] };
    return Number(rows[0]?.n ?? 0);
  };
  const peopleRows = () => count(sql`select count(*)::int as n from audience_people`);
  const importRows = () => count(sql`select count(*)::int as n from audiences where import_for is not null`);

  it('imports 20,000 people with their contacts, never holding PGlite over 250 ms at a time', async () => {
    const rows = 20_000;
    const owner = await s.t.login(DEMO_LOGINS.owner);
    const file = await makeBigXlsx(rows);
    // PGlite only: PostgreSQL has no one connection to hold.
    const { holds } = s.t.server.database;
    const seen: Hold[] = [];
    const stop = holds?.watch((h) => seen.push(h));
    const a = await imported(owner, { name: 'Grande', create_contacts: 'true' }, file);
    stop?.();
    expect(a.people_count).toBe(rows);
    const people = await peopleOf(a._id);
    expect(people).toHaveLength(rows);
    expect(people.at(-1)).toMatchObject({ phone: String(5511900000000 + rows - 1), position: rows - 1 });
    expect(new Set(people.map((p) => p.phone)).size).toBe(rows);
    expect((await contactsByPhone()).size).toBe(rows);
    if (holds) {
      const longest = seen.reduce((a, h) => (h.ms > a.ms ? h : a), { ms: 0, what: '' });
      expect(longest.ms, `longest hold: ${longest.what}`).toBeLessThan(250);
      // Written in many pieces, not in one.
      expect(seen.filter((h) => h.what.includes('audience_people')).length).toBeGreaterThan(3);
    }
  });

  it('a failure midway leaves the audience as it was and nothing of the import; the same import again saves each person once', async () => {
    const rows = 5_000;
    const owner = await s.t.login(DEMO_LOGINS.owner);
    const a = await imported(owner, { name: 'Intacta', create_contacts: 'false' }, await makeXlsx(SHEET));
    const file = await makeBigXlsx(rows);
    const { db } = s.t.server.services;
    // The last person is refused: the pieces before it are written, then the import fails.
    await db.execute(
      sql.raw(
        `alter table audience_people add constraint test_not_last check (phone <> '${5511900000000 + rows - 1}')`,
      ),
    );
    try {
      await failedImport(owner, { _id: a._id, name: 'Trocada', create_contacts: 'false' }, file);
    } finally {
      await db.execute(sql`alter table audience_people drop constraint test_not_last`);
    }
    expect(await s.t.call('get-audiences-by-user', {}, owner)).toEqual([a]);
    expect((await peopleOf(a._id)).map((p) => p.phone)).toEqual(['5581988887777', '5521977776666']);
    expect(await peopleRows()).toBe(2);
    expect(await importRows()).toBe(1); // the audience's own import row, nothing else

    const again = await imported(owner, { _id: a._id, name: 'Trocada', create_contacts: 'false' }, file);
    expect(again).toMatchObject({ _id: a._id, name: 'Trocada', people_count: rows });
    const people = await peopleOf(a._id);
    expect(people.map((p) => p.position)).toEqual(Array.from({ length: rows }, (_, i) => i));
    expect(new Set(people.map((p) => p.phone)).size).toBe(rows);
    // The people it had before are gone, as is their import row.
    expect(await peopleRows()).toBe(rows);
    expect(await importRows()).toBe(1);
  });

  it('an audience stored before imports in pieces takes a new sheet, and its own rows go', async () => {
    const owner = await s.t.login(DEMO_LOGINS.owner);
    const { db } = s.t.server.services;
    const id = newId();
    await db
      .insert(audiences)
      .values({ id, accountId: s.seed.accountId, name: 'Antiga', props: ['telefone'], peopleCount: 1 });
    await db.insert(audiencePeople).values({ audienceId: id, phone: '5511987654321', data: {}, position: 0 });
    const a = await imported(
      owner,
      { _id: id, name: 'Antiga', create_contacts: 'false' },
      await makeXlsx(SHEET),
    );
    expect(a.people_count).toBe(2);
    expect((await peopleOf(id)).map((p) => p.phone)).toEqual(['5581988887777', '5521977776666']);
    expect(await count(sql`select count(*)::int as n from audience_people where audience_id = ${id}`)).toBe(
      0,
    );
  });

  it('housekeeping sweeps the people of an import whose process ended midway, not of one still running', async () => {
    const { db } = s.t.server.services;
    const actor = systemActor(s.seed.accountId, 'test');
    const person = (phone: string) => ({ phone, data: { nome: 'Ana' } });
    const abandoned = await audiencesRepo.startImport(db, actor, newId(), {
      name: 'Parou',
      createContacts: false,
    });
    await audiencesRepo.addPeople(db, abandoned, [person('5511911110000'), person('5511911110001')], 0);
    await db
      .update(audiences)
      .set({ createdAt: sql`now() - interval '2 hours'` })
      .where(eq(audiences.id, abandoned));
    const running = await audiencesRepo.startImport(db, actor, newId(), {
      name: 'Rodando',
      createContacts: false,
    });
    await audiencesRepo.addPeople(db, running, [person('5511922220000')], 0);
    const kept = await imported(
      await s.t.login(DEMO_LOGINS.owner),
      { name: 'Pronta' },
      await makeXlsx(SHEET),
    );

    await audiencesRepo.sweepAbandonedImports(db);
    const left = await db.select({ id: audiences.id }).from(audiences);
    expect(left.map((r) => r.id)).not.toContain(abandoned);
    expect(left.map((r) => r.id)).toContain(running);
    expect(await peopleRows()).toBe(1 + 2);
    expect(await peopleOf(kept._id)).toHaveLength(2);
  });
});
