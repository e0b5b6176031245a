// A conversation the team starts (new conversation, a scheduled message): the contact by phone, made when
// new, and its open conversation on the chip, made when none is open. Safe to repeat and to race: the
// contact and open-conversation unique indexes let one insert win and the other finds it.
import { and, eq, isNull, type Placeholder, sql } from 'drizzle-orm';
import { OFFICIAL_CHANNEL_TYPE } from '../../../shared/constants';
import { newId } from '../../../shared/ids';
import type { ChipRow } from '../../channels/adapter';
import type { Db } from '../../db';
import { insertOnce } from '../../db/insert-once';
import { prepared } from '../../db/prepared';
import { contacts, conversations } from '../../db/schema';

export async function contactByPhone(
  db: Db,
  accountId: string,
  phone: string,
  channelContactId?: string | null,
) {
  // Read first: the upsert below writes a new row version even when nothing changes (a scheduled batch to
  // known customers would rewrite each of them).
  const [known] = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.accountId, accountId), eq(contacts.phone, phone), eq(contacts.filed, false)))
    .limit(1);
  if (known && (known.channelContactId || !channelContactId)) return known;
  const [row] = await db
    .insert(contacts)
    .values({ id: newId(), accountId, phone, name: '', channelContactId: channelContactId ?? null })
    .onConflictDoUpdate({
      target: [contacts.accountId, contacts.phone],
      targetWhere: sql`${contacts.filed} = false`,
      set: { channelContactId: sql`coalesce(${contacts.channelContactId}, excluded.channel_contact_id)` },
    })
    .returning();
  if (!row) throw new Error('contact upsert returned nothing');
  return row;
}

/** The contact's open conversation on the chip, if any. */
const openOn = (chipId: string | Placeholder, contactId: string | Placeholder) =>
  and(
    eq(conversations.chipId, chipId),
    eq(conversations.contactId, contactId),
    isNull(conversations.finishedAt),
  );

export async function findOpenConversation(db: Db, chipId: string, contactId: string) {
  const [row] = await prepared(db, 'open_conversation', (d) =>
    d
      .select()
      .from(conversations)
      .where(openOn(sql.placeholder('chip'), sql.placeholder('contact')))
      .limit(1)
      .prepare('open_conversation'),
  ).execute({ chip: chipId, contact: contactId });
  return row;
}

/**
 * The contact's open conversation on the chip, or a new one with `values` (who serves it); `created` says
 * which. Two at once (two first messages, or a message and a team start): the open-conversation index lets
 * one insert win; the other finds it.
 */
export async function findOrOpenConversation(
  db: Db,
  chip: ChipRow,
  contactId: string,
  values: Pick<typeof conversations.$inferInsert, 'departmentId' | 'isManual'> &
    Partial<typeof conversations.$inferInsert>,
) {
  const found = await findOpenConversation(db, chip.id, contactId);
  if (found) return { conversation: found, created: false };
  const opened = await insertOnce(
    db,
    conversations,
    {
      ...values,
      id: newId(),
      accountId: chip.accountId,
      chipId: chip.id,
      contactId,
      isNew: true,
      channelType: chip.official ? OFFICIAL_CHANNEL_TYPE : null,
    },
    openOn(chip.id, contactId),
  );
  if (!opened) throw new Error('open conversation vanished');
  return { conversation: opened.row, created: opened.created };
}

/** The contact's open conversation on the chip, or a new human one in `departmentId`; `created` says which. */
export const openTeamConversation = (db: Db, chip: ChipRow, contactId: string, departmentId: string | null) =>
  findOrOpenConversation(db, chip, contactId, { departmentId, isManual: true });
