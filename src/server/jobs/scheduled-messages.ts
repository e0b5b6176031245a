// The scheduled-messages job (spec 2 §2.4): sends each message at its scheduledTo through the chip's adapter,
// by the same send path as the service screen, and marks it sent or error.
//
// One runner job per message (src/server/jobs/runner.ts), queued with the row in one transaction and due at its
// scheduledTo. Exactly once, in three parts:
// - The job claims its row in one UPDATE (status 'sending', a lease) only if the row is still due: two
//   processes never take the same row, and a job left by an edit to another time, or for a deleted message,
//   claims nothing.
// - A process that dies after claiming leaves the lease to run out: its job is retried by the runner (and a
//   restart's adopt step runs whatever is due), and takes the row again: a due message is never skipped.
// - The send uses the message_id `sched-<id>`: the send path stores one message per message_id and calls the
//   provider once for it, so a re-send after a crash between the provider call and the status update finds
//   the first send and only reads its outcome: a message is never sent twice.
import { MESSAGE_STATUS } from '../../shared/constants';
import { messages as texts } from '../../shared/messages';
import { systemActor } from '../access';
import type { Db } from '../db';
import { sendConversationMessage } from '../domains/conversations/conversations.service';
import { contactByPhone, openTeamConversation } from '../domains/conversations/open-conversation';
import { loadConversation } from '../domains/conversations/present';
import { flowsRepo } from '../domains/flows/flows.repo';
import { startFlowRun } from '../domains/flows/start';
import {
  type ScheduledMessageRow as Row,
  scheduledJobRows,
} from '../domains/scheduled-messages/scheduled-messages.repo';
import { usersRepo } from '../domains/users/users.repo';
import { AppError } from '../http/errors';
import type { Services } from '../services';
import type { JobKind } from './runner';

export interface SchedulerOptions {
  /** How long a claim holds a row: after it, another claim may take the row again. */
  leaseMs?: number;
  /** Rows claimed at once. */
  batch?: number;
  /** Sends in flight at once. */
  concurrency?: number;
}

const DEFAULTS = { leaseMs: 90_000, batch: 100, concurrency: 8 } satisfies SchedulerOptions;

/** The message_id the send path dedupes on: one provider send per scheduled message, however often retried. */
export const scheduledMessageId = (id: string) => `sched-${id}`;

/** Claims up to `limit` rows due at `now` (or whose claim has run out), oldest first. */
export const claimDue = (db: Db, now: Date, leaseMs = DEFAULTS.leaseMs, limit = DEFAULTS.batch) =>
  scheduledJobRows.claimDue(db, now, leaseMs, limit);

/** The sender and chip of a batch's rows, looked up once per batch (many rows share them). */
type Lookups = Map<string, Promise<unknown>>;
const once = <T>(lookups: Lookups, key: string, load: () => Promise<T>): Promise<T> => {
  let found = lookups.get(key) as Promise<T> | undefined;
  if (!found) {
    found = load();
    lookups.set(key, found);
  }
  return found;
};

/** Sends one claimed row and records the outcome; answers the status it set. */
export async function deliver(
  services: Services,
  row: Row,
  lookups: Lookups = new Map(),
): Promise<'sent' | 'error' | 'sending'> {
  let status: 'sent' | 'error';
  let failure: string | null = null;
  try {
    const message = await send(services, row, lookups);
    // Still being sent (a send cut off by a crash, resumed by the send sweep): the row stays claimed, and
    // the next claim after this lease reads the outcome.
    if (message.status === MESSAGE_STATUS.pending) return 'sending';
    if (message.status >= MESSAGE_STATUS.sent) status = 'sent';
    else {
      status = 'error';
      failure = message.failure ?? texts.providerFailed;
    }
  } catch (err) {
    status = 'error';
    failure = err instanceof AppError ? err.message : texts.scheduleSendFailed;
    if (!(err instanceof AppError)) services.log.error({ err, id: row.id }, 'scheduled message not sent');
  }
  await scheduledJobRows.settle(services.db, row.id, status, failure);
  return status;
}

async function send(services: Services, row: Row, lookups: Lookups) {
  const { db, realtime } = services;
  const found = await once(lookups, `user:${row.userId}`, () => usersRepo.findById(db, row.userId));
  if (!found || found.user.filed) throw new AppError(texts.scheduleSendFailed);
  const chip = await once(lookups, `chip:${row.chipId}`, () =>
    scheduledJobRows.chipOf(db, systemActor(row.accountId, 'scheduler'), row.chipId),
  );
  if (!chip) throw new AppError(texts.notFound);
  const contact = await contactByPhone(db, row.accountId, row.to);
  const { conversation, created } = await openTeamConversation(db, chip, contact.id, chip.departmentId);
  if (created) {
    const view = await loadConversation(db, conversation.id);
    if (view)
      realtime.toConversation(row.accountId, view.department, { type: 'new_conversation', message: view });
  }
  if (row.type === 'flow' && !row.template) return handToFlow(services, row, conversation.id);
  // The job acts as the system of the row's account; the message is attributed to whoever scheduled it.
  return sendConversationMessage({ services, actor: systemActor(row.accountId, 'scheduler') }, found.user, {
    conversation_id: conversation.id,
    message_id: scheduledMessageId(row.id),
    text: row.message,
    ...(row.template && { template: row.template }),
  });
}

/**
 * A scheduled flow: the conversation is handed to the flow, to run from its beginning. A flow deleted since
 * it was scheduled is an error on the row, with the reason.
 */
async function handToFlow(services: Services, row: Row, conversationId: string) {
  const flow = row.flowId
    ? await flowsRepo.find(services.db, systemActor(row.accountId, 'scheduler'), row.flowId)
    : null;
  if (!flow) throw new AppError(texts.flowNotFound);
  // The row is marked sent in the start's transaction: a retry after a crash claims nothing, never a second run.
  await startFlowRun(services, conversationId, flow.id, (tx) =>
    scheduledJobRows.settle(tx, row.id, 'sent', null),
  );
  return { status: MESSAGE_STATUS.sent, failure: null };
}

/** Claims and sends everything due at `now`; answers how many rows it handled. */
export async function runDue(services: Services, now = new Date(), opts: SchedulerOptions = {}) {
  const o = { ...DEFAULTS, ...opts };
  let handled = 0;
  for (;;) {
    const claimed = await claimDue(services.db, now, o.leaseMs, o.batch);
    const queue = [...claimed];
    const lookups: Lookups = new Map();
    await Promise.all(
      Array.from({ length: Math.min(o.concurrency, queue.length) }, async () => {
        for (let row = queue.shift(); row; row = queue.shift()) await deliver(services, row, lookups);
      }),
    );
    handled += claimed.length;
    if (claimed.length < o.batch) return handled;
    now = new Date();
  }
}

/** The runner's job for one scheduled message, queued for its scheduledTo. */
export interface ScheduledMessageJob {
  id: string;
}

export const SCHEDULED_MESSAGE_JOB = 'scheduled-message';

/** The job's key: one job per (message, time); an edit to another time queues another one. */
const jobKey = (row: Pick<Row, 'id' | 'scheduledTo'>) => `${row.id}@${row.scheduledTo.getTime()}`;

/**
 * Queues the send of a scheduled message at its time; called in the transaction that creates or edits it, so
 * the row never exists without its job. A job left by an older time, or for a deleted message, claims nothing.
 */
export function queueScheduledMessage(services: Services, tx: Db, row: Pick<Row, 'id' | 'scheduledTo'>) {
  return services.jobs.send<ScheduledMessageJob>(
    SCHEDULED_MESSAGE_JOB,
    { id: row.id },
    { startAfter: row.scheduledTo, key: jobKey(row), tx },
  );
}

/** How long a job waits for a row another run is sending before it leaves it to a retry. */
const CLAIMED_ELSEWHERE_WAIT_MS = 10_000;

/** Sends one scheduled message if it is due and nobody else has it; answers whether it did. */
export async function runScheduledMessage(services: Services, id: string, opts: SchedulerOptions = {}) {
  const o = { ...DEFAULTS, ...opts };
  const row = await scheduledJobRows.claimOne(services.db, id, o.leaseMs);
  if (row) {
    // Its message is still being sent (a send cut off by a crash, resumed by the send path): the outcome is
    // read again by a retry once this claim has run out.
    if ((await deliver(services, row)) === 'sending') throw new Error('scheduled message still being sent');
    return true;
  }
  // Claimed by another run (the start's adopt step, another process): most finish within moments, and then
  // there is nothing to retry. One that stays claimed (a process that died) is tried again once its claim has
  // run out.
  const settleBy = Date.now() + CLAIMED_ELSEWHERE_WAIT_MS;
  while ((await scheduledJobRows.statusOf(services.db, id)) === 'sending') {
    if (Date.now() >= settleBy) throw new Error('scheduled message claimed elsewhere; retried later');
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

/**
 * At start: sends what fell due while no server ran (or was claimed by one that died), and queues a job for
 * every waiting row that has none (rows from before the runner; a job's key makes this a no-op otherwise).
 */
export async function adoptScheduledMessages(services: Services) {
  await runDue(services);
  const waiting = await scheduledJobRows.waiting(services.db);
  await services.jobs.sendMany<ScheduledMessageJob>(
    SCHEDULED_MESSAGE_JOB,
    waiting.map((row) => ({ data: { id: row.id }, opts: { startAfter: row.scheduledTo, key: jobKey(row) } })),
  );
}

export const scheduledMessageJob: JobKind<ScheduledMessageJob> = {
  name: SCHEDULED_MESSAGE_JOB,
  run: async (data, services) => {
    await runScheduledMessage(services, data.id);
  },
  // Due messages are looked for twice a second, many at once (a campaign's minute holds hundreds).
  pollSeconds: 0.5,
  batchSize: DEFAULTS.batch,
  concurrency: DEFAULTS.concurrency,
  // A claim holds for leaseMs: a run killed mid-send is retried after it has run out.
  expireInSeconds: Math.ceil((DEFAULTS.leaseMs * 2) / 1000),
  retryLimit: 20,
  retryDelaySeconds: Math.ceil(DEFAULTS.leaseMs / 1000),
};

export const adoptScheduledMessagesJob: JobKind = {
  name: 'scheduled-messages-adopt',
  atStart: true,
  retryLimit: 3,
  run: (_data, services) => adoptScheduledMessages(services),
};

/**
 * Every minute: what another process claimed and then died with (its jobs wait out pg-boss's expiry, then a
 * retry: minutes), or a job that never came, is sent once its claim has run out. Exactly once all the same:
 * the rows are claimed in SQL, and a row's own job finds it sent.
 */
export const scheduledMessagesSweepJob: JobKind = {
  name: 'scheduled-messages-sweep',
  every: '* * * * *',
  retryLimit: 0,
  run: async (_data, services) => {
    await runDue(services);
  },
};
