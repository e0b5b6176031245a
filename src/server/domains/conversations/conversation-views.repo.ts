// The one select of conversations as the app shows them (with their contact, last message, its chip's
// follow-up setting and holder): for a load, the service screen's list and the catch-up. Rows only; present.ts
// shapes them for the contract.
import { and, asc, desc, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AutoFollowUpSetting } from '../../../shared/rules/follow-up';
import { type Actor, departmentCondition } from '../../access';
import type { Db } from '../../db';
import { contacts, conversations, followUpSettings, messages, users } from '../../db/schema';
import { hasAnyTag } from '../contacts/contacts.repo';

export type MessageRow = typeof messages.$inferSelect;
export type ContactRow = typeof contacts.$inferSelect;
export type ConversationRow = typeof conversations.$inferSelect;

/** A conversation row with what its view needs (conversationView in present.ts shapes it). */
export interface ConversationViewRow {
  conversation: ConversationRow;
  contact: ContactRow;
  last: MessageRow | null;
  followUp: AutoFollowUpSetting | null;
  assignee: string | null;
}

/**
 * Its chip's automatic follow-up setting (enabled and types), or null when none is saved: a column to add to a
 * select of conversations, handed to toConversation for `follow_up_applies`.
 */
const chipFollowUp = sql<AutoFollowUpSetting | null>`(select json_build_object('enabled', ${followUpSettings.enabled}, 'types', ${followUpSettings.types}) from ${followUpSettings} where ${followUpSettings.chipId} = ${conversations.chipId})`;

/** The name of who holds it under equal distribution: a column to add to a select of conversations. */
const assigneeName = sql<
  string | null
>`(select ${users.name} from ${users} where ${users.id} = ${conversations.assignedUserId})`;

const lastMessage = alias(messages, 'last_message');

/** `at`: the column the catch-up pages by (null for the others). */
function selectConversationViews<T = null>(db: Db, at: SQL<T> = sql<T>`null`) {
  return db
    .select({
      conversation: conversations,
      contact: contacts,
      last: lastMessage,
      followUp: chipFollowUp,
      assignee: assigneeName,
      at,
    })
    .from(conversations)
    .innerJoin(contacts, eq(contacts.id, conversations.contactId))
    .leftJoin(lastMessage, eq(lastMessage.id, conversations.lastMessageId));
}

const activity = sql`coalesce(${conversations.lastMessageAt}, ${conversations.createdAt})`;
// The cursor comes back as a JS date (milliseconds) while PostgreSQL keeps microseconds: the list sorts and
// pages on the millisecond, or a conversation between the cursor and its true time would be skipped.
const activityMs = sql`date_trunc('milliseconds', ${activity})`;

/** The service screen's list filter, as the service has read it. */
export interface OpenListFilter {
  /** null: every department of the account (the actor's own scope applied already by narrowDepartments). */
  departmentIds: string[] | null;
  waitingResponse: boolean;
  /** null: both kinds. */
  manual: boolean | null;
  chips: string[];
  assignedUser: string | null;
  tags: string[];
  text: string;
  digits: string;
  after: { at: Date; id: string } | null;
  limit: number;
}

export const conversationViewsRepo = {
  /**
   * Conversations by id, as the app shows them (those not found are left out). The ids come from rows the
   * caller already reached in its scope (a visible conversation, a job's own row).
   */
  byIds(db: Db, ids: string[]): Promise<ConversationViewRow[]> {
    return selectConversationViews(db).where(
      ids.length === 1 ? eq(conversations.id, ids[0] as string) : inArray(conversations.id, ids),
    );
  },

  /** Open conversations of the actor's account the filter picks, newest activity first, a page at a time. */
  listOpen(db: Db, actor: Actor, f: OpenListFilter): Promise<ConversationViewRow[]> {
    const like = `%${f.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return selectConversationViews(db)
      .where(
        and(
          eq(conversations.accountId, actor.accountId),
          isNull(conversations.finishedAt),
          f.departmentIds ? inArray(conversations.departmentId, f.departmentIds) : undefined,
          f.waitingResponse ? eq(conversations.waitingResponse, true) : undefined,
          f.manual !== null ? eq(conversations.isManual, f.manual) : undefined,
          f.chips.length ? inArray(conversations.chipId, f.chips) : undefined,
          f.assignedUser ? eq(conversations.assignedUserId, f.assignedUser) : undefined,
          f.tags.length ? hasAnyTag(f.tags) : undefined,
          f.text
            ? or(
                sql`${contacts.name} ilike ${like}`,
                sql`${contacts.overrideName} ilike ${like}`,
                f.digits.length >= 3 ? sql`${contacts.phone} like ${`%${f.digits}%`}` : undefined,
              )
            : undefined,
          f.after ? sql`(${activityMs}, ${conversations.id}) < (${f.after.at}, ${f.after.id})` : undefined,
        ),
      )
      .orderBy(desc(activityMs), desc(conversations.id))
      .limit(f.limit + 1);
  },
};

/** A position in one of the catch-up's streams: ISO with microseconds (UTC) and the id. */
export interface StreamPosition {
  at: string;
  id: string;
}

const isoUs = (column: unknown) =>
  sql<string>`to_char((${column}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
const after = (at: unknown, idColumn: unknown, p: StreamPosition) =>
  sql`(${at}, ${idColumn}) > (${p.at}::timestamptz, ${p.id})`;

/** The catch-up's reads (changes.ts): each stream ordered by (updated_at, id) on the database's clock. */
export const changesRepo = {
  /** The database's clock less `overlapMs` (the cursor's position now) and less `maxAgeMs` (the oldest). */
  async clock(db: Db, overlapMs: number, maxAgeMs: number) {
    const result = (await db.execute(
      sql`select ${isoUs(sql`clock_timestamp() - ${`${overlapMs} milliseconds`}::interval`)} as now,
               ${isoUs(sql`clock_timestamp() - ${`${maxAgeMs} milliseconds`}::interval`)} as oldest`,
    )) as unknown as { rows: { now: string; oldest: string }[] };
    return result.rows[0];
  },

  /** The account's conversations changed after `since` (every department: the caller tells who sees which). */
  conversations(db: Db, actor: Actor, since: StreamPosition, limit: number) {
    return selectConversationViews(db, isoUs(conversations.updatedAt))
      .where(
        and(
          eq(conversations.accountId, actor.accountId),
          after(conversations.updatedAt, conversations.id, since),
        ),
      )
      .orderBy(asc(conversations.updatedAt), asc(conversations.id))
      .limit(limit);
  },

  /** The messages changed after `since`; attendants only those of their departments' conversations. */
  messages(db: Db, actor: Actor, since: StreamPosition, limit: number) {
    return db
      .select({ message: messages, at: isoUs(messages.updatedAt) })
      .from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .where(
        and(
          eq(messages.accountId, actor.accountId),
          after(messages.updatedAt, messages.id, since),
          departmentCondition(actor, conversations.departmentId),
        ),
      )
      .orderBy(asc(messages.updatedAt), asc(messages.id))
      .limit(limit);
  },
};
