// The job queue as the rest of the server sees it: queue a job, now or later, in a transaction or not. The
// runner (runner.ts, on pg-boss) implements it and app.ts hands it over in Services; this file imports no
// domain code, so Services does not close an import circle through the jobs that call the domains.
import type { Db } from '../db';

export interface SendOptions {
  /** Not before this moment. */
  startAfter?: Date;
  /**
   * Makes the job unique: a second send with the same key, while the first is still in the queue, adds nothing
   * (a retried request, a replayed notification).
   */
  key?: string;
  /** Queue it in this transaction: it exists exactly when the transaction's rows do. */
  tx?: Db;
}

export interface JobQueue {
  send<T extends object>(name: string, data: T, opts?: SendOptions): Promise<void>;
  /** Queues many at once (one statement). */
  sendMany<T extends object>(
    name: string,
    jobs: { data: T; opts?: Omit<SendOptions, 'tx'> }[],
  ): Promise<void>;
  /**
   * A job queued in a transaction that has now committed is due: its workers look at once rather than at
   * their next poll (a flow started by a webhook answers within milliseconds, not half a second).
   */
  wake(name: string): void;
}
