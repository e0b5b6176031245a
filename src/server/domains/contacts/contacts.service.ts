// Contacts (spec 2 §2.1, §3, §7): the contacts screen's list, ignore and delete, the drawer and the quick
// edits. Owners and managers reach every contact of the account; attendants those with a conversation in
// their departments and those nobody has talked to yet (attendantReach). A change is announced as
// conversation_updated for the contact's open conversations, so every list shows it.
import { and, asc, desc, eq, gte, ilike, inArray, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { ContactDetails, contactFilter, ImportPerson } from '../../../shared/contract/contacts';
import { newId } from '../../../shared/ids';
import { messages as texts } from '../../../shared/messages';
import { normalizePhone } from '../../../shared/phone';
import { assertMayExportContacts } from '../../access';
import type { Db } from '../../db';
import { contacts, conversations, tags } from '../../db/schema';
import type { SignedInContext } from '../../http/context';
import { AppError } from '../../http/errors';
import { announceFinished, finishContactConversations } from '../conversations/conversation-actions';
import { loadConversation, toContact } from '../conversations/present';
import { type ContactChange, type ContactRow, contactsRepo, reachableContacts } from './contacts.repo';
import { PHONE_COLUMN, sheetDay, writeContactsSheet } from './contacts-sheet';

type Ctx = SignedInContext;

const toDetails = (c: ContactRow): ContactDetails => ({
  ...toContact(c),
  data: c.data,
  annotations: c.annotations,
});

async function visibleContact(ctx: Ctx, contactId: string): Promise<ContactRow> {
  const row = await contactsRepo.visible(ctx.services.db, ctx.actor, contactId);
  if (!row) throw new AppError(texts.notFound);
  return row;
}

async function saved(ctx: Ctx, contactId: string, set: ContactChange) {
  const { db, realtime } = ctx.services;
  // The contact and its open conversations' change mark move together (the catch-up's get-changes-since).
  const { row, open } = await db.transaction(async (tx) => {
    const row = await contactsRepo.update(tx, ctx.actor, contactId, set);
    if (!row) throw new AppError(texts.notFound);
    const open = await tx
      .update(conversations)
      .set({ updatedAt: sql`now()` })
      .where(and(eq(conversations.contactId, contactId), isNull(conversations.finishedAt)))
      .returning({ id: conversations.id });
    return { row, open };
  });
  // The contact shows in its open conversations: they changed too.
  for (const { id } of open) {
    const view = await loadConversation(db, id);
    if (view)
      realtime.toConversation(ctx.user.accountId, view.department, {
        type: 'conversation_updated',
        message: view,
      });
  }
  return toDetails(row);
}

export async function getContact(ctx: Ctx, contactId: string) {
  return toDetails(await visibleContact(ctx, contactId));
}

export async function changeContactName(ctx: Ctx, contactId: string, overrideName: string) {
  await visibleContact(ctx, contactId);
  return saved(ctx, contactId, { overrideName: overrideName.trim() || null });
}

export async function changeContactTags(ctx: Ctx, contactId: string, tagIds: string[]) {
  await visibleContact(ctx, contactId);
  const unique = [...new Set(tagIds)];
  if (unique.length) {
    const found = await ctx.services.db
      .select({ id: tags.id })
      .from(tags)
      .where(and(eq(tags.accountId, ctx.user.accountId), eq(tags.filed, false), inArray(tags.id, unique)));
    if (found.length !== unique.length) throw new AppError(texts.tagNotFound);
  }
  return saved(ctx, contactId, { tags: unique });
}

export async function changeContactAnnotationsAndData(
  ctx: Ctx,
  p: { contact_id: string; data: Record<string, unknown>; new_annotation?: string },
) {
  const contact = await visibleContact(ctx, p.contact_id);
  const entries = Object.entries(p.data)
    .map(([k, v]) => [k.trim(), v] as const)
    .filter(([k]) => k !== '');
  // ' cpf' and 'cpf' are one variable once trimmed: refused as the dialog refuses it, never one silently lost.
  if (new Set(entries.map(([k]) => k)).size !== entries.length)
    throw new AppError(texts.contactVariableDuplicate);
  const data = Object.fromEntries(entries);
  const text = p.new_annotation?.trim();
  // Appended in SQL: concurrent saves each keep their annotation (a read-modify-write lost all but one).
  const note = { user: ctx.user.name, created: new Date().toISOString(), text };
  return saved(ctx, contact.id, {
    data,
    ...(text && {
      annotations: sql`${contacts.annotations} || jsonb_build_array(${JSON.stringify(note)}::jsonb)`,
    }),
  });
}

const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The contacts screen's filters as one condition, scoped to the caller's account. */
function filterWhere(ctx: Ctx, f: z.output<typeof contactFilter>): SQL {
  const parts: (SQL | undefined)[] = [reachableContacts(ctx.actor)];
  const text = f.query.trim();
  if (text) {
    const pattern = `%${likeEscape(text)}%`;
    const digits = text.replace(/\D/g, '');
    parts.push(
      or(
        ilike(contacts.name, pattern),
        ilike(contacts.overrideName, pattern),
        digits.length >= 2 && digits.length === text.replace(/[\s()+\-.]/g, '').length
          ? ilike(contacts.phone, `%${digits}%`)
          : undefined,
      ),
    );
  }
  if (f.tags.length)
    parts.push(
      sql`${contacts.tags} ?| array[${sql.join(
        f.tags.map((t) => sql`${t}`),
        sql`, `,
      )}]::text[]`,
    );
  if (f.created_from) parts.push(gte(contacts.createdAt, new Date(f.created_from)));
  if (f.created_to) parts.push(lte(contacts.createdAt, new Date(f.created_to)));
  return and(...parts) as SQL;
}

export async function listContacts(
  ctx: Ctx,
  p: z.output<typeof contactFilter> & { itemsPerPage: number; page: number },
) {
  const { db } = ctx.services;
  const where = filterWhere(ctx, p);
  const [rows, [count]] = await Promise.all([
    db
      .select()
      .from(contacts)
      .where(where)
      .orderBy(desc(contacts.createdAt), asc(contacts.name), asc(contacts.id))
      .limit(p.itemsPerPage)
      .offset((p.page - 1) * p.itemsPerPage),
    db.select({ n: sql<number>`count(*)::int` }).from(contacts).where(where),
  ]);
  return { data: rows.map(toContact), total: count?.n ?? 0 };
}

/** Ignore on or off (spec 2 §4): the inbound pipeline reads the flag on every message. */
export async function ignoreContact(ctx: Ctx, contactId: string, ignore: boolean) {
  await visibleContact(ctx, contactId);
  const details = await saved(ctx, contactId, { ignore });
  const { data: _data, annotations: _annotations, ...contact } = details;
  return contact;
}

/** 'Contato apagado': filed, so the phone may come back later as a new contact; its open conversations end. */
export async function deleteContact(ctx: Ctx, contactId: string) {
  await visibleContact(ctx, contactId);
  // Its conversations end and the contact is filed together: never a filed contact with one still open.
  // The contact first, as every writer does (contact, then its conversations: no deadlock).
  const finished = await ctx.services.db.transaction(async (tx) => {
    await contactsRepo.update(tx, ctx.actor, contactId, { filed: true });
    return finishContactConversations(ctx, contactId, tx);
  });
  announceFinished(ctx, finished);
  return { ok: true as const };
}

/** Contatos_<date>.xlsx of what the filters find; role user is refused (spec 2 §6). */
export async function exportContacts(ctx: Ctx, f: z.output<typeof contactFilter>) {
  assertMayExportContacts(ctx.actor);
  const { db } = ctx.services;
  const [rows, tagRows] = await Promise.all([
    db
      .select({
        name: contacts.name,
        overrideName: contacts.overrideName,
        phone: contacts.phone,
        tags: contacts.tags,
        data: contacts.data,
        ignore: contacts.ignore,
        createdAt: contacts.createdAt,
      })
      .from(contacts)
      .where(filterWhere(ctx, f))
      .orderBy(desc(contacts.createdAt), asc(contacts.name), asc(contacts.id)),
    db.select({ id: tags.id, name: tags.name }).from(tags).where(eq(tags.accountId, ctx.user.accountId)),
  ]);
  const tagNames = new Map(tagRows.map((t) => [t.id, t.name]));
  const zone = ctx.user.account.timeZone;
  const buffer = await writeContactsSheet(rows, tagNames, zone);
  const date = sheetDay(zone);
  return { file_name: `Contatos_${date}.xlsx`, content_base64: buffer.toString('base64') };
}

// Brazil's area codes (DDD): a 13-digit 55 + DDD + 9 + 8 digits is already the stored form of a mobile,
// which is what the analysis answers; checking it here spares the full parse for 100,000 rows.
const BRAZIL_DDD = new Set(
  '11 12 13 14 15 16 17 18 19 21 22 24 27 28 31 32 33 34 35 37 38 41 42 43 44 45 46 47 48 49 51 53 54 55 61 62 63 64 65 66 67 68 69 71 73 74 75 77 79 81 82 83 84 85 86 87 88 89 91 92 93 94 95 96 97 98 99'.split(
    ' ',
  ),
);
const canonicalMobile = (phone: string) => {
  const ddd = /^55([1-9][1-9])9[0-9]{8}$/.exec(phone)?.[1];
  return ddd !== undefined && BRAZIL_DDD.has(ddd);
};

/**
 * import-contacts: one batch of the analysed people, upserted by phone. A new contact takes its name from
 * the nome column; an existing one keeps its name and gains the sheet's variables over its own. Repeating
 * a batch (a retry) changes nothing more. `db`: a transaction of the caller's (an audience's import).
 */
export async function importContacts(
  ctx: Ctx,
  p: { people: ImportPerson[]; props: string[] },
  db: Db = ctx.services.db,
) {
  const props = new Set(p.props);
  const byPhone = new Map<string, Record<string, string>>();
  for (const person of p.people) {
    const phone = canonicalMobile(person.telefone) ? person.telefone : normalizePhone(`+${person.telefone}`);
    if (!phone) throw new AppError(`${texts.invalidPhone} (${person.telefone})`);
    const data: Record<string, string> = {};
    for (const [key, value] of Object.entries(person))
      if (key !== PHONE_COLUMN && props.has(key)) data[key] = value;
    byPhone.set(phone, { ...byPhone.get(phone), ...data });
  }
  const rows = [...byPhone].map(([phone, data]) => ({
    id: newId(),
    phone,
    name: (data.nome ?? '').trim().slice(0, 200),
    data,
  }));
  // One JSON parameter for the whole batch: binding thousands of parameters costs more than the upsert.
  const result = (await db.execute(sql`
    insert into ${contacts} (id, account_id, phone, name, data)
    select x.id, ${ctx.user.accountId}, x.phone, x.name, x.data
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(id text, phone text, name text, data jsonb)
    on conflict (account_id, phone) where filed = false do update set
      data = ${contacts}.data || excluded.data,
      name = case when ${contacts}.name = '' then excluded.name else ${contacts}.name end
    returning (xmax = 0) as inserted`)) as unknown as { rows: { inserted: boolean }[] };
  // xmax is 0 on a row this statement inserted, set on one it updated.
  const created = result.rows.filter((r) => r.inserted).length;
  return { created, updated: result.rows.length - created };
}
