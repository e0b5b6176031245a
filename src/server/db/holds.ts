// How long each operation holds the embedded database (issue 37). PGlite has one connection and runs one query or
// one transaction at a time: while one holds it, every other request of the server waits. The meter times each
// hold from taking the connection to giving it back (a transaction from BEGIN to COMMIT), so a bench or a test
// can read the longest. It queues the operations itself, in the order they come as PGlite's own lock does, which
// leaves that lock always free: the time a hold starts is then known.
import { performance } from 'node:perf_hooks';
import type { PGlite, Transaction } from '@electric-sql/pglite';

/** One hold: how long, and what held it (the statement; for a transaction, its slowest statement). */
export interface Hold {
  ms: number;
  what: string;
}

export interface HoldMeter {
  /** The longest hold since the start or the last reset. */
  longest(): Hold | null;
  reset(): void;
  /** Calls `see` with every hold from now on; the answer stops it. */
  watch(see: (hold: Hold) => void): () => void;
}

/** A statement as a short line: enough to tell which one it was. */
const brief = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 160);

/** Queues `client`'s queries, scripts and transactions and times each hold; answers the meter. */
export function meterHolds(client: PGlite): HoldMeter {
  let longest: { ms: number; text: string } | null = null;
  const watchers = new Set<(hold: Hold) => void>();
  let tail: Promise<unknown> = Promise.resolve();

  const held = (ms: number, text: string) => {
    if (!longest || ms > longest.ms) longest = { ms, text };
    for (const see of watchers) see({ ms, what: brief(text) });
  };
  /** Runs `hold` when every operation asked before it has given the connection back. */
  const exclusive = <T>(hold: (timed: (text: string) => void) => Promise<T>): Promise<T> => {
    const run = tail.then(async () => {
      let text = '';
      const start = performance.now();
      try {
        return await hold((t) => {
          text = t;
        });
      } finally {
        held(performance.now() - start, text);
      }
    });
    tail = run.catch(() => undefined);
    return run;
  };

  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  const transaction = client.transaction.bind(client);
  Object.assign(client, {
    query: (text: string, params?: unknown[], options?: Parameters<PGlite['query']>[2]) =>
      exclusive((timed) => {
        timed(text);
        return query(text, params, options);
      }),
    exec: (text: string, options?: Parameters<PGlite['exec']>[1]) =>
      exclusive((timed) => {
        timed(text);
        return exec(text, options);
      }),
    transaction: <T>(callback: (tx: Transaction) => Promise<T>) =>
      exclusive((timed) =>
        transaction((tx) => {
          // The transaction's slowest statement names it.
          let slowest = -1;
          const time =
            <A extends unknown[], R>(run: (text: string, ...rest: A) => Promise<R>) =>
            async (text: string, ...rest: A) => {
              const start = performance.now();
              try {
                return await run(text, ...rest);
              } finally {
                const ms = performance.now() - start;
                if (ms > slowest) {
                  slowest = ms;
                  timed(`transaction: ${text}`);
                }
              }
            };
          // In place: the transaction's other members (closed, rollback) stay as they are.
          Object.assign(tx, { query: time(tx.query), exec: time(tx.exec) });
          return callback(tx);
        }),
      ),
  });

  return {
    longest: () => (longest ? { ms: longest.ms, what: brief(longest.text) } : null),
    reset: () => {
      longest = null;
    },
    watch(see) {
      watchers.add(see);
      return () => watchers.delete(see);
    },
  };
}
