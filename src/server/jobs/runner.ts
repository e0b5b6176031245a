// The one durable job runner of the server: every background job (scheduled messages, the send sweep,
// housekeeping, media downloads, and next the flows, chatbots, campaigns and follow-ups) is a pg-boss job.
// pg-boss keeps its queues in the database (schema `pgboss`): on PostgreSQL through the server's pool, on the
// embedded PGlite through the same client as everything else, so both run the same runner.
//
// What that gives:
// - A job survives a kill: it is a row. A job that was running when the process died is taken again once its
//   `expireInSeconds` has passed (pg-boss's maintenance fails it and it is retried).
// - One process takes each job (a claim with FOR UPDATE SKIP LOCKED), however many servers share a database.
//   A retried job may run again after a crash, so every handler is written to be safe to repeat: the row it is
//   about is claimed or checked in SQL, and sends dedupe on their message_id.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { ExecuteSql } from '../db';
import { executeSqlOn } from '../db';
import type { Services } from '../services';
import type { JobQueue } from './port';

/** A kind of job: its queue, how it is retried, and what it does. */

// pg-boss records a batch's outcome after its handler returns without awaiting or catching it (manager.js
// onFetch calls this.complete() and this.fail() bare, on its internal Manager): a database restart at that
// moment was an unhandled rejection, and the process died. The Manager's two methods are wrapped once, before
// any boss exists, to report the failure as the boss's 'error' (logged) instead; an outcome not written leaves
// the job to its expiry, which runs it again, and every job is idempotent.
const manager = createRequire(import.meta.url)('pg-boss/src/manager.js') as {
  prototype: Record<'complete' | 'fail', (...args: unknown[]) => Promise<unknown>> & {
    emit(event: 'error', err: unknown): void;
  };
};
for (const method of ['complete', 'fail'] as const) {
  const record = manager.prototype[method];
  manager.prototype[method] = async function (this: typeof manager.prototype, ...args: unknown[]) {
    try {
      return await record.apply(this, args);
    } catch (err) {
      this.emit('error', err);
      return undefined;
    }
  };
}

export interface JobKind<T extends object = object> {
  name: string;
  /**
   * Does one job. Throwing retries it later (after `retryDelaySeconds`, doubled each time), at most
   * `retryLimit` times. It may run again after a crash: it must be safe to repeat.
   */
  run(data: T, services: Services): Promise<void>;
  /** A cron expression (UTC): the job is also queued on that schedule, once for all processes. */
  every?: string;
  /** Also queued once at each start (what a restart may have left waits no longer than that). */
  atStart?: boolean;
  /** How often an idle worker looks for due jobs (default 2 s; 0.5 s at least). */
  pollSeconds?: number;
  /** Jobs taken at once, and how many of them run at the same time. */
  batchSize?: number;
  concurrency?: number;
  /**
   * Workers of this process, each taking its own batches (default 1). A worker takes its next batch only once
   * the whole batch is done: jobs that mostly wait (an AI chatbot's answer) need several, so that one long job
   * does not hold back a job due meanwhile.
   */
  workers?: number;
  /** How long one run may take; after it the job counts as failed (and is retried). */
  expireInSeconds?: number;
  retryLimit?: number;
  retryDelaySeconds?: number;
}

/** The queue the domains see (port.ts), and what app.ts does with the runner: define, start, stop, check. */
export interface JobRunner extends JobQueue {
  /** Adds a kind of job; before or after start(). */
  define<T extends object>(kind: JobKind<T>): Promise<void>;
  start(): Promise<void>;
  /** Stops taking jobs and waits for those running, at most `STOP_WAIT_MS`. */
  stop(): Promise<void>;
  /** Running (started, not stopping) and its queues readable in the database: for GET /health. */
  healthy(): Promise<boolean>;
}

/**
 * A running job still running after this at shutdown is left behind: pg-boss marks it failed and it is retried
 * (a send stuck at a provider must not hold the server's shutdown).
 */
const STOP_WAIT_MS = 5000;

/**
 * On the embedded database one process holds the queues, so this runner sees every job arrive: it wakes the
 * workers when a job is queued, falls due, is retried or was left by the last run, and the poll is only a net
 * (a cron job, an expired one). Polling each queue every 0.5-2 s instead cost 17 fetches a second of PGlite
 * while idle, a quarter of the idle server's CPU.
 */
const SOLE_PROCESS_POLL_SECONDS = 10;
/** A job queued in a transaction is due once that commits: its workers look again after these delays. */
const AFTER_COMMIT_WAKES_MS = [50, 500, 2000];

/** A job id made from its key: pg-boss inserts jobs with ON CONFLICT DO NOTHING on (queue, id). */
function idOf(name: string, key: string) {
  const h = createHash('sha256').update(`${name}\u0000${key}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

export function createJobRunner(deps: {
  executeSql: ExecuteSql;
  log: FastifyBaseLogger;
  services: () => Services;
  /** No other process shares the queues (the embedded database): wake-ups replace most of the polling. */
  soleProcess?: boolean;
}): JobRunner {
  const { log } = deps;
  const boss = new PgBoss({
    db: { executeSql: (text, values) => deps.executeSql(text, values) },
    // Completed jobs are kept a day for support, then archived; the archive a week.
    archiveCompletedAfterSeconds: 24 * 60 * 60,
    deleteAfterDays: 7,
  });
  boss.on('error', (err: unknown) => log.warn({ err }, 'job runner error'));
  const kinds = new Map<string, JobKind>();
  const workers = new Map<string, string[]>();
  let started = false;

  // A worker looks for due jobs every `pollSeconds`; a job this process queued for a later moment also wakes
  // its worker at that moment (a scheduled message goes out on time, not up to a poll later).
  const wakes = new Map<string, { at: number[]; timer: NodeJS.Timeout | null }>();
  function wakeAt(name: string, at: number) {
    const w = wakes.get(name) ?? { at: [], timer: null };
    wakes.set(name, w);
    // 50 ms buckets: a minute of messages needs at most 1,200 wake-ups.
    const bucket = Math.ceil(at / 50) * 50;
    const i = w.at.findIndex((t) => t >= bucket);
    if (w.at[i] === bucket) return;
    w.at.splice(i < 0 ? w.at.length : i, 0, bucket);
    if (i === 0 || w.at.length === 1) arm(name, w);
  }
  function arm(name: string, w: { at: number[]; timer: NodeJS.Timeout | null }) {
    if (w.timer) clearTimeout(w.timer);
    w.timer = null;
    const next = w.at[0];
    if (next === undefined || !started) return;
    w.timer = setTimeout(
      () => {
        while (w.at[0] !== undefined && w.at[0] <= Date.now()) w.at.shift();
        for (const worker of workers.get(name) ?? []) boss.notifyWorker(worker);
        arm(name, w);
      },
      // pg-boss takes a job once start_after < now(): a few ms after it.
      Math.max(0, next - Date.now() + 5),
    );
    w.timer.unref();
  }

  // Every queue exists before any worker runs: a job taken at once (one a killed process left) may queue a job
  // of a later kind, and pg-boss refuses a job whose queue has no partition yet ("no partition of relation
  // job found for row").
  async function createQueueOf(kind: JobKind) {
    const queue = {
      retryLimit: kind.retryLimit ?? 5,
      retryDelay: kind.retryDelaySeconds ?? 30,
      retryBackoff: true,
      expireInSeconds: kind.expireInSeconds ?? 15 * 60,
    };
    await boss.createQueue(kind.name, { name: kind.name, ...queue });
    // An existing queue keeps what it was made with: the code's settings win.
    await boss.updateQueue(kind.name, { name: kind.name, ...queue });
    if (kind.every) await boss.schedule(kind.name, kind.every, {});
    else await boss.unschedule(kind.name);
  }

  async function startWorkers(kind: JobKind) {
    const concurrency = Math.max(1, kind.concurrency ?? 1);
    const ids: string[] = [];
    const batchSize = kind.batchSize ?? concurrency;
    for (let i = 0; i < Math.max(1, kind.workers ?? 1); i++) {
      let worker = '';
      worker = await boss.work<object>(
        kind.name,
        {
          batchSize,
          pollingIntervalSeconds: Math.max(
            kind.pollSeconds ?? 2,
            deps.soleProcess ? SOLE_PROCESS_POLL_SECONDS : 0,
          ),
        },
        async (jobs) => {
          await track(runBatch(kind, concurrency, jobs));
          // A full batch: more are likely waiting. pg-boss would wait out the poll interval after every batch
          // (a backlog drained at batchSize per interval); the worker looks again at once instead.
          if (jobs.length >= batchSize && worker) boss.notifyWorker(worker);
        },
      );
      ids.push(worker);
    }
    workers.set(kind.name, ids);
    if (kind.atStart) await boss.send(kind.name, {});
  }

  // pg-boss records a batch's outcome after its handler returns, without waiting for it: the stop lets those
  // writes reach the database before it closes (a late one would fail on a closed pool, unhandled).
  const running = new Set<Promise<void>>();
  function track(batch: Promise<void>) {
    running.add(batch);
    return batch.finally(() => running.delete(batch));
  }

  async function runBatch(kind: JobKind, concurrency: number, jobs: { id: string; data: object }[]) {
    const queue = [...jobs];
    await Promise.all(
      Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
        for (let job = queue.shift(); job; job = queue.shift()) {
          try {
            await kind.run(job.data, deps.services());
          } catch (err) {
            // This job only: the others of the batch are completed by pg-boss when the handler returns.
            log.warn({ err, job: kind.name, id: job.id }, 'job failed; it will be retried');
            // If this cannot be written (the database going away), the job's expiry retries it anyway.
            await boss
              .fail(kind.name, job.id, err instanceof Error ? { message: err.message } : {})
              .then(() => (deps.soleProcess ? wakeAtRetry(kind.name, job.id) : undefined))
              .catch((failErr: unknown) =>
                log.warn({ err: failErr, job: kind.name }, 'job failure not recorded'),
              );
          }
        }
      }),
    );
  }

  /** Wakes the worker when a job queued by this process falls due within the hour (later ones are polled). */
  function remember(name: string, startAfter: Date | undefined) {
    const at = startAfter?.getTime();
    if (at !== undefined && at > Date.now() && at - Date.now() < 60 * 60 * 1000) wakeAt(name, at);
  }

  /** A failed job is retried at the time pg-boss drew (its backoff has a random part): wake then. */
  async function wakeAtRetry(name: string, id: string) {
    const job = (await boss.getJobById(name, id)) as { state?: string; startAfter?: Date } | null;
    if (job?.state === 'retry') remember(name, job.startAfter);
  }

  /** What the last run of this process left due within the hour: its workers wake then (sole process). */
  async function rememberLeftJobs() {
    const { rows } = await deps.executeSql(
      `select name, start_after from pgboss.job
        where state in ('created', 'retry') and start_after > now() and start_after < now() + interval '1 hour'`,
      [],
    );
    for (const row of rows) remember(String(row.name), new Date(row.start_after as string));
  }

  return {
    async define(kind) {
      kinds.set(kind.name, kind as unknown as JobKind);
      if (!started) return;
      await createQueueOf(kind as unknown as JobKind);
      await startWorkers(kind as unknown as JobKind);
    },
    async start() {
      await boss.start();
      started = true;
      for (const kind of kinds.values()) await createQueueOf(kind);
      for (const kind of kinds.values()) await startWorkers(kind);
      if (deps.soleProcess) await rememberLeftJobs();
    },
    async send(name, data, opts = {}) {
      await boss.send(name, data, {
        ...(opts.startAfter && { startAfter: opts.startAfter }),
        ...(opts.key && { id: idOf(name, opts.key) }),
        ...(opts.tx && { db: { executeSql: executeSqlOn(opts.tx) } }),
      });
      remember(name, opts.startAfter);
      const dueNow = !(opts.startAfter && opts.startAfter.getTime() > Date.now());
      // Due now and already committed: its worker looks at once, not up to a poll later (a flow's answer).
      if (started && dueNow && !opts.tx)
        for (const worker of workers.get(name) ?? []) boss.notifyWorker(worker);
      // In a transaction it is due once that commits, which this runner does not see.
      if (dueNow && opts.tx && deps.soleProcess)
        for (const ms of AFTER_COMMIT_WAKES_MS) wakeAt(name, Date.now() + ms);
    },
    async sendMany(name, jobs) {
      if (!jobs.length) return;
      await boss.insert(
        jobs.map(({ data, opts = {} }) => ({
          name,
          data,
          ...(opts.startAfter && { startAfter: opts.startAfter }),
          ...(opts.key && { id: idOf(name, opts.key) }),
        })),
      );
      for (const job of jobs) remember(name, job.opts?.startAfter);
      if (started && jobs.some((j) => !(j.opts?.startAfter && j.opts.startAfter.getTime() > Date.now())))
        for (const worker of workers.get(name) ?? []) boss.notifyWorker(worker);
    },
    wake(name) {
      if (started) for (const worker of workers.get(name) ?? []) boss.notifyWorker(worker);
    },
    async healthy() {
      if (!started) return false;
      await deps.executeSql('select count(*) from pgboss.queue', []);
      return started;
    },
    async stop() {
      if (!started) return;
      started = false;
      for (const w of wakes.values()) if (w.timer) clearTimeout(w.timer);
      wakes.clear();
      await boss.stop({ graceful: true, wait: true, timeout: STOP_WAIT_MS, close: false });
      // A batch still running after the wait gets as long again; then pg-boss's own writes go out first.
      await Promise.race([Promise.allSettled([...running]), new Promise((r) => setTimeout(r, STOP_WAIT_MS))]);
      await new Promise((r) => setTimeout(r, 10));
    },
  };
}
