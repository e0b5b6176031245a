// The contacts screen's calls (spec 2 §2.1, §5, §6, §7): the list and its filters, ignore (and its effect
// on the inbound pipeline), delete by role, the spreadsheet analysis, the import and the export.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { contacts, conversations } from '@/server/db/schema';
import { DEMO_LOGINS } from '@/server/seed/demo';
import { CONTACT_IMPORT_BATCH } from '@/shared/constants';
import type { Envelope } from '@/shared/contract';
import type { AudienceAnalysis } from '@/shared/contract/contacts';
import { newId } from '@/shared/ids';
import { messages as texts } from '@/shared/messages';
import { makeBigXlsx, makeXlsx, readXlsx } from '../xlsx';
import { connectedSimulatorChip, listen } from './channel-helpers';
import { testServerPerFile } from './helpers';

const s = testServerPerFile();

async function addContacts(rows: { name: string; phone: string; tags?: string[]; createdAt?: Date }[]) {
  await s.t.server.services.db.insert(contacts).values(
    rows.map((r) => ({
      id: newId(),
      accountId: s.seed.accountId,
      name: r.name,
      phone: r.phone,
      tags: r.tags ?? [],
      createdAt: r.createdAt ?? new Date(),
    })),
  );
}

async function upload(token: string, file: Buffer, name = 'contatos.xlsx') {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file)]), name);
  const res = await fetch(`${s.t.url}/api/send-audience-list`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return (await res.json()) as Envelope<AudienceAnalysis>;
}

describe('contacts list', () => {
  it('pages by 10 and finds by name, phone, tag and creation date', async () => {
    const owner = await s.t.login(DEMO_LOGINS.owner);
    const vip = await s.t.call('create-or-update-tag', { name: 'VIP', color: '#FF0000' }, owner);
    const day = (d: number) => new Date(Date.UTC(2026, 0, d, 15));
    await addContacts([
      ...Array.from({ length: 12 }, (_, i) => ({
        name: `Cliente ${i}`,
        phone: `55119000000${String(i).padStart(2, '0')}`,
        createdAt: day(1),
      })),
      { name: 'Joana Prado', phone: '5581988887777', tags: [vip._id], createdAt: day(10) },
      { name: 'Pedro Lins', phone: '5521977776666', createdAt: day(20) },
    ]);
    const list = (p: object) => s.t.call('get-contacts-by-user', { itemsPerPage: 10, page: 1, ...p }, owner);

    const first = await list({});
    expect(first.total).toBe(14);
    expect(first.data).toHaveLength(10);
    expect(first.data[0]?.name).toBe('Pedro Lins'); // newest first
    expect((await list({ page: 2 })).data).toHaveLength(4);

    expect((await list({ query: 'joana' })).data.map((c) => c.name)).toEqual(['Joana Prado']);
    expect((await list({ query: '98888' })).data.map((c) => c.name)).toEqual(['Joana Prado']);
    expect((await list({ query: '100%' })).total).toBe(0);
    expect((await list({ tags: [vip._id] })).data.map((c) => c.name)).toEqual(['Joana Prado']);
    const range = await list({
      created_from: '2026-01-05T00:00:00-03:00',
      created_to: '2026-01-25T23:59:59-03:00',
    });
    expect(range.data.map((c) => c.name)).toEqual(['Pedro Lins', 'Joana Prado']);
  });

  it('is closed to a user without the contacts area, and to other accounts', async () => {
    const owner = await s.t.login(DEMO_LOGINS.owner);
    const attendant = await s.t.login(DEMO_LOGINS.attendant);
    await addContacts([{ name: 'Joana', phone: '5581988887777' }]);
    expect((await s.t.call('get-contacts-by-user', {}, attendant)).total).toBe(1);
    const team = await s.t.call('get-team-users', {}, owner);
    const ana = team.find((u) => u.email === DEMO_LOGINS.attendant);
    if (!ana) throw new Error('no attendant');
    await s.t.call('update-team-user', { ...ana, access_areas: ['chips'] }, owner);
    const refused = await s.t.post('get-contacts-by-user', {}, attendant);
    expect(refused.body).toEqual({ error: true, message: texts.insufficientPermissions });
    const admin = await s.t.login(DEMO_LOGINS.admin);
    expect((await s.t.call('get-contacts-by-user', {}, admin)).total).toBe(0);
  });
});

/** A simulator chip in Suporte and a customer on it: `say(text)` is the customer writing. */
async function customerOnSupportChip(owner: string, phone: string, name: string) {
  const { simulatorToken } = await connectedSimulatorChip(s.t, owner, {
    department: s.seed.departments.support,
  });
  return (text: string) =>
    s.t.call('simulator-send', { token: simulatorToken, phone, name, id: `m${newId()}`, type: 'text', text });
}

describe('ignore and delete', () => {
  it('an ignored contact’s message opens no conversation; stop ignoring and it does again', async () => {
    const owner = await s.t.login(DEMO_LOGINS.owner);
    const say = await customerOnSupportChip(owner, '5581988887777', 'Joana');
    await say('Olá');
    const db = s.t.server.services.db;
    const [contact] = await db.select().from(contacts).where(eq(contacts.phone, '5581988887777'));
    if (!contact) throw new Error('no contact');
    const openOf = () =>
      db
        .select()
        .from(conversations)
        .where(and(eq(conversations.contactId, contact.id)));
    const [first] = await openOf();
    if (!first) throw new Error('no conversation');
    await s.t.call('finish-conversation', { conversation_id: first.id }, owner);

    // An attendant of another department no longer reaches a contact served in Suporte.
    const sales = await s.t.login(DEMO_LOGINS.attendant2);
    expect((await s.t.call('get-contacts-by-user', {}, sales)).total).toBe(0);
    expect((await s.t.call('get-contacts-by-user', {}, await s.t.login(DEMO_LOGINS.attendant))).total).toBe(
      1,
    );
    const ignored = await s.t.call('ignore-contact', { contact_id: contact.id, ignore: true }, owner);
    expect(ignored.ignore).toBe(true);
    await say('Ainda aí?');
    expect((await openOf()).filter((c) => c.finishedAt === null)).toHaveLength(0);

    await s.t.call('ignore-contact', { contact_id: contact.id, ignore: false }, owner);
    await say('Oi de novo');
    expect((await openOf()).filter((c) => c.finishedAt === null)).toHaveLength(1);
  });

  it('delete: managers and owners only, enforced on the server', async () => {
    await addContacts([{ name: 'Joana', phone: '5581988887777' }]);
    const manager = await s.t.login(DEMO_LOGINS.manager);
    const attendant = await s.t.login(DEMO_LOGINS.attendant);
    const [row] = (await s.t.call('get-contacts-by-user', {}, manager)).data;
    if (!row) throw new Error('no contact');
    const refused = await s.t.post('delete-contact', { contact_id: row._id }, attendant);
    expect(refused.body).toEqual({ error: true, message: texts.insufficientPermissions });
    expect(await s.t.call('delete-contact', { contact_id: row._id }, manager)).toEqual({ ok: true });
    expect((await s.t.call('get-contacts-by-user', {}, manager)).total).toBe(0);
  });

  it('a deleted contact’s open conversation ends; the phone writing again is a new contact', async () => {
    const owner = await s.t.login(DEMO_LOGINS.owner);
    const say = await customerOnSupportChip(owner, '5521977776666', 'Pedro');
    await say('Olá');
    const db = s.t.server.services.db;
    const [contact] = await db.select().from(contacts).where(eq(contacts.phone, '5521977776666'));
    if (!contact) throw new Error('no contact');
    const manager = await listen(s.t, DEMO_LOGINS.manager);
    expect(await s.t.call('delete-contact', { contact_id: contact.id }, owner)).toEqual({ ok: true });
    const [old] = await db.select().from(conversations).where(eq(conversations.contactId, contact.id));
    expect(old?.finishedAt).not.toBeNull();
    expect((await manager.next('conversation_finished')).message._id).toBe(old?.id);

    await say('Voltei');
    const again = await db.select().from(contacts).where(eq(contacts.phone, '5521977776666'));
    expect(again.map((c) => c.filed).sort()).toEqual([false, true]);
    const fresh = again.find((c) => !c.filed);
    const open = await db
      .select()
      .from(conversations)
      .where(eq(conversations.contactId, fresh?.id ?? ''));
    expect(open.map((c) => c.finishedAt)).toEqual([null]);
  });
});

describe('import', () => {
  it('analyses a sheet: valid people, the header, invalid lines; nothing is stored', async () => {
    const owner = await s.t.login(DEMO_LOGINS.owner);
    const file = await makeXlsx([
      ['Telefone', 'Nome', 'Cidade'],
      [5581988887777, 'Joana Prado', 'Recife'],
      ['5521977776666', 'Pedro Lins', 'Rio'],
      ['81 9888-7777', 'Sem código', 'Recife'],
      [null, null, null],
      ['', 'Sem telefone', 'Natal'],
      ['5581988887777', 'Repetida', 'Recife'],
    ]);
    const answer = await upload(owner, file);
    if (answer.error) throw new Error(answer.message);
    const a = answer.message;
    expect(a.header).toEqual(['telefone', 'nome', 'cidade']);
    expect(a.valid).toEqual([
      { telefone: '5581988887777', nome: 'Joana Prado', cidade: 'Recife' },
      { telefone: '5521977776666', nome: 'Pedro Lins', cidade: 'Rio' },
    ]);
    expect(a.total_count).toBe(5);
    expect(a.invalid).toEqual([
      { line: 4, reason: texts.importInvalidPhone },
      { line: 6, reason: texts.importMissingPhone },
      { line: 7, reason: texts.importDuplicatePhone(2) },
    ]);
    expect(a.message).toContain(texts.importAnalysis(2, 5));
    expect((await s.t.call('get-contacts-by-user', {}, owner)).total).toBe(0);
  });

  it('refuses a file that is not xlsx, a sheet without telefone, and an empty sheet', async () => {
    const owner = await s.t.login(DEMO_LOGINS.owner);
    expect(await upload(owner, Buffer.from('telefone,nome\n5581988887777,Joana\n'), 'c.csv')).toEqual({
      error: true,
      message: texts.importNotXlsx,
    });
    expect(await upload(owner, await makeXlsx([['nome'], ['Joana']]))).toEqual({
      error: true,
      message: texts.importPhoneColumnMissing,
    });
    expect(await upload(owner, await makeXlsx([['telefone', 'nome']]))).toEqual({
      error: true,
      message: texts.importEmpty,
    });
    expect(await upload(owner, await makeXlsx([]))).toEqual({ error: true, message: texts.importEmpty });
    const broken = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 7)]);
    expect(await upload(owner, broken)).toEqual({ error: true, message: texts.importUnreadable });
    // A damaged .xlsx (not even a zip inside) is unreadable, not of the wrong type.
    for (const damaged of [Buffer.from('isto não é uma planilha'), Buffer.alloc(64, 0xff)]) {
      expect(await upload(owner, damaged, 'contatos.xlsx')).toEqual({
        error: true,
        message: texts.importUnreadable,
      });
    }
  });

  it('upserts by phone keeping the variables; a repeated batch changes nothing', async () => {
    const owner = await s.t.login(DEMO_LOGINS.owner);
    await addContacts([{ name: 'Joana do WhatsApp', phone: '5581988887777' }]);
    const people = [
      { telefone: '5581988887777', nome: 'Joana Prado', cidade: 'Recife' },
      { telefone: '5521977776666', nome: 'Pedro Lins', cidade: 'Rio' },
    ];
    const props = ['telefone', 'nome', 'cidade'];
    expect(await s.t.call('import-contacts', { people, props }, owner)).toEqual({ created: 1, updated: 1 });
    expect(await s.t.call('import-contacts', { people, props }, owner)).toEqual({ created: 0, updated: 2 });
    const list = await s.t.call('get-contacts-by-user', {}, owner);
    expect(list.total).toBe(2);
    const joana = list.data.find((c) => c.phone === '5581988887777');
    if (!joana) throw new Error('no Joana');
    expect(joana.name).toBe('Joana do WhatsApp');
    const details = await s.t.call('get-contact-by-id', { contact_id: joana._id }, owner);
    expect(details.data).toEqual({ nome: 'Joana Prado', cidade: 'Recife' });
    const tooMany = Array.from({ length: CONTACT_IMPORT_BATCH + 1 }, (_, i) => ({
      telefone: String(5511900000000 + i),
    }));
    expect((await s.t.post('import-contacts', { people: tooMany, props }, owner)).body.error).toBe(true);
  });

  it('analyses and imports a 100,000-row sheet', { timeout: 120_000 }, async () => {
    const owner = await s.t.login(DEMO_LOGINS.owner);
    const file = await makeBigXlsx(100_000);
    const t0 = performance.now();
    const answer = await upload(owner, file);
    if (answer.error) throw new Error(answer.message);
    const t1 = performance.now();
    const { valid, header } = answer.message;
    expect(valid).toHaveLength(100_000);
    for (let i = 0; i < valid.length; i += CONTACT_IMPORT_BATCH) {
      await s.t.call(
        'import-contacts',
        { people: valid.slice(i, i + CONTACT_IMPORT_BATCH), props: header },
        owner,
      );
    }
    const t2 = performance.now();
    console.log(`100.000 linhas: análise ${Math.round(t1 - t0)} ms, importação ${Math.round(t2 - t1)} ms`);
    expect((await s.t.call('get-contacts-by-user', { query: 'Pessoa 99999 ' }, owner)).total).toBe(1);
    expect((await s.t.call('get-contacts-by-user', {}, owner)).total).toBe(100_000);
  });
});

describe('export', () => {
  it('downloads the filtered contacts as Contatos_<date>.xlsx; role user is refused', async () => {
    const owner = await s.t.login(DEMO_LOGINS.owner);
    const attendant = await s.t.login(DEMO_LOGINS.attendant);
    await s.t.call(
      'import-contacts',
      {
        people: [
          { telefone: '5581988887777', nome: 'Joana Prado', cidade: 'Recife' },
          { telefone: '5521977776666', nome: 'Pedro Lins', cidade: 'Rio' },
        ],
        props: ['telefone', 'nome', 'cidade'],
      },
      owner,
    );
    const file = await s.t.call('export-contacts', { query: 'Joana' }, owner);
    expect(file.file_name).toMatch(/^Contatos_\d{4}-\d{2}-\d{2}\.xlsx$/);
    const rows = await readXlsx(Buffer.from(file.content_base64, 'base64'));
    expect(rows[0]).toEqual(['telefone', 'nome', 'tags', 'criado_em', 'ignorado', 'cidade']);
    expect(rows.slice(1).map((r) => [r[0], r[1], r[5]])).toEqual([
      ['5581988887777', 'Joana Prado', 'Recife'],
    ]);
    expect((await s.t.post('export-contacts', {}, attendant)).body).toEqual({
      error: true,
      message: texts.exportNotAuthorized,
    });
  });
});
