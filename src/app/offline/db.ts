// The device's own database (Dexie over IndexedDB): the outbox of messages not yet accepted by the server,
// and the local cache of conversations and their recent messages, so the app opens and works offline.
// One database per device; it names the user it belongs to (meta 'owner'): another user, or a sign-out,
// wipes it. Schema versions only ever add: Dexie migrates an older database on open, data kept.
import Dexie, { type EntityTable } from 'dexie';
import type { Conversation, MediaType, Message } from '@/shared/contract/conversations';

/** A message written on this device and not yet settled by the server. */
export interface OutboxEntry {
  /** Typing order on this device (auto-incremented): sends go out in this order. */
  seq?: number;
  /** The provisional id, named once on the device: every retry sends the same one (idempotent server). */
  message_id: string;
  conversation_id: string;
  user_id: string;
  text: string;
  /** The body as the pane shows it (with the signature). */
  body: string;
  /** A file waiting with the message (a Blob survives in IndexedDB). */
  file: { blob: Blob; type: MediaType; file_name: string } | null;
  /** The file once uploaded: a retry does not upload it again. */
  uploaded: { type: MediaType; url: string; file_name: string } | null;
  /**
   * Audio sent as a voice note (a recording). Not indexed, so no schema version: IndexedDB keeps the whole
   * object, and an entry written before the flag existed reads as an ordinary file.
   */
  ptt?: boolean;
  /** When it was typed (ISO): the provisional bubble's time. */
  created: string;
  attempts: number;
}

export interface CachedMessage extends Message {}

export interface CachedConversation {
  _id: string;
  /** Sort key: the last message's time or the creation time (ISO). */
  activity: string;
  conversation: Conversation;
}

export interface MetaEntry {
  key: string;
  value: unknown;
}

export type OfflineDb = Dexie & {
  outbox: EntityTable<OutboxEntry, 'seq'>;
  messages: EntityTable<CachedMessage, '_id'>;
  conversations: EntityTable<CachedConversation, '_id'>;
  meta: EntityTable<MetaEntry, 'key'>;
};

export const DB_NAME = 'painel-offline';

/** The first released schema (kept as it was: the upgrade test opens a database made with it). */
export const V1 = {
  outbox: '++seq, message_id, conversation_id',
  messages: '_id, message_id, [conversation_id+created]',
  conversations: '_id, activity',
  meta: 'key',
};

export function openOfflineDb(name = DB_NAME): OfflineDb {
  const db = new Dexie(name) as OfflineDb;
  // Each version lists the whole schema; Dexie upgrades an older database on open and keeps its rows (an app
  // update never loses the outbox or the cache). Add versions; never change a released one.
  db.version(1).stores(V1);
  // 2: a conversation's waiting messages read in typing order straight from an index.
  db.version(2).stores({ ...V1, outbox: '++seq, message_id, conversation_id, [conversation_id+seq]' });
  return db;
}

let shared: OfflineDb | null = null;
/** The app's database, opened on first use. */
export const offlineDb = () => {
  shared ??= openOfflineDb();
  return shared;
};

export const OWNER_KEY = 'owner';
/** The session's token, for the service worker's Background Sync (it cannot read localStorage). */
export const SESSION_KEY = 'session';

/** The catch-up's position (get-changes-since): the server's cursor after the last change applied here. */
export const CHANGES_CURSOR_KEY = 'changes-cursor';

/** The catch-up's cursor on this device (null before the first catch-up, and after a wipe). */
export async function changesCursor(db: OfflineDb): Promise<string | null> {
  const entry = await db.meta.get(CHANGES_CURSOR_KEY);
  return typeof entry?.value === 'string' ? entry.value : null;
}

export async function saveChangesCursor(cursor: string, db: OfflineDb) {
  await db.meta.put({ key: CHANGES_CURSOR_KEY, value: cursor });
}

/** Empties every table (sign-out, another user on the device). */
export async function wipe(db: OfflineDb) {
  await db.transaction('rw', [db.outbox, db.messages, db.conversations, db.meta], async () => {
    await Promise.all([db.outbox.clear(), db.messages.clear(), db.conversations.clear(), db.meta.clear()]);
  });
}

/** The database belongs to `userId` from now on: another user's data is wiped first. */
export async function claimFor(db: OfflineDb, userId: string) {
  const owner = await db.meta.get(OWNER_KEY);
  if (owner && owner.value === userId) return;
  if (owner) await wipe(db);
  await db.meta.put({ key: OWNER_KEY, value: userId });
}
