// The outbox: every message typed on this device is first written here (Dexie), shown at once as pending,
// and sent from here, one at a time in typing order (so each conversation keeps its order), with the
// message_id named on the device. The server stores a message_id once (a unique index; a repeat answers the
// message as it stands), so retrying after a lost answer never duplicates. A network failure keeps the
// message queued and retries after an exponential backoff with jitter, or at once on 'online', on a socket
// reconnect, or on the service worker's Background Sync. A refusal from the server (the envelope's error flag)
// takes the message out and says why (spec 2 §4). An entry leaves only when the server has the message sent
// or failed: a 'pending' answer (stored, its send cut off and being resumed on the server) keeps it, lets the
// messages behind it go on, and is asked again later, or settled by the socket's message_updated.
import Dexie from 'dexie';
import type { FailureKind } from '@/app/lib/api-client';
import { MESSAGE_STATUS, MESSAGE_WAITED_MAX_MS } from '@/shared/constants';
import type { MediaType, Message } from '@/shared/contract/conversations';
import type { OfflineDb, OutboxEntry } from './db';

export type { FailureKind };

/** How long an entry has waited since it was typed, by this device's clock (a duration: no clock skew). */
const waitedSince = (created: string) =>
  Math.min(MESSAGE_WAITED_MAX_MS, Math.max(0, Math.round(Date.now() - Date.parse(created)))) || 0;

export interface OutboxTransport {
  upload(file: Blob, type: MediaType, fileName: string): Promise<{ url: string; file_name: string }>;
  send(payload: {
    conversation_id: string;
    message_id: string;
    text: string;
    media?: { type: MediaType; url: string; file_name: string; ptt?: boolean };
    waited_ms?: number;
  }): Promise<Message>;
  classify(err: unknown): FailureKind;
}

export interface OutboxOptions {
  db: OfflineDb;
  transport: OutboxTransport;
  /** The server has the message sent (or failed, with its reason): the entry is gone. */
  onSent?(entry: OutboxEntry, message: Message): void;
  /** The server has the message, not yet sent: the entry stays until it is sent or failed. */
  onPending?(entry: OutboxEntry, message: Message): void;
  onRejected?(entry: OutboxEntry, err: unknown): void;
  /** A try failed on the way: the entry stays queued for a later one. */
  onQueued?(entry: OutboxEntry, err: unknown): void;
  /** Random in [0, 1) for the jitter (tests pass their own). */
  random?(): number;
  /** Timers (tests pass fake ones). */
  setTimer?(fn: () => void, ms: number): unknown;
  clearTimer?(handle: unknown): void;
}

export const BACKOFF_BASE_MS = 1000;
export const BACKOFF_MAX_MS = 30_000;

/**
 * The wait before try number `attempt + 1` (attempt ≥ 1 failures so far): the exponential ceiling
 * min(max, base × 2^(attempt-1)), of which half is fixed and half is random ("equal jitter"), so many
 * devices coming back at once do not all retry in the same instant, and none retries in a tight loop.
 */
export function backoffDelay(attempt: number, random: () => number = Math.random) {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** `uploaded` is given for a file the server already keeps (a media library item): nothing to upload. */
export type NewEntry = Omit<OutboxEntry, 'seq' | 'attempts' | 'uploaded'> &
  Partial<Pick<OutboxEntry, 'uploaded'>>;

export function createOutbox(opts: OutboxOptions) {
  const { db, transport } = opts;
  const random = opts.random ?? Math.random;
  const setTimer = opts.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = opts.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
  const listeners = new Set<(waiting: number) => void>();
  let timer: unknown = null;
  // The next look at messages the server holds pending (apart from the failures' backoff: new messages
  // still go at once meanwhile).
  let recheck: unknown = null;
  let rechecks = 0;
  // Entries the server answered pending (by seq): a pass skips them, except the one a recheck or a kick asks.
  let held = new Set<number>();
  let askHeld = true;
  let running: Promise<void> | null = null;
  let again = false;
  let failures = 0;
  let stopped = false;
  // Writes go through one chain, so two sends typed in quick succession keep their order.
  let writes: Promise<unknown> = Promise.resolve();

  async function changed() {
    if (listeners.size === 0) return;
    const waiting = await db.outbox.count();
    for (const l of listeners) l(waiting);
  }

  function schedule(ms: number) {
    if (timer !== null) clearTimer(timer);
    timer = setTimer(() => {
      timer = null;
      void drain();
    }, ms);
  }

  function cancelWait() {
    if (timer !== null) clearTimer(timer);
    timer = null;
    if (recheck !== null) clearTimer(recheck);
    recheck = null;
  }

  function scheduleRecheck(ms: number) {
    if (recheck !== null) clearTimer(recheck);
    recheck = setTimer(() => {
      recheck = null;
      askHeld = true;
      void drain();
    }, ms);
  }

  /** Takes a settled message's entry out; answers false when it was already gone (settled elsewhere). */
  async function settle(entry: OutboxEntry, message: Message) {
    const removed = await db.outbox
      .where('seq')
      .equals(entry.seq as number)
      .delete();
    if (removed === 0) return false;
    opts.onSent?.(entry, message);
    void changed();
    return true;
  }

  async function deliver(entry: OutboxEntry): Promise<Message> {
    let media = entry.uploaded ?? undefined;
    if (entry.file && !media) {
      const stored = await transport.upload(entry.file.blob, entry.file.type, entry.file.file_name);
      media = { type: entry.file.type, url: stored.url, file_name: stored.file_name };
      // Uploaded once: a retry sends the same file address.
      await db.outbox.update(entry.seq as number, { uploaded: media });
    }
    return transport.send({
      conversation_id: entry.conversation_id,
      message_id: entry.message_id,
      text: entry.text,
      media: media && entry.ptt ? { ...media, ptt: true } : media,
      // The server keeps the typed time of a send that waited here (offline), by its own clock.
      waited_ms: waitedSince(entry.created),
    });
  }

  /** One pass over the outbox in typing order; answers when it ends or a try fails on the way. */
  async function run() {
    const askAgain = askHeld;
    askHeld = false;
    const stillHeld = new Set<number>();
    let after = 0;
    for (;;) {
      if (stopped) return;
      const entry = await db.outbox.where('seq').above(after).first();
      if (!entry) break;
      const seq = entry.seq as number;
      after = seq;
      if (held.has(seq) && !askAgain) {
        stillHeld.add(seq);
        continue;
      }
      try {
        const message = await deliver(entry);
        failures = 0;
        if (message.status === MESSAGE_STATUS.pending) {
          // Stored, not yet sent: kept (the server resumes its send), and the messages behind it go on.
          stillHeld.add(seq);
          opts.onPending?.(entry, message);
          continue;
        }
        await settle(entry, message);
      } catch (err) {
        const kind = transport.classify(err);
        if (kind === 'reject') {
          await db.outbox.delete(seq);
          opts.onRejected?.(entry, err);
          void changed();
          continue;
        }
        if (kind === 'retry') {
          failures += 1;
          await db.outbox.update(seq, { attempts: entry.attempts + 1 });
          schedule(backoffDelay(failures, random));
        }
        opts.onQueued?.(entry, err);
        askHeld ||= askAgain;
        return;
      }
    }
    // A whole pass went through: the failures' backoff starts over.
    failures = 0;
    held = stillHeld;
    if (held.size === 0) {
      rechecks = 0;
      return;
    }
    // Asked again later, less often each time (the socket's message_updated usually settles it first).
    if (askAgain || recheck === null) {
      rechecks += 1;
      scheduleRecheck(backoffDelay(rechecks, random));
    }
  }

  /**
   * Sends what waits, in order; a call while sending makes the loop look again when it ends. While a backoff
   * wait runs, only a kick (or the wait's end) tries again: a new message does not cut the wait short.
   */
  function drain(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    if (timer !== null) return Promise.resolve();
    running = (async () => {
      try {
        do {
          again = false;
          await writes;
          await run();
        } while (again && timer === null && !stopped);
      } finally {
        running = null;
      }
    })();
    return running;
  }

  return {
    /** Writes a new message to the outbox (in call order) and starts sending. */
    async enqueue(entry: NewEntry): Promise<OutboxEntry> {
      const full: OutboxEntry = { ...entry, attempts: 0, uploaded: entry.uploaded ?? null };
      const write = writes.then(() => db.outbox.add(full));
      writes = write.catch(() => undefined);
      full.seq = (await write) as number;
      void changed();
      void drain();
      return full;
    },
    /** Try now (online again, socket reconnected, Background Sync): the backoff wait is cut short. */
    async kick() {
      stopped = false;
      askHeld = true;
      cancelWait();
      // A kick while a try is on the way: look again once it ends, without the wait.
      if (running) {
        await running;
        askHeld = true;
        cancelWait();
      }
      return drain();
    },
    drain,
    /**
     * The server's news of a message (the socket's message_updated): sent or failed, its entry leaves the
     * outbox as if a send had answered it; pending changes nothing.
     */
    async settled(message: Message) {
      if (!message.message_id || message.status === MESSAGE_STATUS.pending) return;
      const entry = await db.outbox.where('message_id').equals(message.message_id).first();
      if (entry) await settle(entry, message);
    },
    /** Messages still waiting for one conversation, in typing order. */
    pendingFor: (conversationId: string) =>
      db.outbox
        .where('[conversation_id+seq]')
        .between([conversationId, Dexie.minKey], [conversationId, Dexie.maxKey])
        .toArray(),
    waiting: () => db.outbox.count(),
    subscribe(listener: (waiting: number) => void) {
      listeners.add(listener);
      void changed();
      return () => {
        listeners.delete(listener);
      };
    },
    /** Stops retrying (sign-out); a kick starts again. */
    stop() {
      stopped = true;
      cancelWait();
    },
    /** Consecutive failures so far (the backoff's exponent). */
    get failures() {
      return failures;
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;
