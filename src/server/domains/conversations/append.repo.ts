// The append's statements (append-message.ts is the operation): the message's insert and its conversation's
// change as one SQL text per shape, built once and run as a named statement on PostgreSQL. The message's
// account is the actor's (the caller puts it in the values).
import { createHash } from 'node:crypto';
import { getTableColumns } from 'drizzle-orm';
import type { Actor } from '../../access';
import type { Db } from '../../db';
import { insertOnce } from '../../db/insert-once';
import { conversations, messages } from '../../db/schema';
import type { ConversationRow, MessageKey, MessageRow, NewMessageRow } from './messages.repo';

/**
 * What the message changes on its conversation:
 * - customer: the customer wrote: waiting for an answer, and the reply window moves on (official numbers);
 * - team: the team's message: the list's preview and order; it answers the customer (no longer waiting, no
 *   longer new) only once the channel accepts it (answered.ts, from delivery.ts): a failed send does not;
 * - follow_up: an automatic follow-up (jobs/follow-ups.ts): like team, but it keeps the follow-up's clock
 *   where it is (team starts it again, customer stops it);
 * - summary: shown as the list's preview, the list's order unchanged;
 * - none: a note in the timeline (or an ignored contact's message): the conversation is unchanged.
 */
export type ConversationEffect = 'customer' | 'team' | 'follow_up' | 'summary' | 'none';

// The conversation's change is one SQL text per effect, built once (no query building per message), over
// `c` (the conversation) and `m` (the message's row). `newer`: the conversation's last message is older than
// this one (or there is none), so the pointer only moves forward whatever order concurrent appends commit
// in. It reads the conversation's own columns, not the last message's row: an update that waited for another
// one's lock sees the row that one wrote (PostgreSQL re-reads it, read committed), a subquery would not.
const NEWER = `(coalesce(c.last_message_at, '-infinity'::timestamptz), coalesce(c.last_message_id, '')) < (m.created_at, m.id)`;
const when = (column: string, value: string) =>
  `${column} = case when ${NEWER} then ${value} else c.${column} end`;
const POINTER = [when('last_message_id', 'm.id')];
const MOVED = [...POINTER, when('last_message_at', 'm.created_at')];
// The automatic follow-up's clock (jobs/follow-ups.ts), only for the conversation's newest message: the
// business's message starts it (its anchor, to the millisecond the engine compares it with), the customer's
// stops it. Both with the message: a reply is never missed by a follow-up claimed after it. The engine's run
// (follow_up_runs) counts from its own anchor: a new one here starts the count afresh without touching it.
const followUp = (anchor: string) => [when('follow_up_anchor', anchor)];

/**
 * What the message changes on its conversation (SET clauses), or null for none. `window`: the parameter
 * holding an official number's new reply deadline (a customer's message).
 */
function conversationSet(effect: ConversationEffect, window: string | null): string[] | null {
  switch (effect) {
    case 'customer':
      return [
        ...MOVED,
        ...followUp('null'),
        'waiting_response = true',
        ...(window ? [`context_window = greatest(c.context_window, ${window}::timestamptz)`] : []),
      ];
    case 'team':
      return [...MOVED, ...followUp(`date_trunc('milliseconds', m.created_at)`)];
    case 'follow_up':
      return MOVED;
    case 'summary':
      return POINTER;
    case 'none':
      return null;
  }
}

/** What an append writes on its conversation: which one, the effect, an official number's reply deadline. */
export interface AppendEffect {
  conversation: { id: string };
  effect: ConversationEffect;
  contextWindow?: Date;
}
type Column = {
  name: string;
  mapToDriverValue(v: unknown): unknown;
  mapFromDriverValue(v: unknown): unknown;
};
const messageColumns = Object.entries(getTableColumns(messages)) as [string, Column][];
const conversationColumns = Object.entries(getTableColumns(conversations)) as [string, Column][];
const returned = (alias: string, columns: [string, Column][]) =>
  columns.map(([key, col]) => `${alias}.${col.name} as "${alias}.${key}"`).join(', ');

/** A row read back under "alias.key" names, in the values Drizzle would have answered. */
function rowOf<T>(raw: Record<string, unknown>, alias: string, columns: [string, Column][]): T | null {
  if (raw[`${alias}.id`] == null) return null;
  const row: Record<string, unknown> = {};
  for (const [key, col] of columns) {
    const value = raw[`${alias}.${key}`];
    row[key] = value == null ? null : value instanceof Date ? value : col.mapFromDriverValue(value);
  }
  return row as T;
}

const names = new Map<string, string>();
/** Runs one SQL text: on PostgreSQL as a named statement (parsed and planned once per connection). */
async function run(db: Db, text: string, values: unknown[]) {
  const client = (db as unknown as { session: { client: RawClient } }).session.client;
  // PGlite (and its transaction) has exec() and takes no named statements; pg's Pool and PoolClient do.
  if ('exec' in client) return (await client.query(text, values)).rows;
  let name = names.get(text);
  if (!name) {
    name = `append_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
    names.set(text, name);
  }
  return (await client.query({ name, text, values })).rows;
}
interface RawClient {
  query(
    text: string | { name: string; text: string; values: unknown[] },
    values?: unknown[],
  ): Promise<{ rows: Record<string, unknown>[] }>;
}

const statements = new Map<string, string>();
/** The SQL text for this shape of append (which columns, which effect, a reply window or not), built once. */
function appendText(keys: string[], effect: ConversationEffect, window: boolean) {
  const signature = `${effect}:${window}:${keys.join(',')}`;
  let text = statements.get(signature);
  if (text) return text;
  const columns = keys.map((k) => (getTableColumns(messages) as Record<string, Column>)[k]?.name);
  const insert = `insert into messages (${columns.join(', ')}) values (${keys.map((_, i) => `$${i + 1}`).join(', ')}) on conflict do nothing returning *`;
  const set = conversationSet(effect, window ? `$${keys.length + 2}` : null);
  text = set
    ? `with m as (${insert}), c as (update conversations c set ${[...set, 'updated_at = now()'].join(', ')} from m where c.id = $${keys.length + 1} returning c.*) select ${returned('m', messageColumns)}, ${returned('c', conversationColumns)} from m left join c on true`
    : `with m as (${insert}) select ${returned('m', messageColumns)} from m`;
  statements.set(signature, text);
  return text;
}

/**
 * The usual append in ONE statement (one round trip, no transaction to open and close): the insert and the
 * conversation's change together. Null when the insert met a unique key (a replay, a retry): the caller then
 * takes the transaction's path, which answers the stored row and repairs its conversation if it must.
 */
async function inOneStatement(db: Db, _actor: Actor, input: AppendEffect, values: Record<string, unknown>) {
  const keys = Object.keys(values).filter((k) => values[k] !== undefined);
  const byKey = getTableColumns(messages) as Record<string, Column>;
  const params = keys.map((k) => {
    const v = values[k];
    return v === null ? null : (byKey[k] as Column).mapToDriverValue(v);
  });
  const window = input.contextWindow ?? null;
  const text = appendText(keys, input.effect, window !== null);
  const [raw] = await run(db, text, [
    ...params,
    ...(conversationSet(input.effect, null) ? [input.conversation.id] : []),
    ...(window ? [window.toISOString()] : []),
  ]);
  if (!raw) return null;
  const row = rowOf<MessageRow>(raw, 'm', messageColumns);
  if (!row) return null;
  return { row, created: true, conversation: rowOf<ConversationRow>(raw, 'c', conversationColumns) };
}

/**
 * Writes the message's change on its conversation; a repair applies it only if it was never applied. Answers
 * the conversation as that write left it (under its row lock), or null when nothing was written.
 */
async function applyToConversation(
  db: Db,
  _actor: Actor,
  input: AppendEffect,
  row: MessageRow,
  repair: boolean,
): Promise<ConversationRow | null> {
  const set = conversationSet(input.effect, input.contextWindow ? '$3' : null);
  if (!set) return null;
  const text = `update conversations c set ${[...set, 'updated_at = now()'].join(', ')} from messages m where m.id = $1 and c.id = $2${repair ? ` and ${NEWER}` : ''} returning ${returned('c', conversationColumns)}`;
  const [raw] = await run(db, text, [
    row.id,
    input.conversation.id,
    ...(input.contextWindow ? [input.contextWindow.toISOString()] : []),
  ]);
  return raw ? rowOf<ConversationRow>(raw, 'c', conversationColumns) : null;
}

export const appendRepo = {
  /**
   * The usual append in ONE statement (one round trip, no transaction to open and close): the insert and the
   * conversation's change together. Null when the insert met a unique key (a replay, a retry).
   */
  inOneStatement,
  /** Inserts the message, or finds the one stored under `existing` (null: a conflict on another key). */
  insertOnce: (tx: Db, _actor: Actor, values: NewMessageRow, existing: MessageKey | undefined) =>
    insertOnce(tx, messages, values, existing),
  /**
   * Writes the message's change on its conversation; a repair applies it only if it was never applied.
   * Answers the conversation as that write left it (under its row lock), or null when nothing was written.
   */
  applyToConversation,
};
