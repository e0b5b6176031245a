// The catch-up after a reconnect (offline issue §3): what changed for the caller since a cursor. The cursor is
// a position in two streams, conversations and messages, each ordered by (updated_at, id) on the database's
// clock: a page goes on exactly where the last one stopped, even through a bulk finish that gave thousands of
// rows the same time. The last page's cursor steps back OVERLAP_MS, so a change whose transaction committed
// after it was read comes again next time instead of never (the app merges by id).
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Conversation, Message } from '../../../shared/contract/conversations';
import { actorSeesDepartment, departmentCondition } from '../../access';
import { conversations, messages } from '../../db/schema';
import type { SignedInContext } from '../../http/context';
import { conversationView, selectConversationViews, toMessage } from './present';

type Ctx = SignedInContext;

/** How far back a cursor may go: older, the app reloads its lists (cheaper than a week of changes). */
export const CHANGES_MAX_AGE_MS = 3 * 24 * 60 * 60 * 1000;
export const OVERLAP_MS = 10_000;

interface Position {
  /** ISO with microseconds, UTC: PostgreSQL's precision, so a position never repeats or skips a row. */
  at: string;
  id: string;
}
interface Cursor {
  conversations: Position;
  messages: Position;
}

const VERSION = '1';
const ISO_US = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const ID = /^([0-9A-Z]{28})?$/;

export const encodeCursor = (c: Cursor) =>
  [VERSION, c.conversations.at, c.conversations.id, c.messages.at, c.messages.id].join('|');

/** The cursor, or null when it is not one this server wrote. */
export function decodeCursor(text: string | undefined): Cursor | null {
  const parts = text?.split('|');
  if (parts?.length !== 5 || parts[0] !== VERSION) return null;
  const [, cAt = '', cId = '', mAt = '', mId = ''] = parts;
  for (const at of [cAt, mAt]) if (!ISO_US.test(at) || Number.isNaN(Date.parse(at))) return null;
  if (!ID.test(cId) || !ID.test(mId)) return null;
  return { conversations: { at: cAt, id: cId }, messages: { at: mAt, id: mId } };
}

const isoUs = (column: unknown) =>
  sql<string>`to_char((${column}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
const after = (at: unknown, idColumn: unknown, p: Position) =>
  sql`(${at}, ${idColumn}) > (${p.at}::timestamptz, ${p.id})`;

export async function changesSince(ctx: Ctx, p: { cursor?: string; limit: number }) {
  const { db } = ctx.services;
  const { user } = ctx;
  // The database's clock, as every updated_at is: no device and no server process clock in between.
  const result = (await db.execute(
    sql`select ${isoUs(sql`clock_timestamp() - ${`${OVERLAP_MS} milliseconds`}::interval`)} as now,
               ${isoUs(sql`clock_timestamp() - ${`${CHANGES_MAX_AGE_MS} milliseconds`}::interval`)} as oldest`,
  )) as unknown as { rows: { now: string; oldest: string }[] };
  const [clock] = result.rows;
  if (!clock) throw new Error('no clock');
  const fresh = encodeCursor({
    conversations: { at: clock.now, id: '' },
    messages: { at: clock.now, id: '' },
  });
  const since = decodeCursor(p.cursor);
  const none = { conversations: [] as Conversation[], removed: [] as string[], messages: [] as Message[] };
  // ISO strings of one format compare as their times.
  if (!since || since.conversations.at < clock.oldest || since.messages.at < clock.oldest)
    return { cursor: fresh, reset: true, ...none, more: false };

  const changedConversations = await selectConversationViews(db, isoUs(conversations.updatedAt))
    .where(
      and(
        eq(conversations.accountId, user.accountId),
        after(conversations.updatedAt, conversations.id, since.conversations),
      ),
    )
    .orderBy(asc(conversations.updatedAt), asc(conversations.id))
    .limit(p.limit + 1);

  // Attendants: only the messages of their departments' conversations.
  const departments = departmentCondition(ctx.actor, conversations.departmentId);
  const changedMessages = await db
    .select({ message: messages, at: isoUs(messages.updatedAt) })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(
      and(
        eq(messages.accountId, user.accountId),
        after(messages.updatedAt, messages.id, since.messages),
        departments,
      ),
    )
    .orderBy(asc(messages.updatedAt), asc(messages.id))
    .limit(p.limit + 1);

  const conversationRows = changedConversations.slice(0, p.limit);
  const messageRows = changedMessages.slice(0, p.limit);
  const more = changedConversations.length > p.limit || changedMessages.length > p.limit;
  const reached = (rows: { at: string }[], id: (i: number) => string, from: Position): Position => {
    const last = rows.length - 1;
    return last >= 0 ? { at: (rows[last] as { at: string }).at, id: id(last) } : from;
  };
  const cursor = more
    ? encodeCursor({
        conversations: reached(
          conversationRows,
          (i) => conversationRows[i]?.conversation.id ?? '',
          since.conversations,
        ),
        messages: reached(messageRows, (i) => messageRows[i]?.message.id ?? '', since.messages),
      })
    : fresh;

  const out = { ...none, conversations: [] as Conversation[], removed: [] as string[] };
  for (const r of conversationRows) {
    if (actorSeesDepartment(ctx.actor, r.conversation.departmentId))
      out.conversations.push(conversationView(r));
    else out.removed.push(r.conversation.id);
  }
  return { cursor, reset: false, ...out, messages: messageRows.map((r) => toMessage(r.message)), more };
}
