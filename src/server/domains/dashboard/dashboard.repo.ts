// The dashboards' queries (README 'Dashboard numbers'). A conversation counts once, on the local day it was
// opened (created_at in the time zone), by who served it (serviceKindSql: shared/rules/service-kind.ts). An interval's bounds are local midnights: `day::timestamp at time zone
// tz`, so the indexes on created_at (conversations_account_created_idx, conversations_created_idx,
// messages_created_idx) serve every query. A row is put in its day by a binary search in the interval's
// midnights (width_bucket), not by converting each row's time to the zone (much slower over a year), and each
// aggregate is grouped in the database: few rows come back.
import { type SQL, sql } from 'drizzle-orm';
import type { ServiceKind } from '../../../shared/rules/service-kind';
import { type Actor, departmentCondition, type StaffActor } from '../../access';
import type { Db } from '../../db';
import { accounts, chips, contacts, conversations, departments, messages, tags } from '../../db/schema';

/** The actor's account's conversations of an interval, narrowed to a chip and to the actor's departments. */
export interface ConversationScope {
  actor: Actor;
  /** Local days 'YYYY-MM-DD', both included. */
  start: string;
  end: string;
  timeZone: string;
  chipId: string | null;
}

export interface ContactRow {
  id: string;
  name: string;
  override_name: string | null;
  phone: string;
  profile_picture: string | null;
}

/**
 * Who served the conversation, the one definition every dashboard counts by (shared/rules/service-kind.ts,
 * serviceKind): human when human_at is set (trigger conversations_human_at, migration 0025), else the
 * chatbot type.
 */
export const serviceKindSql = sql<ServiceKind>`(case when ${conversations.humanAt} is not null then 'human'
  when ${conversations.chatbotType} = 'chatbot' then 'ai_chatbot' else 'flow_chatbot' end)`;

type Rows<T> = { rows: T[] };
const rows = async <T>(db: Db, query: SQL) => ((await db.execute(query)) as unknown as Rows<T>).rows;

/** created_at within the interval's local days (the upper bound: the midnight after `end`). */
const within = (column: SQL | typeof conversations.createdAt, start: string, end: string, tz: string) =>
  sql`${column} >= (${start}::date)::timestamp at time zone ${tz} and ${column} < (${end}::date + 1)::timestamp at time zone ${tz}`;

/**
 * The interval's local midnights, from `start`'s to the one after `end` (days + 1 instants), as a one-row
 * table `b(bounds)`: width_bucket(created_at, b.bounds) is then the day's number, 1 for `start`.
 */
const midnights = (start: string, end: string, tz: string) =>
  sql`(select array_agg((d::date)::timestamp at time zone ${tz} order by d) as bounds
       from generate_series(${start}::date, ${end}::date + 1, interval '1 day') d)`;

/** Intervals up to this many days count tags by looking each conversation's contact up (tagCounts). */
const TAG_LOOKUP_MAX_DAYS = 31;

/** The actor's account, the chip asked for and the actor's departments (the access rule's condition). */
function openScope(s: Pick<ConversationScope, 'actor' | 'chipId'>) {
  const parts = [sql`${conversations.accountId} = ${s.actor.accountId}`];
  if (s.chipId) parts.push(sql`${conversations.chipId} = ${s.chipId}`);
  const departmentsSeen = departmentCondition(s.actor, conversations.departmentId);
  if (departmentsSeen) parts.push(departmentsSeen);
  return parts;
}

function scopeWhere(s: ConversationScope) {
  return sql.join([...openScope(s), within(conversations.createdAt, s.start, s.end, s.timeZone)], sql` and `);
}

export const dashboardRepo = {
  async chipOfAccount(db: Db, actor: Actor, chipId: string) {
    const [row] = await rows<{ id: string }>(
      db,
      sql`select ${chips.id} as id from ${chips} where ${chips.id} = ${chipId} and ${chips.accountId} = ${actor.accountId} limit 1`,
    );
    return row ?? null;
  },

  /** Conversations per day of the interval (1: the first), department id and who served them. */
  countsByDayAndDepartment: (db: Db, s: ConversationScope) =>
    rows<{ day: number; department: string | null; kind: ServiceKind; n: number }>(
      db,
      sql`select width_bucket(${conversations.createdAt}, b.bounds) as day,
                 ${conversations.departmentId} as department,
                 ${serviceKindSql} as kind, count(*)::int as n
          from ${conversations} cross join ${midnights(s.start, s.end, s.timeZone)} b
          where ${scopeWhere(s)}
          group by 1, 2, 3`,
    ),

  /** The account's department names by id (filed ones too: old conversations keep theirs). */
  departmentNames: (db: Db, actor: Actor) =>
    rows<{ id: string; name: string }>(
      db,
      sql`select ${departments.id} as id, ${departments.name} as name from ${departments}
          where ${departments.accountId} = ${actor.accountId}`,
    ),

  /**
   * Each tag of the contacts of the interval's conversations: one per conversation whose contact has it. Up to
   * a month, each conversation's contact is read by its key (a few thousand look-ups); beyond, the account's
   * tagged contacts are read once and joined by hash (EXPLAIN on a year of 100,000 conversations: the look-ups
   * cost several times the scan, while on a week the scan of every tagged contact costs 3 times the look-ups).
   */
  tagCounts: (db: Db, s: ConversationScope, days: number) =>
    rows<{ name: string; color: string; n: number }>(
      db,
      sql`select ${tags.name} as name, ${tags.color} as color, count(*)::int as n
          from ${conversations}
          ${
            days <= TAG_LOOKUP_MAX_DAYS
              ? // offset 0 keeps the look-up a nested loop (the planner would flatten it into the hash join).
                sql`cross join lateral (select ${contacts.tags} as tags from ${contacts}
                      where ${contacts.id} = ${conversations.contactId} and ${contacts.tags} <> '[]'::jsonb
                      offset 0) ct`
              : sql`join (select ${contacts.id} as id, ${contacts.tags} as tags from ${contacts}
                      where ${contacts.accountId} = ${s.actor.accountId} and ${contacts.tags} <> '[]'::jsonb) ct
                      on ct.id = ${conversations.contactId}`
          }
          cross join lateral jsonb_array_elements_text(ct.tags) as tag(id)
          join ${tags} on ${tags.id} = tag.id and ${tags.accountId} = ${s.actor.accountId} and ${tags.filed} = false
          where ${scopeWhere(s)}
          group by ${tags.id}, ${tags.name}, ${tags.color}
          order by n desc, name`,
    ),

  /**
   * The latest conversations of the interval, newest first (the index on account and created_at read
   * backwards, `limit` rows): the latest contacts are the first distinct ones among them.
   */
  latestConversations: (db: Db, s: ConversationScope, limit: number) =>
    rows<{ contact_id: string; created: string }>(
      db,
      sql`select ${conversations.contactId} as contact_id, to_json(${conversations.createdAt}) #>> '{}' as created
          from ${conversations} where ${scopeWhere(s)}
          order by ${conversations.createdAt} desc limit ${limit}`,
    ),

  /** When a few contacts hold all those conversations: every contact's latest of the interval, grouped. */
  latestPerContact: (db: Db, s: ConversationScope, limit: number) =>
    rows<{ contact_id: string; created: string }>(
      db,
      sql`select ${conversations.contactId} as contact_id,
                 to_json(max(${conversations.createdAt})) #>> '{}' as created
          from ${conversations} where ${scopeWhere(s)}
          group by 1 order by max(${conversations.createdAt}) desc limit ${limit}`,
    ),

  contactsByIds: (db: Db, actor: Actor, ids: string[]) =>
    ids.length
      ? rows<ContactRow>(
          db,
          sql`select ${contacts.id} as id, ${contacts.name} as name, ${contacts.overrideName} as override_name,
                     ${contacts.phone} as phone, ${contacts.profilePicture} as profile_picture
              from ${contacts}
              where ${contacts.accountId} = ${actor.accountId}
                and ${contacts.id} in (${sql.join(
                  ids.map((id) => sql`${id}`),
                  sql`, `,
                )})`,
        )
      : Promise.resolve([] as ContactRow[]),

  /** The open conversations now (finished_at null), for the real-time cards: human by serviceKindSql. */
  async openCounts(db: Db, s: Pick<ConversationScope, 'actor' | 'chipId'>) {
    const parts = [...openScope(s), sql`${conversations.finishedAt} is null`];
    const [row] = await rows<{ all: number; waiting: number; manual: number }>(
      db,
      sql`select count(*)::int as all,
                 (count(*) filter (where ${conversations.waitingResponse}))::int as waiting,
                 (count(*) filter (where ${serviceKindSql} = 'human'))::int as manual
          from ${conversations} where ${sql.join(parts, sql` and `)}`,
    );
    return row ?? { all: 0, waiting: 0, manual: 0 };
  },

  // The platform's numbers cross every account: the StaffActor argument is the proof that the caller is platform
  // staff (staffActor refuses anyone else).

  /** Every account's conversations per day of the interval (1: the first) and kind. */
  adminConversations: (db: Db, _staff: StaffActor, start: string, end: string, tz: string) =>
    rows<{ day: number; kind: ServiceKind; n: number }>(
      db,
      sql`select width_bucket(${conversations.createdAt}, b.bounds) as day,
                 ${serviceKindSql} as kind,
                 count(*)::int as n
          from ${conversations} cross join ${midnights(start, end, tz)} b
          where ${within(conversations.createdAt, start, end, tz)}
          group by 1, 2`,
    ),

  /** Every account's messages per day of the interval (1: the first) and origin (user, chatbot, customer). */
  adminMessages: (db: Db, _staff: StaffActor, start: string, end: string, tz: string) =>
    rows<{ day: number; origin: string; n: number }>(
      db,
      sql`select width_bucket(${messages.createdAt}, b.bounds) as day, ${messages.origin} as origin,
                 count(*)::int as n
          from ${messages} cross join ${midnights(start, end, tz)} b
          where ${within(sql`${messages.createdAt}`, start, end, tz)}
          group by 1, 2`,
    ),

  /**
   * The platform now: accounts whose subscription is active or on trial, and every chip that is not filed by
   * status (the connected ones are status open).
   */
  async platformNow(db: Db, _staff: StaffActor) {
    const [active] = await rows<{ n: number }>(
      db,
      sql`select count(*)::int as n from ${accounts} where ${accounts.subscriptionStatus} in ('active', 'trial')`,
    );
    const byStatus = await rows<{ status: string; n: number }>(
      db,
      sql`select ${chips.status} as status, count(*)::int as n from ${chips}
          where ${chips.filed} = false group by 1`,
    );
    return { accountsActive: active?.n ?? 0, chipsByStatus: byStatus };
  },
};
