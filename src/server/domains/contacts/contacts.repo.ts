// Contacts as an actor reaches them: its account, and for attendants the contacts of their departments'
// conversations and those nobody has talked to yet (the access rule's contactReachCondition).
import { and, asc, desc, eq, gte, ilike, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { contactFilter } from '../../../shared/contract/contacts';
import { type Actor, contactReachCondition } from '../../access';
import type { Db } from '../../db';
import { contacts, conversations } from '../../db/schema';

export type ContactRow = typeof contacts.$inferSelect;
type Insert = typeof contacts.$inferInsert;
/** A contact's change, as columns or SQL on the current row (an append must not read and write back). */
export type ContactChange = { [K in keyof Insert]?: Insert[K] | SQL };

/** The contacts the actor reaches, not deleted. */
export const reachableContacts = (actor: Actor): SQL =>
  and(
    eq(contacts.accountId, actor.accountId),
    eq(contacts.filed, false),
    contactReachCondition(actor),
  ) as SQL;

type ContactFilter = z.output<typeof contactFilter>;

// A contact's tags and variables changed in SQL, from the row's current value: a concurrent change to the
// other tags (or variables) is kept. Used by the flow engine's tag steps and by the integrations.
/** The contacts.tags value after adding or removing `ids` (each tag once). */
export function tagsAfter(change: 'add' | 'remove', ids: readonly string[]) {
  const list = JSON.stringify(ids);
  return change === 'add'
    ? sql`(select coalesce(jsonb_agg(distinct t), '[]'::jsonb) from jsonb_array_elements(${contacts.tags} || ${list}::jsonb) t)`
    : sql`(select coalesce(jsonb_agg(t), '[]'::jsonb) from jsonb_array_elements(${contacts.tags}) t where not (${list}::jsonb @> jsonb_build_array(t)))`;
}

/** The contacts.data value with `data` merged in (its keys replace the same keys). */
export const dataAfter = (data: Readonly<Record<string, unknown>>) =>
  sql`${contacts.data} || ${JSON.stringify(data)}::jsonb`;

/** The change that appends a note to the contact's annotations in SQL: concurrent saves each keep theirs. */
export const annotationAppended = (note: { user: string; created: string; text: string | undefined }) =>
  sql`${contacts.annotations} || jsonb_build_array(${JSON.stringify(note)}::jsonb)`;

/** 'The contact has one of these tags' on contacts.tags (jsonb): false for no tags. */
export function hasAnyTag(ids: readonly string[]): SQL {
  if (!ids.length) return sql`false`;
  return sql`${contacts.tags} ?| array[${sql.join(
    ids.map((t) => sql`${t}`),
    sql`, `,
  )}]::text[]`;
}

const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The contacts screen's filters as one condition, within what the actor reaches. */
function filterWhere(actor: Actor, f: ContactFilter): SQL {
  const parts: (SQL | undefined)[] = [reachableContacts(actor)];
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
  if (f.tags.length) parts.push(hasAnyTag(f.tags));
  if (f.created_from) parts.push(gte(contacts.createdAt, new Date(f.created_from)));
  if (f.created_to) parts.push(lte(contacts.createdAt, new Date(f.created_to)));
  return and(...parts) as SQL;
}

const newestFirst = [desc(contacts.createdAt), asc(contacts.name), asc(contacts.id)];

/** One contact of an import batch, upserted by phone. */
export interface ImportedContact {
  id: string;
  phone: string;
  name: string;
  data: Record<string, string>;
}

export const contactsRepo = {
  async visible(db: Db, actor: Actor, contactId: string): Promise<ContactRow | null> {
    const [row] = await db
      .select()
      .from(contacts)
      .where(and(eq(contacts.id, contactId), reachableContacts(actor)))
      .limit(1);
    return row ?? null;
  },
  /** Changes a contact of the actor's account; null when there is none with that id. */
  async update(db: Db, actor: Actor, contactId: string, set: ContactChange) {
    const [row] = await db
      .update(contacts)
      .set(set)
      .where(and(eq(contacts.id, contactId), eq(contacts.accountId, actor.accountId)))
      .returning();
    return row ?? null;
  },
  /** Marks the contact's open conversations changed (the catch-up's get-changes-since); answers their ids. */
  async touchOpenConversations(db: Db, actor: Actor, contactId: string) {
    return db
      .update(conversations)
      .set({ updatedAt: sql`now()` })
      .where(
        and(
          eq(conversations.accountId, actor.accountId),
          eq(conversations.contactId, contactId),
          isNull(conversations.finishedAt),
        ),
      )
      .returning({ id: conversations.id });
  },

  /** One page of what the filters find, newest first, with the count of all. */
  async page(db: Db, actor: Actor, f: ContactFilter, limit: number, offset: number) {
    const where = filterWhere(actor, f);
    const [rows, [count]] = await Promise.all([
      db
        .select()
        .from(contacts)
        .where(where)
        .orderBy(...newestFirst)
        .limit(limit)
        .offset(offset),
      db.select({ n: sql<number>`count(*)::int` }).from(contacts).where(where),
    ]);
    return { rows, total: count?.n ?? 0 };
  },

  /** Every contact the filters find, with the columns of the exported sheet. */
  async forSheet(db: Db, actor: Actor, f: ContactFilter) {
    return db
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
      .where(filterWhere(actor, f))
      .orderBy(...newestFirst);
  },

  /**
   * Upserts a batch by phone: a new contact takes its name, an existing one keeps a name it has and gains the
   * batch's variables over its own. Answers how many were created. One JSON parameter for the whole batch:
   * binding thousands of parameters costs more than the upsert.
   */
  async importBatch(db: Db, actor: Actor, rows: ImportedContact[]) {
    const result = (await db.execute(sql`
      insert into ${contacts} (id, account_id, phone, name, data)
      select x.id, ${actor.accountId}, x.phone, x.name, x.data
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(id text, phone text, name text, data jsonb)
      on conflict (account_id, phone) where filed = false do update set
        data = ${contacts}.data || excluded.data,
        name = case when ${contacts}.name = '' then excluded.name else ${contacts}.name end
      returning (xmax = 0) as inserted`)) as unknown as { rows: { inserted: boolean }[] };
    // xmax is 0 on a row this statement inserted, set on one it updated.
    const created = result.rows.filter((r) => r.inserted).length;
    return { created, updated: result.rows.length - created };
  },
};
