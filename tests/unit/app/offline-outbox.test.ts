// The outbox and the local cache on fake-indexeddb: typing order per conversation, backoff with jitter,
// a refusal removes the message, a lost answer keeps it, and a sign-out or another user wipes the device.
import { Blob as NodeBlob } from 'node:buffer';
import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '@/app/lib/api';
import { classifyFailure } from '@/app/offline/app-offline';
import { recentMessages, saveConversations, saveMessages } from '@/app/offline/cache';
import { claimFor, type OfflineDb, openOfflineDb, V1, wipe } from '@/app/offline/db';
import {
  BACKOFF_BASE_MS,
  BACKOFF_MAX_MS,
  backoffDelay,
  createOutbox,
  type OutboxTransport,
} from '@/app/offline/outbox';
import type { Conversation, Message } from '@/shared/contract/conversations';
import { messageFixture } from './message-fixture';

const A = 'A'.repeat(28);
const B = 'B'.repeat(28);
let n = 0;
const dbs: OfflineDb[] = [];
function freshDb() {
  const db = openOfflineDb(`test-${Date.now()}-${n++}`);
  dbs.push(db);
  return db;
}
afterEach(async () => {
  for (const db of dbs.splice(0)) await db.delete();
});

function message(conversation: string, messageId: string, text: string, created = new Date()): Message {
  return messageFixture({
    _id: `S-${messageId}`,
    conversation_id: conversation,
    message: text,
    origin: 'user',
    created: created.toISOString(),
    user: 'U',
    message_id: messageId,
  });
}

const entry = (conversation: string, id: string, text: string) => ({
  message_id: id,
  conversation_id: conversation,
  user_id: 'U',
  text,
  body: text,
  file: null,
  created: new Date().toISOString(),
});

/**
 * A server that stores each message_id once, failing the network on the tries the test chooses; a message
 * it `holdsPending` is stored with status 0 (its send cut off by a crash) until `settle` gives its outcome.
 */
function fakeServer() {
  const stored: Message[] = [];
  const calls: string[] = [];
  let failNext = 0;
  let refuse = new Set<string>();
  const pending = new Set<string>();
  const transport: OutboxTransport = {
    async upload(_file, _type, name) {
      return { url: `/media/${name}`, file_name: name };
    },
    async send(p) {
      calls.push(p.message_id);
      if (failNext > 0) {
        failNext -= 1;
        throw new ApiError('offline', 0);
      }
      if (refuse.has(p.message_id)) throw new ApiError('Essa conversa foi finalizada', 400);
      const known = stored.find((m) => m.message_id === p.message_id);
      if (known) return known;
      const m = message(p.conversation_id, p.message_id, p.text);
      if (pending.has(p.message_id)) m.status = 0;
      stored.push(m);
      return m;
    },
    classify: classifyFailure,
  };
  return {
    transport,
    stored,
    calls,
    failTimes(k: number) {
      failNext = k;
    },
    refuse(ids: string[]) {
      refuse = new Set(ids);
    },
    holdPending(ids: string[]) {
      for (const id of ids) pending.add(id);
    },
    /** The server's resumed send ends: the stored message gets its outcome. */
    settle(id: string, outcome: Partial<Message>) {
      const m = stored.find((x) => x.message_id === id);
      if (m) Object.assign(m, outcome);
      return m as Message;
    },
  };
}

/** Timers the test runs by hand. */
function manualTimers() {
  const pending: { fn: () => void; ms: number }[] = [];
  return {
    pending,
    setTimer: (fn: () => void, ms: number) => {
      const t = { fn, ms };
      pending.push(t);
      return t;
    },
    clearTimer: (t: unknown) => {
      const at = pending.indexOf(t as { fn: () => void; ms: number });
      if (at >= 0) pending.splice(at, 1);
    },
    fire() {
      const t = pending.shift();
      t?.fn();
      return t?.ms;
    },
  };
}

describe('outbox', () => {
  it('sends in typing order, each conversation keeping its order, each message once', async () => {
    const db = freshDb();
    const server = fakeServer();
    const timers = manualTimers();
    const outbox = createOutbox({ db, transport: server.transport, ...timers });
    server.failTimes(1_000_000); // offline: everything queues
    const typed: [string, string][] = [];
    await Promise.all(
      Array.from({ length: 30 }, (_, i) => {
        const conv = i % 3 === 0 ? B : A;
        typed.push([conv, `m${i}`]);
        return outbox.enqueue(entry(conv, `m${i}`, `texto ${i}`));
      }),
    );
    await outbox.drain();
    expect(await outbox.waiting()).toBe(30);
    expect(server.stored).toHaveLength(0);
    server.failTimes(0);
    await outbox.kick();
    expect(await outbox.waiting()).toBe(0);
    expect(server.stored.map((m) => m.message_id)).toEqual(typed.map(([, id]) => id));
    for (const conv of [A, B]) {
      expect(server.stored.filter((m) => m.conversation_id === conv).map((m) => m.message_id)).toEqual(
        typed.filter(([c]) => c === conv).map(([, id]) => id),
      );
    }
    expect(await outbox.pendingFor(A)).toEqual([]);
  });

  it('a lost answer keeps the message queued and retries it under the same message_id after the backoff', async () => {
    const db = freshDb();
    const server = fakeServer();
    const timers = manualTimers();
    const queued: string[] = [];
    const sent: string[] = [];
    const outbox = createOutbox({
      db,
      transport: server.transport,
      random: () => 0.5,
      onQueued: (e) => queued.push(e.message_id),
      onSent: (e) => sent.push(e.message_id),
      ...timers,
    });
    server.failTimes(3);
    await outbox.enqueue(entry(A, 'x1', 'um'));
    await outbox.enqueue(entry(A, 'x2', 'dois'));
    await outbox.drain();
    expect(queued).toEqual(['x1']);
    expect(timers.pending.map((t) => t.ms)).toEqual([backoffDelay(1, () => 0.5)]);
    expect(timers.fire()).toBe(750);
    await outbox.drain();
    expect(timers.pending.map((t) => t.ms)).toEqual([1500]); // 2 s ceiling: 1 s fixed + half of the random 1 s
    timers.fire();
    await outbox.drain();
    expect(timers.pending.map((t) => t.ms)).toEqual([3000]);
    // 'online' comes: no need to wait out the backoff.
    await outbox.kick();
    expect(timers.pending).toEqual([]);
    expect(sent).toEqual(['x1', 'x2']);
    expect(server.calls).toEqual(['x1', 'x1', 'x1', 'x1', 'x2']);
    expect(server.stored.map((m) => m.message_id)).toEqual(['x1', 'x2']);
    expect(await outbox.waiting()).toBe(0);
  });

  it('a refusal (the error flag) removes the message and the others go on', async () => {
    const db = freshDb();
    const server = fakeServer();
    const rejected: [string, string][] = [];
    const outbox = createOutbox({
      db,
      transport: server.transport,
      onRejected: (e, err) => rejected.push([e.message_id, (err as Error).message]),
      ...manualTimers(),
    });
    server.refuse(['r2']);
    await outbox.enqueue(entry(A, 'r1', 'um'));
    await outbox.enqueue(entry(A, 'r2', 'dois'));
    await outbox.enqueue(entry(A, 'r3', 'três'));
    await outbox.drain();
    expect(rejected).toEqual([['r2', 'Essa conversa foi finalizada']]);
    expect(server.stored.map((m) => m.message_id)).toEqual(['r1', 'r3']);
    expect(await outbox.waiting()).toBe(0);
  });

  it('a pending answer keeps the entry (the messages behind it go on) until the server has it sent', async () => {
    const db = freshDb();
    const server = fakeServer();
    const timers = manualTimers();
    const sent: [string, number][] = [];
    const pending: string[] = [];
    const outbox = createOutbox({
      db,
      transport: server.transport,
      random: () => 0.5,
      onSent: (e, m) => sent.push([e.message_id, m.status]),
      onPending: (e) => pending.push(e.message_id),
      ...timers,
    });
    // p1's send was cut off by a server kill: the server holds it pending and answers so at once.
    server.holdPending(['p1']);
    await outbox.enqueue(entry(A, 'p1', 'um'));
    await outbox.enqueue(entry(A, 'p2', 'dois'));
    await outbox.drain();
    expect(pending).toEqual(['p1']);
    expect(sent).toEqual([['p2', 1]]);
    expect((await outbox.pendingFor(A)).map((e) => e.message_id)).toEqual(['p1']);
    // Asked again after a wait; a new message does not wait for it.
    expect(timers.pending.map((t) => t.ms)).toEqual([750]);
    await outbox.enqueue(entry(A, 'p3', 'três'));
    await outbox.drain();
    expect(sent).toEqual([
      ['p2', 1],
      ['p3', 1],
    ]);
    expect(await outbox.waiting()).toBe(1);
    // Each pass asked the held one no second time.
    expect(server.calls).toEqual(['p1', 'p2', 'p3']);
    // Still pending at the next look: kept, asked again later (less often).
    expect(timers.fire()).toBe(750);
    await outbox.drain();
    expect(server.calls).toEqual(['p1', 'p2', 'p3', 'p1']);
    expect(await outbox.waiting()).toBe(1);
    expect(timers.pending.map((t) => t.ms)).toEqual([1500]);
    // The server resumed the send: the next look removes it, as sent.
    server.settle('p1', { status: 1, platform_message_id: 'SIM1' });
    timers.fire();
    await outbox.drain();
    expect(sent).toEqual([
      ['p2', 1],
      ['p3', 1],
      ['p1', 1],
    ]);
    expect(await outbox.waiting()).toBe(0);
    expect(timers.pending).toEqual([]);
    expect(server.stored.map((m) => m.message_id)).toEqual(['p1', 'p2', 'p3']);
  });

  it("the socket's message_updated settles a pending entry: 'sent' removes it, 'failed' takes the failure path", async () => {
    const db = freshDb();
    const server = fakeServer();
    const sent: [string, number, string | null][] = [];
    const outbox = createOutbox({
      db,
      transport: server.transport,
      onSent: (e, m) => sent.push([e.message_id, m.status, m.failure]),
      ...manualTimers(),
    });
    server.holdPending(['q1', 'q2']);
    await outbox.enqueue(entry(A, 'q1', 'um'));
    await outbox.enqueue(entry(B, 'q2', 'dois'));
    await outbox.drain();
    expect(await outbox.waiting()).toBe(2);
    // An update that leaves it pending changes nothing.
    await outbox.settled(server.stored[0] as Message);
    expect(await outbox.waiting()).toBe(2);
    await outbox.settled(server.settle('q1', { status: 1 }));
    expect(sent).toEqual([['q1', 1, null]]);
    expect((await outbox.pendingFor(A)).length).toBe(0);
    // Failed: the entry leaves and the failed message (with its reason) goes where a failed answer goes.
    const reason = 'Envio interrompido por uma reinicialização do servidor. Envie novamente.';
    await outbox.settled(server.settle('q2', { status: -1, failure: reason }));
    expect(sent).toEqual([
      ['q1', 1, null],
      ['q2', -1, reason],
    ]);
    expect(await outbox.waiting()).toBe(0);
    // A late repeat of the same news reports nothing twice.
    await outbox.settled(server.settle('q1', { status: 3 }));
    expect(sent).toHaveLength(2);
  });

  it('an attachment waits as a Blob and is uploaded once, however many tries the send takes', async () => {
    const db = freshDb();
    const server = fakeServer();
    let uploads = 0;
    const upload = server.transport.upload;
    server.transport.upload = (...args) => {
      uploads += 1;
      return upload(...args);
    };
    const outbox = createOutbox({ db, transport: server.transport, ...manualTimers() });
    server.failTimes(2);
    // fake-indexeddb's clone does not keep a Blob's bytes (Chromium's IndexedDB does): the test checks the
    // entry's file is kept and uploaded once.
    const blob = new NodeBlob([new Uint8Array([1, 2, 3])], { type: 'image/png' });
    await outbox.enqueue({
      ...entry(A, 'f1', ''),
      file: { blob: blob as unknown as Blob, type: 'image', file_name: 'foto.png' },
    });
    await outbox.drain();
    const [waiting] = await outbox.pendingFor(A);
    expect(waiting?.file).toMatchObject({ type: 'image', file_name: 'foto.png' });
    expect(waiting?.uploaded).toEqual({ type: 'image', url: '/media/foto.png', file_name: 'foto.png' });
    await outbox.kick();
    await outbox.kick();
    expect(uploads).toBe(1);
    expect(server.stored).toHaveLength(1);
  });

  it('a voice note keeps its flag across a reload and is sent as one; an audio file is not', async () => {
    const first = freshDb();
    const offline = fakeServer();
    const before = createOutbox({ db: first, transport: offline.transport, ...manualTimers() });
    offline.failTimes(1);
    const mp3 = new NodeBlob([new Uint8Array([0xff, 0xfb, 0x90])], { type: 'audio/mpeg' });
    const recording = { blob: mp3 as unknown as Blob, type: 'audio' as const, file_name: 'audio.mp3' };
    await before.enqueue({ ...entry(A, 'v1', ''), file: recording, ptt: true });
    const saved = { type: 'audio' as const, url: '/media/recado.mp3', file_name: 'Recado' };
    await before.enqueue({ ...entry(A, 'v2', ''), file: null, uploaded: saved, ptt: true });
    await before.enqueue({ ...entry(A, 'v3', ''), file: { ...recording, file_name: 'musica.mp3' } });
    await before.drain();
    before.stop();
    expect(await before.waiting()).toBe(3);
    first.close();

    // The page reloads: a new outbox on the same database sends what waited.
    // Same name as `first`, which the cleanup deletes (closed here first, so nothing blocks the delete).
    const reopened = openOfflineDb(first.name);
    const server = fakeServer();
    const sent: Parameters<OutboxTransport['send']>[0][] = [];
    const send = server.transport.send;
    server.transport.send = (p) => {
      sent.push(p);
      return send(p);
    };
    const after = createOutbox({ db: reopened, transport: server.transport, ...manualTimers() });
    await after.kick();
    expect(sent.map((p) => [p.message_id, p.media?.ptt])).toEqual([
      ['v1', true],
      ['v2', true],
      ['v3', undefined],
    ]);
    expect(sent[0]?.media).toEqual({
      type: 'audio',
      url: '/media/audio.mp3',
      file_name: 'audio.mp3',
      ptt: true,
    });
    expect(sent[1]?.media).toEqual({ ...saved, ptt: true });
    reopened.close();
  });

  it('backoff grows exponentially to a ceiling, with half of it random', () => {
    expect(backoffDelay(1, () => 0)).toBe(BACKOFF_BASE_MS / 2);
    expect(backoffDelay(1, () => 0.999999)).toBe(BACKOFF_BASE_MS);
    expect(backoffDelay(4, () => 0)).toBe(4000);
    expect(backoffDelay(4, () => 0.999999)).toBe(8000);
    expect(backoffDelay(30, () => 0)).toBe(BACKOFF_MAX_MS / 2);
    expect(backoffDelay(30, () => 0.999999)).toBe(BACKOFF_MAX_MS);
    const spread = new Set(Array.from({ length: 50 }, () => backoffDelay(3)));
    expect(spread.size).toBeGreaterThan(10);
  });

  it('classifies failures: no answer or a gateway retries, a signed-out call holds, the error flag rejects', () => {
    expect(classifyFailure(new ApiError('x', 0))).toBe('retry');
    expect(classifyFailure(new ApiError('x', 503))).toBe('retry');
    expect(classifyFailure(new ApiError('x', 401))).toBe('hold');
    expect(classifyFailure(new ApiError('Essa conversa foi finalizada', 400))).toBe('reject');
    expect(classifyFailure(new ApiError('x', 200))).toBe('reject');
  });
});

describe('local cache', () => {
  const conversation = (id: string) =>
    ({ _id: id, created: new Date().toISOString(), last_message: null }) as unknown as Conversation;

  it('keeps the newest 50 messages per conversation', async () => {
    const db = freshDb();
    const base = Date.UTC(2026, 0, 1);
    await saveMessages(
      db,
      Array.from({ length: 80 }, (_, i) => message(A, `k${i}`, `t${i}`, new Date(base + i * 1000))),
    );
    await saveMessages(db, [message(B, 'b0', 'outra')]);
    const kept = await recentMessages(db, A, 1000);
    expect(kept).toHaveLength(50);
    expect(kept[0]?.message_id).toBe('k30');
    expect(kept.at(-1)?.message_id).toBe('k79');
    expect(await recentMessages(db, B)).toHaveLength(1);
  });

  it('a sign-out wipes everything; another user on the device finds nothing of the first one', async () => {
    const db = freshDb();
    await claimFor(db, 'ana');
    await saveConversations(db, [conversation(A)]);
    await saveMessages(db, [message(A, 'a1', 'oi')]);
    const outbox = createOutbox({ db, transport: fakeServer().transport, ...manualTimers() });
    outbox.stop();
    await outbox.enqueue(entry(A, 'p1', 'pendente'));
    // The same user again: kept.
    await claimFor(db, 'ana');
    expect(await db.conversations.count()).toBe(1);
    expect(await db.outbox.count()).toBe(1);
    // Another user: wiped.
    await claimFor(db, 'bia');
    expect(await db.conversations.count()).toBe(0);
    expect(await db.messages.count()).toBe(0);
    expect(await db.outbox.count()).toBe(0);
    expect((await db.meta.get('owner'))?.value).toBe('bia');
    // Sign-out: wiped, owner too.
    await saveMessages(db, [message(A, 'b1', 'oi')]);
    await wipe(db);
    expect(await db.messages.count()).toBe(0);
    expect(await db.meta.count()).toBe(0);
  });
});

describe('an app update', () => {
  it('opens a database made by the first schema with its outbox and cache kept, and the new index working', async () => {
    const name = `upgrade-${Date.now()}`;
    const old = new Dexie(name);
    old.version(1).stores(V1);
    await old.table('outbox').bulkAdd([
      {
        message_id: 'm1',
        conversation_id: A,
        user_id: 'u',
        text: 'um',
        body: 'um',
        file: null,
        uploaded: null,
        created: '2026-11-21T10:00:00.000Z',
        attempts: 0,
      },
      {
        message_id: 'm2',
        conversation_id: B,
        user_id: 'u',
        text: 'outro',
        body: 'outro',
        file: null,
        uploaded: null,
        created: '2026-11-21T10:00:01.000Z',
        attempts: 0,
      },
      {
        message_id: 'm3',
        conversation_id: A,
        user_id: 'u',
        text: 'dois',
        body: 'dois',
        file: null,
        uploaded: null,
        created: '2026-11-21T10:00:02.000Z',
        attempts: 1,
      },
    ]);
    await old.table('meta').put({ key: 'owner', value: 'u' });
    old.close();

    const db = openOfflineDb(name);
    dbs.push(db);
    expect(db.verno).toBe(2);
    expect(await db.outbox.count()).toBe(3);
    expect((await db.meta.get('owner'))?.value).toBe('u');
    const outbox = createOutbox({ db, transport: fakeServer().transport, ...manualTimers() });
    expect((await outbox.pendingFor(A)).map((e) => e.message_id)).toEqual(['m1', 'm3']);
  });
});
