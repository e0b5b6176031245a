// The outbox: every message typed on this device is first written here (Dexie), shown at once as pending,
// and sent from here, one at a time in typing order (so each conversation keeps its order), with the
// message_id named on the device. The server stores a message_id once (a unique index; a repeat answers the
// first send's result), so retrying after a lost answer never duplicates. A network failure keeps the
// message queued and retries after an exponential backoff with jitter, or at once on 'online', on a socket
// reconnect, or on the service worker's Background Sync. A refusal from the server (the envelope's error flag)
// takes the message out and says why (spec 2 §4).
import Dexie from 'dexie';
import type { MediaType, Message } from '../../shared/contract/conversations';
import type { OfflineDb, OutboxEntry } from './db';

/** What to do with a failed try: retry later, give up on the message, or wait for a kick (signed out). */
export type FailureKind = 'retry' | 'reject' | 'hold';

export interface OutboxTransport {
  upload(file: Blob, type: MediaType, fileName: string): Promise<{ url: string; file_name: string }>;
  send(payload: {
    conversation_id: string;
    message_id: string;
    text: string;
    media?: { type: MediaType; url: string; file_name: string; ptt?: boolean };
  }): Promise<Message>;
  classify(err: unknown): FailureKind;
}

export interface OutboxOptions {
  db: OfflineDb;
  transport: OutboxTransport;
  onSent?(entry: OutboxEntry, message: Message): void;
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
    });
  }

  async function run() {
    for (;;) {
      if (stopped) return;
      const entry = await db.outbox.orderBy('seq').first();
      if (!entry) {
        failures = 0;
        return;
      }
      try {
        const message = await deliver(entry);
        await db.outbox.delete(entry.seq as number);
        failures = 0;
        opts.onSent?.(entry, message);
        void changed();
      } catch (err) {
        const kind = transport.classify(err);
        if (kind === 'reject') {
          await db.outbox.delete(entry.seq as number);
          opts.onRejected?.(entry, err);
          void changed();
          continue;
        }
        if (kind === 'retry') {
          failures += 1;
          await db.outbox.update(entry.seq as number, { attempts: entry.attempts + 1 });
          schedule(backoffDelay(failures, random));
        }
        opts.onQueued?.(entry, err);
        return;
      }
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
      cancelWait();
      // A kick while a try is on the way: look again once it ends, without the wait.
      if (running) {
        await running;
        cancelWait();
      }
      return drain();
    },
    drain,
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
