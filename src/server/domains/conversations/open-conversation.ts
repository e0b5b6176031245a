// A conversation the team starts (new conversation, a scheduled message): the contact by phone, made when
// new, and its open conversation on the chip, made when none is open. Safe to repeat and to race: the
// contact and open-conversation unique indexes let one insert win and the other finds it.
import { systemActor } from '../../access';
import type { ChipRow } from '../../channels/adapter';
import type { Db } from '../../db';
import { conversationsRepo, type OpeningValues } from './conversations.repo';

export async function contactByPhone(
  db: Db,
  accountId: string,
  phone: string,
  channelContactId?: string | null,
) {
  const actor = systemActor(accountId, 'open-conversation');
  // Read first: the upsert below writes a new row version even when nothing changes (a scheduled batch to
  // known customers would rewrite each of them).
  const known = await conversationsRepo.contactOfPhone(db, actor, phone);
  if (known && (known.channelContactId || !channelContactId)) return known;
  return conversationsRepo.upsertContact(db, actor, phone, channelContactId ?? null);
}

/** The contact's open conversation on the chip, if any. */
export const findOpenConversation = (db: Db, chipId: string, contactId: string) =>
  conversationsRepo.openConversation(db, chipId, contactId);

/**
 * The contact's open conversation on the chip, or a new one with `values` (who serves it); `created` says
 * which. Two at once (two first messages, or a message and a team start): the open-conversation index lets
 * one insert win; the other finds it.
 */
export async function findOrOpenConversation(
  db: Db,
  chip: ChipRow,
  contactId: string,
  values: OpeningValues,
) {
  const found = await findOpenConversation(db, chip.id, contactId);
  if (found) return { conversation: found, created: false };
  const opened = await conversationsRepo.insertOpen(db, chip, contactId, values);
  return { conversation: opened.row, created: opened.created };
}

/** The contact's open conversation on the chip, or a new human one in `departmentId`; `created` says which. */
export const openTeamConversation = (db: Db, chip: ChipRow, contactId: string, departmentId: string | null) =>
  findOrOpenConversation(db, chip, contactId, { departmentId, isManual: true });
