// The catch-up after a reconnect (offline issue §3): what changed for the caller since a cursor. The cursor is
// a position in two streams, conversations and messages, each ordered by (updated_at, id) on the database's
// clock: a page goes on exactly where the last one stopped, even through a bulk finish that gave thousands of
// rows the same time. The last page's cursor steps back OVERLAP_MS, so a change whose transaction committed
// after it was read comes again next time instead of never (the app merges by id).
import type { Conversation, Message } from '../../../shared/contract/conversations';
import { type Actor, actorSeesDepartment } from '../../access';
import type { Services } from '../../services';
import { changesRepo, type StreamPosition } from './conversation-views.repo';
import { conversationView, toMessage } from './present';

/** How far back a cursor may go: older, the app reloads its lists (cheaper than a week of changes). */
export const CHANGES_MAX_AGE_MS = 3 * 24 * 60 * 60 * 1000;
export const OVERLAP_MS = 10_000;

/** `at`: ISO with microseconds, UTC: PostgreSQL's precision, so a position never repeats or skips a row. */
type Position = StreamPosition;
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

export async function changesSince(
  services: Pick<Services, 'db'>,
  actor: Actor,
  p: { cursor?: string; limit: number },
) {
  const { db } = services;
  // The database's clock, as every updated_at is: no device and no server process clock in between.
  const clock = await changesRepo.clock(db, OVERLAP_MS, CHANGES_MAX_AGE_MS);
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

  const changedConversations = await changesRepo.conversations(db, actor, since.conversations, p.limit + 1);
  // Attendants: only the messages of their departments' conversations.
  const changedMessages = await changesRepo.messages(db, actor, since.messages, p.limit + 1);

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
    if (actorSeesDepartment(actor, r.conversation.departmentId)) out.conversations.push(conversationView(r));
    else out.removed.push(r.conversation.id);
  }
  return { cursor, reset: false, ...out, messages: messageRows.map((r) => toMessage(r.message)), more };
}
