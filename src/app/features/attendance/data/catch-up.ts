// The catch-up after a reconnect (offline issue §3): instead of asking every loaded list again (10,000
// conversations are hundreds of pages), the server says what changed since this device's cursor
// (get-changes-since), and the changes are written where the screens and the device keep them: the loaded
// lists, the conversations' own entries, the open message lists, and the Dexie cache. Everything is merged
// by id (messages also by the message_id of our own sends), so a change answered twice shows once.
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { api } from '@/app/lib/api';
import { isNetworkFailure } from '@/app/offline/app-offline';
import { saveConversations, updateHeldMessages } from '@/app/offline/cache';
import { type OfflineDb, offlineDb } from '@/app/offline/db';
import type { CatchUpSession } from '@/app/offline/sync-engine';
import type { Answer } from '@/shared/contract';
import { matchesFilter } from '../list/list-view';
import {
  ATTENDANCE_KEY,
  type ConversationPage,
  conversationQuery,
  dropConversations,
  LIST_KEY,
  patchLastMessage,
  placeInPages,
} from './conversations';
import { type MessagesData, messagesKey, putMessage } from './messages';

export type Changes = Answer<'get-changes-since'>;

/** Changes asked per call, and calls per catch-up: beyond that, reloading the lists is cheaper. */
export const CHANGES_PAGE = 200;
export const MAX_CHANGE_PAGES = 25;

/** One answer of get-changes-since into the query cache and the device's cache. */
export async function applyChanges(client: QueryClient, changes: Changes, db: OfflineDb = offlineDb()) {
  const leaving = [...changes.removed];
  const staying = [];
  for (const c of changes.conversations) {
    // A finished one leaves the lists; its own entry (an open pane) learns it is finished.
    if (c.finished) leaving.push(c._id);
    else staying.push(c);
    const own = conversationQuery(c._id).queryKey;
    if (client.getQueryData(own) !== undefined) client.setQueryData(own, c);
  }

  // Each loaded list once: the changed ones go where their activity sorts, if the list's filter takes them.
  for (const [key, data] of client.getQueriesData<InfiniteData<ConversationPage>>({ queryKey: LIST_KEY })) {
    const filter = key[2] as Parameters<typeof matchesFilter>[1] | undefined;
    if (!data || !filter) continue;
    let next = data;
    for (const c of staying) {
      if (matchesFilter(c, filter)) next = placeInPages(next, c);
      else if (next.pages.some((p) => p.conversations.some((x) => x._id === c._id)))
        next = {
          ...next,
          pages: next.pages.map((p) => ({
            ...p,
            conversations: p.conversations.filter((x) => x._id !== c._id),
          })),
        };
    }
    if (next !== data) client.setQueryData(key, next);
  }
  await dropConversations(client, leaving);
  for (const id of changes.removed) {
    // Not on screen: nothing of it stays in memory either. On screen (an open pane): it is not found now.
    const own = conversationQuery(id).queryKey;
    client.removeQueries({ queryKey: own, exact: true, type: 'inactive' });
    client.removeQueries({ queryKey: messagesKey(id), exact: true, type: 'inactive' });
    if (client.getQueryData(own) !== undefined) client.setQueryData(own, null);
  }

  const offDevice: typeof changes.messages = [];
  for (const m of changes.messages) {
    if (client.getQueryData<MessagesData>(messagesKey(m.conversation_id))) putMessage(client, m);
    // Not held by a screen: only what the device keeps of it is brought up to date (the mirror does the rest).
    else offDevice.push(m);
    patchLastMessage(client, m.conversation_id, m._id, m);
  }
  // The device's copy of every changed conversation, so a reload offline shows it as it is now.
  await saveConversations(db, staying).catch(() => undefined);
  await updateHeldMessages(db, offDevice).catch(() => undefined);
}

/**
 * Asks what changed since the device's cursor, page after page, and applies it; the cursor is saved after
 * each page applied, so a connection lost halfway goes on from there next time. Answers false when the
 * lists must be asked again whole (a failure that is not the network's).
 */
export async function catchUp(session: CatchUpSession): Promise<boolean> {
  const { client, db } = session;
  const cursor = await session.cursor();
  try {
    let next = cursor ?? undefined;
    for (let page = 0; page < MAX_CHANGE_PAGES; page++) {
      const changes = await api('get-changes-since', { cursor: next, limit: CHANGES_PAGE });
      if (changes.reset) {
        // No cursor yet, or too old to say: the new cursor first, then everything asked again.
        await session.saveCursor(changes.cursor);
        await session.reload();
        return true;
      }
      await applyChanges(client, changes, db);
      await session.saveCursor(changes.cursor);
      if (!changes.more) {
        // What the device answered while offline (a list without its further pages, messages kept from
        // before the cursor) is asked again: one page each.
        await client.invalidateQueries({
          queryKey: ATTENDANCE_KEY,
          predicate: (q) => {
            const data = q.state.data as Partial<InfiniteData<ConversationPage> & MessagesData> | undefined;
            return data?.pages?.[0]?.from_device === true || data?.fromDevice === true;
          },
        });
        return true;
      }
      next = changes.cursor;
    }
    // More changes than a reload costs: start again from a fresh cursor.
    const fresh = await api('get-changes-since', {});
    await session.saveCursor(fresh.cursor);
    await session.reload();
    return true;
  } catch (err) {
    // Offline again: the next reconnect goes on from the last cursor saved.
    if (isNetworkFailure(err)) return true;
    return false;
  }
}
