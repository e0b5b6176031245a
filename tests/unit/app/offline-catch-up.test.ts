// @vitest-environment happy-dom
// The catch-up's patching (applyChanges): an answer of get-changes-since into the query cache and the Dexie
// cache. New conversations join the lists where they sort, changed ones move, finished and transferred-away
// ones leave the lists and the device with their messages (the outbox stays), and an answer applied twice,
// or a message already shown as our own pending send, never shows twice.
import { type InfiniteData, QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyChanges, type Changes, catchUp } from '@/app/features/attendance/data/catch-up';
import {
  type ConversationPage,
  conversationQuery,
  LIST_KEY,
} from '@/app/features/attendance/data/conversations';
import { type MessagesData, messagesKey } from '@/app/features/attendance/data/messages';
import type { ConversationFilter } from '@/app/features/attendance/list/list-view';
import { startSync } from '@/app/offline/app-offline';
import { recentMessages, saveConversations, saveMessages } from '@/app/offline/cache';
import { changesCursor, claimFor, OWNER_KEY, offlineDb, saveChangesCursor, wipe } from '@/app/offline/db';
import { catchUpSession } from '@/app/offline/sync-engine';
import type { Conversation, Message } from '@/shared/contract/conversations';
import { messageFixture } from './message-fixture';

const id = (c: string) => c.repeat(28);
const at = (n: number) => new Date(Date.UTC(2026, 4, 1, 12, 0, n)).toISOString();

const message = (n: number, conversationId: string, over: Partial<Message> = {}): Message =>
  messageFixture({
    _id: `M${String(n).padStart(27, '0')}`,
    conversation_id: conversationId,
    message: `mensagem ${n}`,
    created: at(n),
    ...over,
  });

const conversation = (c: string, n: number, over: Partial<Conversation> = {}): Conversation => ({
  _id: id(c),
  contact: {
    _id: id(c.toLowerCase() === c ? 'Z' : 'Y'),
    name: `Cliente ${c}`,
    override_name: null,
    phone: '5511987651234',
    tags: [],
    ignore: false,
    profile_picture: null,
    channel_contact_id: null,
    created: at(0),
  },
  chip: 'CHIP1',
  chatbot: null,
  chatbot_type: null,
  flow: null,
  department: 'SUP',
  created: at(0),
  finished: null,
  is_manual: true,
  is_new: false,
  waiting_response: false,
  auto_follow_up: false,
  follow_up_applies: false,
  context_window: null,
  channel_type: null,
  last_message: message(n, id(c)),
  start_flow: false,
  assigned_user: null,
  assigned_user_name: null,
  ...over,
});

const FILTER: ConversationFilter = {
  situation: 'all',
  types: [],
  departments: [],
  tags: [],
  chips: [],
  text: '',
  assigned_user: null,
};
const listKey = [...LIST_KEY, FILTER] as const;
const listed = (client: QueryClient) =>
  (client.getQueryData<InfiniteData<ConversationPage>>(listKey)?.pages ?? []).flatMap((p) =>
    p.conversations.map((c) => c._id),
  );

const none: Changes = {
  cursor: 'c',
  reset: false,
  conversations: [],
  removed: [],
  messages: [],
  more: false,
};

const db = offlineDb();
let client: QueryClient;
beforeEach(async () => {
  await wipe(db);
  client = new QueryClient();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** The server's answers to get-changes-since, in turn (a thrown error is a lost connection); the cursors asked. */
function serve(answers: (Changes | 'offline')[]) {
  const asked: (string | undefined)[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init: RequestInit) => {
      asked.push((JSON.parse(String(init.body)) as { cursor?: string }).cursor);
      const next = answers.shift();
      if (!next || next === 'offline') throw new TypeError('Failed to fetch');
      return new Response(JSON.stringify({ error: false, message: next }));
    }),
  );
  return asked;
}

describe('the catch-up patching (applyChanges)', () => {
  it('adds new conversations, moves changed ones, and drops finished and transferred ones everywhere', async () => {
    // Loaded: A (newest), B, C, D; the device keeps them and their messages, and one send waits in the outbox.
    const [a, b, c, d] = [
      conversation('A', 40),
      conversation('B', 30),
      conversation('C', 20),
      conversation('D', 10),
    ];
    client.setQueryData(listKey, {
      pages: [{ conversations: [a, b, c, d], load_more: false }],
      pageParams: [undefined],
    });
    client.setQueryData(conversationQuery(c._id).queryKey, c);
    // D is open in a pane (an observed query; fresh, so it asks nothing).
    client.setQueryData(conversationQuery(d._id).queryKey, d);
    const pane = new QueryObserver(client, {
      ...conversationQuery(d._id),
      staleTime: Number.POSITIVE_INFINITY,
    });
    const stopWatching = pane.subscribe(() => undefined);
    await saveConversations(db, [a, b, c, d]);
    await saveMessages(db, [message(20, c._id), message(10, d._id), message(30, b._id)]);
    await db.outbox.add({
      message_id: 'local-send-1',
      conversation_id: c._id,
      user_id: 'U',
      text: 'oi',
      body: 'oi',
      file: null,
      uploaded: null,
      created: at(50),
      attempts: 0,
    });

    const e = conversation('E', 45); // new while offline
    const bChanged = conversation('B', 50, { waiting_response: true }); // a message arrived: to the top
    const cFinished = { ...c, finished: at(60) };
    const changes: Changes = {
      ...none,
      conversations: [e, bChanged, cFinished],
      removed: [d._id], // transferred to a department this user does not serve
    };
    await applyChanges(client, changes, db);
    // The same answer again (the cursor overlaps): nothing twice.
    await applyChanges(client, changes, db);

    expect(listed(client)).toEqual([b._id, e._id, a._id]);
    // The open pane's own entry knows it is finished; the one transferred away is not found any more.
    expect(client.getQueryData(conversationQuery(c._id).queryKey)?.finished).toBe(at(60));
    expect(client.getQueryData(conversationQuery(d._id).queryKey)).toBeNull();
    stopWatching();
    // The device: no finished or transferred conversation, nor their messages, after a reload.
    expect((await db.conversations.toArray()).map((r) => r._id).sort()).toEqual([a._id, b._id, e._id].sort());
    expect(await recentMessages(db, c._id)).toEqual([]);
    expect(await recentMessages(db, d._id)).toEqual([]);
    expect((await recentMessages(db, b._id)).length).toBe(1);
    expect((await db.conversations.get(b._id))?.conversation.waiting_response).toBe(true);
    // The outbox is not the cache: the waiting send stays.
    expect((await db.outbox.toArray()).map((o) => o.message_id)).toEqual(['local-send-1']);
  });

  it('keeps the loaded page when every conversation in it changed at once, the oldest first (more to load)', async () => {
    const loaded = [conversation('C', 30), conversation('B', 20), conversation('A', 10)];
    client.setQueryData(listKey, {
      pages: [{ conversations: loaded, load_more: true }],
      pageParams: [undefined],
    });
    await applyChanges(client, { ...none, conversations: [...loaded].reverse() }, db);
    expect(listed(client)).toEqual(loaded.map((c) => c._id));
  });

  it('merges messages by _id and by our message_id: a pending send and its server copy show once', async () => {
    const a = conversation('A', 10);
    const pending = {
      ...message(20, a._id, { origin: 'user', status: 0, message_id: 'local-send-2' }),
      provisional: true as const,
    };
    pending._id = 'local-send-2';
    client.setQueryData<MessagesData>(messagesKey(a._id), {
      messages: [message(10, a._id), pending],
      hasOlder: false,
    });
    const sent = message(21, a._id, { origin: 'user', status: 1, message_id: 'local-send-2' });
    const read = message(10, a._id, { status: 4 });
    const arrived = message(22, a._id);
    const changes: Changes = { ...none, messages: [read, sent, arrived] };
    await applyChanges(client, changes, db);
    await applyChanges(client, changes, db);

    const shown = client.getQueryData<MessagesData>(messagesKey(a._id))?.messages ?? [];
    expect(shown.map((m) => m._id)).toEqual([read._id, sent._id, arrived._id]);
    expect(shown.some((m) => m.provisional)).toBe(false);
    expect(shown[0]?.status).toBe(4);
  });

  it('brings the device copy of messages no screen holds up to date, without adding gaps', async () => {
    const b = conversation('B', 10);
    await saveConversations(db, [b]);
    await saveMessages(db, [message(10, b._id)]);
    await applyChanges(
      client,
      { ...none, messages: [message(10, b._id, { deleted: true, message: '' }), message(11, b._id)] },
      db,
    );
    const kept = await recentMessages(db, b._id);
    expect(kept.map((m) => [m._id, m.deleted])).toEqual([[message(10, b._id)._id, true]]);
  });
});

describe('the catch-up loop (catchUp)', () => {
  it("asks page after page from the saved cursor, and saves each page's cursor once applied", async () => {
    const a = conversation('A', 10);
    client.setQueryData(listKey, {
      pages: [{ conversations: [a], load_more: false }],
      pageParams: [undefined],
    });
    await saveChangesCursor('c0', db);
    const b = conversation('B', 20);
    const c = conversation('C', 30);
    const asked = serve([
      { ...none, cursor: 'c1', conversations: [b], more: true },
      { ...none, cursor: 'c2', conversations: [c], more: false },
    ]);
    expect(await catchUp(catchUpSession(client, db, 'attendance'))).toBe(true);
    expect(asked).toEqual(['c0', 'c1']);
    expect(await changesCursor(db)).toBe('c2');
    expect(listed(client)).toEqual([c._id, b._id, a._id]);
  });

  it('a connection lost halfway keeps the cursor of the last page applied', async () => {
    await saveChangesCursor('c0', db);
    serve([{ ...none, cursor: 'c1', conversations: [conversation('B', 20)], more: true }, 'offline']);
    expect(await catchUp(catchUpSession(client, db, 'attendance'))).toBe(true);
    expect(await changesCursor(db)).toBe('c1');
  });

  it('a reset (no cursor, or too old) saves the fresh cursor and empties the device cache, not the outbox', async () => {
    const a = conversation('A', 10);
    await saveConversations(db, [a]);
    await saveMessages(db, [message(10, a._id)]);
    await db.outbox.add({
      message_id: 'local-send-3',
      conversation_id: a._id,
      user_id: 'U',
      text: 'oi',
      body: 'oi',
      file: null,
      uploaded: null,
      created: at(50),
      attempts: 0,
    });
    const asked = serve([{ ...none, cursor: 'fresh', reset: true }]);
    expect(await catchUp(catchUpSession(client, db, 'attendance'))).toBe(true);
    expect(asked).toEqual([undefined]);
    expect(await changesCursor(db)).toBe('fresh');
    expect(await db.conversations.count()).toBe(0);
    expect(await db.messages.count()).toBe(0);
    expect(await db.outbox.count()).toBe(1);
  });
});

describe('a connect as the app starts', () => {
  it("runs before the device is claimed for the new user, yet sends nothing of the last user's outbox", async () => {
    // The last user left a message waiting (a 401 holds the queue); another user signs in on this device.
    await claimFor(db, 'A'.repeat(28));
    await db.outbox.add({
      message_id: 'local-other-user',
      conversation_id: conversation('A', 10)._id,
      user_id: 'A'.repeat(28),
      text: 'de outro usuário',
      body: 'de outro usuário',
      file: null,
      uploaded: null,
      created: at(50),
      attempts: 0,
    });
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        calls.push(String(url));
        return new Response(JSON.stringify({ error: false, message: { ...none, cursor: 'c', reset: true } }));
      }),
    );
    let caughtUp = 0;
    const engine = startSync(client, 'B'.repeat(28));
    engine.register({
      scope: 'attendance',
      mirror: {},
      catchUp: async () => {
        caughtUp += 1;
        return true;
      },
    });
    const stop = () => engine.dispose();
    // The socket connects at once, before the claim has read the device's owner.
    void engine.reconnected();
    await vi.waitFor(async () => expect((await db.meta.get(OWNER_KEY))?.value).toBe('B'.repeat(28)));
    await vi.waitFor(() => expect(caughtUp).toBeGreaterThan(0));
    await new Promise((r) => setTimeout(r, 50));
    stop();
    expect(calls.filter((u) => u.includes('send-conversation-message'))).toEqual([]);
    expect(await db.outbox.count()).toBe(0);
  });
});
