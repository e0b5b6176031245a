// Contacts (spec 2 §2.1, §3, §7): the contacts screen's list, ignore and delete, the drawer and the quick
// edits. Owners and managers reach every contact of the account; attendants those with a conversation in
// their departments and those nobody has talked to yet (attendantReach). A change is announced as
// conversation_updated for the contact's open conversations, so every list shows it.
import type { z } from 'zod';
import type { ContactDetails, contactFilter, ImportPerson } from '../../../shared/contract/contacts';
import { newId } from '../../../shared/ids';
import { messages as texts } from '../../../shared/messages';
import { normalizePhone } from '../../../shared/phone';
import { type Actor, assertMayExportContacts, type UserActor } from '../../access';
import type { Db } from '../../db';
import { AppError } from '../../http/errors';
import type { Services } from '../../services';
import { announceFinished, finishContactConversations } from '../conversations/conversation-actions';
import { loadConversation, toContact } from '../conversations/present';
import { tagsRepo } from '../tags/tags.repo';
import { annotationAppended, type ContactChange, type ContactRow, contactsRepo } from './contacts.repo';
import { PHONE_COLUMN, sheetDay, writeContactsSheet } from './contacts-sheet';

const toDetails = (c: ContactRow): ContactDetails => ({
  ...toContact(c),
  data: c.data,
  annotations: c.annotations,
});

async function visibleContact(services: Services, actor: Actor, contactId: string): Promise<ContactRow> {
  const row = await contactsRepo.visible(services.db, actor, contactId);
  if (!row) throw new AppError(texts.notFound);
  return row;
}

async function saved(services: Services, actor: Actor, contactId: string, set: ContactChange) {
  const { db, realtime } = services;
  // The contact and its open conversations' change mark move together (the catch-up's get-changes-since).
  const { row, open } = await db.transaction(async (tx) => {
    const row = await contactsRepo.update(tx, actor, contactId, set);
    if (!row) throw new AppError(texts.notFound);
    const open = await contactsRepo.touchOpenConversations(tx, actor, contactId);
    return { row, open };
  });
  // The contact shows in its open conversations: they changed too.
  for (const { id } of open) {
    const view = await loadConversation(db, id);
    if (view)
      realtime.toConversation(actor.accountId, view.department, {
        type: 'conversation_updated',
        message: view,
      });
  }
  return toDetails(row);
}

export async function getContact(services: Services, actor: Actor, contactId: string) {
  return toDetails(await visibleContact(services, actor, contactId));
}

export async function changeContactName(
  services: Services,
  actor: Actor,
  contactId: string,
  overrideName: string,
) {
  await visibleContact(services, actor, contactId);
  return saved(services, actor, contactId, { overrideName: overrideName.trim() || null });
}

export async function changeContactTags(
  services: Services,
  actor: Actor,
  contactId: string,
  tagIds: string[],
) {
  await visibleContact(services, actor, contactId);
  const unique = [...new Set(tagIds)];
  if ((await tagsRepo.countActive(services.db, actor, unique)) !== unique.length)
    throw new AppError(texts.tagNotFound);
  return saved(services, actor, contactId, { tags: unique });
}

export async function changeContactAnnotationsAndData(
  services: Services,
  actor: UserActor,
  p: { contact_id: string; data: Record<string, unknown>; new_annotation?: string },
) {
  const contact = await visibleContact(services, actor, p.contact_id);
  const entries = Object.entries(p.data)
    .map(([k, v]) => [k.trim(), v] as const)
    .filter(([k]) => k !== '');
  // ' cpf' and 'cpf' are one variable once trimmed: refused as the dialog refuses it, never one silently lost.
  if (new Set(entries.map(([k]) => k)).size !== entries.length)
    throw new AppError(texts.contactVariableDuplicate);
  const data = Object.fromEntries(entries);
  const text = p.new_annotation?.trim();
  // Appended in SQL: concurrent saves each keep their annotation (a read-modify-write lost all but one).
  const note = { user: actor.user.name, created: new Date().toISOString(), text };
  return saved(services, actor, contact.id, {
    data,
    ...(text && {
      annotations: annotationAppended(note),
    }),
  });
}

export async function listContacts(
  services: Services,
  actor: Actor,
  p: z.output<typeof contactFilter> & { itemsPerPage: number; page: number },
) {
  const { rows, total } = await contactsRepo.page(
    services.db,
    actor,
    p,
    p.itemsPerPage,
    (p.page - 1) * p.itemsPerPage,
  );
  return { data: rows.map(toContact), total };
}

/** Ignore on or off (spec 2 §4): the inbound pipeline reads the flag on every message. */
export async function ignoreContact(services: Services, actor: Actor, contactId: string, ignore: boolean) {
  await visibleContact(services, actor, contactId);
  const details = await saved(services, actor, contactId, { ignore });
  const { data: _data, annotations: _annotations, ...contact } = details;
  return contact;
}

/** 'Contato apagado': filed, so the phone may come back later as a new contact; its open conversations end. */
export async function deleteContact(services: Services, actor: UserActor, contactId: string) {
  await visibleContact(services, actor, contactId);
  // Its conversations end and the contact is filed together: never a filed contact with one still open.
  // The contact first, as every writer does (contact, then its conversations: no deadlock).
  const finished = await services.db.transaction(async (tx) => {
    await contactsRepo.update(tx, actor, contactId, { filed: true });
    return finishContactConversations(actor, contactId, tx);
  });
  announceFinished(services, actor, finished);
  return { ok: true as const };
}

/** Contatos_<date>.xlsx of what the filters find; role user is refused (spec 2 §6). */
export async function exportContacts(
  services: Services,
  actor: UserActor,
  f: z.output<typeof contactFilter>,
) {
  assertMayExportContacts(actor);
  const { db } = services;
  const [rows, tagNames] = await Promise.all([
    contactsRepo.forSheet(db, actor, f),
    tagsRepo.names(db, actor),
  ]);
  const zone = actor.user.account.timeZone;
  const buffer = await writeContactsSheet(rows, tagNames, zone);
  const date = sheetDay(zone);
  return { file_name: texts.contactsSheetFileName(date), content_base64: buffer.toString('base64') };
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
export async function importContacts(db: Db, actor: Actor, p: { people: ImportPerson[]; props: string[] }) {
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
  return contactsRepo.importBatch(db, actor, rows);
}
