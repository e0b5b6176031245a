// @vitest-environment happy-dom
import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  addProvisional,
  dropProvisional,
  loadOlder,
  MESSAGE_PAGE,
  type MessagesData,
  mergeLatest,
  mergeMessage,
  messagesKey,
  messagesQuery,
  putMessage,
  raiseStatus,
  upsert,
} from '@/app/features/attendance/data/messages';
import type { Message } from '@/shared/contract/conversations';
import { messageFixture } from './message-fixture';

const C = 'C'.repeat(28);
let seq = 0;
const at = (n: number) => new Date(Date.UTC(2026, 4, 1, 12, 0, 0, 0) + n * 1000).toISOString();

function msg(n: number, extra: Partial<Message> = {}): Message {
  return messageFixture({
    _id: `M${String(n).padStart(27, '0')}`,
    conversation_id: C,
    message: `mensagem ${n}`,
    created: at(n),
    ...extra,
  });
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => msg(from + i));

/** The server's get-messages-by-conversation over `all`: the last `limit` before `before`, oldest first. */
function serve(all: Message[]) {
  const calls: { before?: string; limit: number }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body)) as { before?: string; limit: number };
      calls.push(body);
      const older = body.before ? all.filter((m) => m.created < (body.before as string)) : all;
      return new Response(JSON.stringify({ error: false, message: older.slice(-body.limit) }));
    }),
  );
  return calls;
}

let client: QueryClient;
beforeEach(() => {
  client = new QueryClient();
  seq++;
});
afterEach(() => {
  vi.unstubAllGlobals();
  client.clear();
});

const data = () => client.getQueryData<MessagesData>(messagesKey(C));
const texts = () => data()?.messages.map((m) => m.message);

describe('mergeMessage', () => {
  it('never moves a status back, except to failed; a deletion stays', () => {
    expect(mergeMessage(msg(1, { status: 4 }), msg(1, { status: 1 })).status).toBe(4);
    expect(mergeMessage(msg(1, { status: 1 }), msg(1, { status: 3 })).status).toBe(3);
    expect(mergeMessage(msg(1, { status: 1 }), msg(1, { status: -1, failure: 'x' })).status).toBe(-1);
    const deleted = mergeMessage(msg(1, { deleted: true, message: '' }), msg(1, { status: 4 }));
    expect(deleted).toMatchObject({ deleted: true, message: '' });
  });
});

describe('upsert', () => {
  it('keeps time order, and replaces a provisional send by its message_id', () => {
    let list = upsert([], msg(2));
    list = upsert(list, msg(1));
    list = upsert(list, {
      ...msg(3, { origin: 'user', message_id: 'local12345', status: 0 }),
      _id: 'local-x',
    });
    list = upsert(list, msg(3, { origin: 'user', message_id: 'local12345', status: 1 }));
    expect(list.map((m) => m._id)).toEqual([msg(1)._id, msg(2)._id, msg(3)._id]);
  });
});

describe('the messages cache', () => {
  it('loads the last 25, then 25 older at a time until there are none', async () => {
    const all = range(0, 60);
    const calls = serve(all);
    await client.fetchQuery(messagesQuery(C));
    expect(data()?.messages).toHaveLength(MESSAGE_PAGE);
    expect(data()?.messages[0]?.message).toBe('mensagem 35');
    expect(data()?.hasOlder).toBe(true);

    await loadOlder(client, C);
    expect(data()?.messages).toHaveLength(50);
    expect(data()?.messages[0]?.message).toBe('mensagem 10');
    await loadOlder(client, C);
    expect(data()?.messages).toHaveLength(60);
    expect(data()?.hasOlder).toBe(false);
    expect(calls).toHaveLength(3);
  });

  it('does not skip messages that share the oldest one’s millisecond', async () => {
    const all = range(0, 30).map((m, i) => ({ ...m, created: i < 8 ? at(0) : m.created }));
    all.sort((a, b) => (a.created === b.created ? (a._id < b._id ? -1 : 1) : a.created < b.created ? -1 : 1));
    serve(all);
    await client.fetchQuery(messagesQuery(C));
    await loadOlder(client, C);
    expect(new Set(data()?.messages.map((m) => m._id)).size).toBe(30);
    expect(data()?.hasOlder).toBe(false);
  });

  it('a refetch keeps the older pages when it meets them, and replaces them when it does not', () => {
    const cached: MessagesData = { messages: range(0, 50), hasOlder: true };
    const met = mergeLatest(cached, range(30, 55));
    expect(met.messages).toHaveLength(55);
    expect(met.hasOlder).toBe(true);
    const gap = mergeLatest(cached, range(100, 125));
    expect(gap.messages.map((m) => m.message)).toEqual(range(100, 125).map((m) => m.message));
    expect(gap.hasOlder).toBe(true);
    expect(mergeLatest(undefined, range(0, 3))).toEqual({ messages: range(0, 3), hasOlder: false });
  });

  it('a refetch keeps a send still on its way', () => {
    const pending = {
      ...msg(9, { origin: 'user', message_id: 'abcdefgh1', status: 0 }),
      _id: 'local-abcdefgh1',
    };
    const cached: MessagesData = {
      messages: [...range(0, 3), { ...pending, provisional: true }],
      hasOlder: false,
    };
    expect(mergeLatest(cached, range(0, 4)).messages.map((m) => m._id)).toContain('local-abcdefgh1');
  });

  it('events and sends: provisional first, the server copy in its place, read status forward only', () => {
    client.setQueryData<MessagesData>(messagesKey(C), { messages: range(0, 2), hasOlder: false });
    const local = msg(5, { origin: 'user', message_id: `send${seq}abcd`, status: 0, message: 'Olá' });
    addProvisional(client, { ...local, _id: `local-${local.message_id}` });
    expect(data()?.messages.at(-1)).toMatchObject({ provisional: true, message: 'Olá' });
    putMessage(client, { ...local, status: 1 });
    expect(data()?.messages).toHaveLength(3);
    expect(data()?.messages.at(-1)).not.toHaveProperty('provisional');
    raiseStatus(client, C, local._id, 4);
    raiseStatus(client, C, local._id, 3);
    expect(data()?.messages.at(-1)?.status).toBe(4);

    addProvisional(client, {
      ...msg(6, { origin: 'user', message_id: 'failing01' }),
      _id: 'local-failing01',
    });
    dropProvisional(client, C, 'failing01');
    expect(texts()).toEqual(['mensagem 0', 'mensagem 1', 'Olá']);
  });

  it('leaves a message older than the window to Carregar mais, while older ones remain to load', () => {
    client.setQueryData<MessagesData>(messagesKey(C), { messages: range(10, 12), hasOlder: true });
    putMessage(client, msg(3));
    expect(texts()).toEqual(['mensagem 10', 'mensagem 11']);
    // A change to one held still applies; with nothing older left, an older one has its place.
    putMessage(client, { ...msg(10), status: 4 });
    expect(data()?.messages[0]?.status).toBe(4);
    client.setQueryData<MessagesData>(messagesKey(C), { messages: range(10, 12), hasOlder: false });
    putMessage(client, msg(3));
    expect(texts()).toEqual(['mensagem 3', 'mensagem 10', 'mensagem 11']);
  });

  it('writes nothing for a conversation that is not loaded', () => {
    putMessage(client, msg(1));
    expect(data()).toBeUndefined();
  });
});
