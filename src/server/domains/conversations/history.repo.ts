// The reads of a new conversation (spec 2 §5: the contacts to pick, the official numbers' templates) and of
// the finished-conversations list (spec 2 §2.2), as the actor reaches them: its account, and for attendants
// the contacts and conversations of their departments.
import { and, asc, count, desc, eq, ilike, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type Actor, actorSeesDepartment, contactReachCondition } from '../../access';
import type { Db } from '../../db';
import { chips, contacts, conversations, messages } from '../../db/schema';
import { hasAnyTag } from '../contacts/contacts.repo';

const likeOf = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function contactMatch(text: string) {
  const digits = text.replace(/\D/g, '');
  return or(
    ilike(contacts.name, likeOf(text)),
    ilike(contacts.overrideName, likeOf(text)),
    digits.length >= 3 ? sql`${contacts.phone} like ${`%${digits}%`}` : undefined,
  );
}

const lastMessage = alias(messages, 'last_message');
const endedAt = sql`coalesce(${conversations.finishedAt}, ${conversations.lastMessageAt}, ${conversations.createdAt})`;

/** The history list's filter, as the service has read it. */
export interface HistoryFilter {
  /** null: every department of the account (the actor's own scope applied already by narrowDepartments). */
  departmentIds: string[] | null;
  /** null: both kinds. */
  manual: boolean | null;
  finished: boolean | undefined;
  tags: string[];
  text: string;
  page: number;
  itemsPerPage: number;
}

export const historyRepo = {
  /** A page of the contacts the actor may reach that match `text` (every one when empty), and their total. */
  async contactsPage(db: Db, actor: Actor, text: string, page: number, itemsPerPage: number) {
    const where = and(
      eq(contacts.accountId, actor.accountId),
      eq(contacts.filed, false),
      contactReachCondition(actor),
      text ? contactMatch(text) : undefined,
    );
    const [rows, [total]] = await Promise.all([
      db
        .select()
        .from(contacts)
        .where(where)
        .orderBy(asc(sql`lower(coalesce(${contacts.overrideName}, ${contacts.name}))`), asc(contacts.id))
        .limit(itemsPerPage)
        .offset((page - 1) * itemsPerPage),
      db.select({ n: count() }).from(contacts).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  },

  /** A contact of the account the actor may reach (not deleted), or undefined. */
  async reachableContact(db: Db, actor: Actor, contactId: string) {
    const [contact] = await db
      .select()
      .from(contacts)
      .where(
        and(
          eq(contacts.id, contactId),
          eq(contacts.accountId, actor.accountId),
          eq(contacts.filed, false),
          contactReachCondition(actor),
        ),
      )
      .limit(1);
    return contact;
  },

  /** The first official number of that WABA the actor may use, or undefined. */
  async officialChipOfWaba(db: Db, actor: Actor, waba: string) {
    const rows = await db
      .select()
      .from(chips)
      .where(
        and(
          eq(chips.accountId, actor.accountId),
          eq(chips.waba, waba),
          eq(chips.official, true),
          eq(chips.filed, false),
        ),
      );
    return rows.find((c) => actorSeesDepartment(actor, c.departmentId));
  },

  /** A page of the account's conversations the filter picks, the last ended first, and their total. */
  async page(db: Db, actor: Actor, f: HistoryFilter) {
    const where = and(
      eq(conversations.accountId, actor.accountId),
      f.departmentIds ? inArray(conversations.departmentId, f.departmentIds) : undefined,
      f.manual !== null ? eq(conversations.isManual, f.manual) : undefined,
      f.finished === true ? isNotNull(conversations.finishedAt) : undefined,
      f.finished === false ? isNull(conversations.finishedAt) : undefined,
      f.tags.length ? hasAnyTag(f.tags) : undefined,
      f.text ? contactMatch(f.text) : undefined,
    );
    const [rows, [total]] = await Promise.all([
      db
        .select({ conversation: conversations, contact: contacts, last: lastMessage, chip: chips })
        .from(conversations)
        .innerJoin(contacts, eq(contacts.id, conversations.contactId))
        .innerJoin(chips, eq(chips.id, conversations.chipId))
        .leftJoin(lastMessage, eq(lastMessage.id, conversations.lastMessageId))
        .where(where)
        .orderBy(desc(endedAt), desc(conversations.id))
        .limit(f.itemsPerPage)
        .offset((f.page - 1) * f.itemsPerPage),
      db
        .select({ n: count() })
        .from(conversations)
        .innerJoin(contacts, eq(contacts.id, conversations.contactId))
        .where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  },
};
