// The local cache of the service screen (Dexie): conversations and at least their last 50 messages, so the
// app opens offline with the list and the messages seen before, and can search them. It mirrors what the
// query cache holds (every answer and every socket event lands there first), and is read back when the
// network is not there.
import Dexie from 'dexie';
import type { Conversation, Message } from '@/shared/contract/conversations';
import type { OfflineDb } from './db';

/** Messages kept per conversation (at least; the newest). */
export const CACHED_MESSAGES = 50;

const activityOf = (c: Conversation) => c.last_message?.created ?? c.created;

export async function saveConversations(db: OfflineDb, list: readonly Conversation[]) {
  if (list.length === 0) return;
  await db.conversations.bulkPut(list.map((c) => ({ _id: c._id, activity: activityOf(c), conversation: c })));
}

/** Conversations gone from the user's view (finished, transferred away) leave the device with their messages. */
export async function forgetConversations(db: OfflineDb, ids: readonly string[]) {
  if (ids.length === 0) return;
  await db.transaction('rw', [db.conversations, db.messages], async () => {
    await db.conversations.bulkDelete([...ids]);
    for (const id of ids) await conversationMessages(db, id).delete();
  });
}

/** Newest activity first, as the server sorts. */
export async function cachedConversations(db: OfflineDb): Promise<Conversation[]> {
  const rows = await db.conversations.orderBy('activity').reverse().toArray();
  return rows.map((r) => r.conversation);
}

export async function cachedConversation(db: OfflineDb, id: string) {
  return (await db.conversations.get(id))?.conversation ?? null;
}

const conversationMessages = (db: OfflineDb, conversationId: string) =>
  db.messages
    .where('[conversation_id+created]')
    .between([conversationId, Dexie.minKey], [conversationId, Dexie.maxKey]);

/** Stores messages (merged by _id) and keeps the newest CACHED_MESSAGES of each conversation they touch. */
export async function saveMessages(db: OfflineDb, list: readonly Message[], keep = CACHED_MESSAGES) {
  if (list.length === 0) return;
  await db.transaction('rw', db.messages, async () => {
    await db.messages.bulkPut([...list]);
    for (const id of new Set(list.map((m) => m.conversation_id))) {
      const count = await conversationMessages(db, id).count();
      if (count > keep) {
        const old = await conversationMessages(db, id)
          .limit(count - keep)
          .primaryKeys();
        await db.messages.bulkDelete(old);
      }
    }
  });
}

/** Newer news of messages the device already keeps (a status, a delete); others are not added (no gaps). */
export async function updateHeldMessages(db: OfflineDb, list: readonly Message[]) {
  if (list.length === 0) return;
  await db.transaction('rw', db.messages, async () => {
    const held = await db.messages.bulkGet(list.map((m) => m._id));
    const changed = list.filter((_, i) => held[i] !== undefined);
    if (changed.length) await db.messages.bulkPut(changed);
  });
}

/** The newest `limit` messages of a conversation, oldest first. */
export async function recentMessages(db: OfflineDb, conversationId: string, limit = CACHED_MESSAGES) {
  const newest = await conversationMessages(db, conversationId).reverse().limit(limit).toArray();
  return newest.reverse();
}

/** Conversations whose cached messages contain the text (case-insensitive, pt-BR). */
export async function conversationsWithText(db: OfflineDb, text: string): Promise<Set<string>> {
  const needle = text.trim().toLocaleLowerCase('pt-BR');
  const found = new Set<string>();
  if (!needle) return found;
  await db.messages.each((m) => {
    if (!m.deleted && m.message.toLocaleLowerCase('pt-BR').includes(needle)) found.add(m.conversation_id);
  });
  return found;
}
