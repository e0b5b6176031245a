// The scheduled-messages job (spec 2 §2.4): sends each message at its scheduledTo through the chip's adapter,
// by the same send path as the service screen, and marks it sent or error.
//
// Crash safety, in two parts:
// - A due row is claimed in one UPDATE (status 'sending', a lease, FOR UPDATE SKIP LOCKED), so two processes
//   never take the same row. A process that dies after claiming leaves the lease to run out; the next claim
//   (this process after a restart, or another one) takes the row again: a due message is never skipped.
// - The send uses the message_id `sched-<id>`: the send path stores one message per message_id and calls the
//   provider once for it, so a re-send after a crash between the provider call and the status update finds
//   the first send and only reads its outcome: a message is never sent twice.
import { and, asc, eq, inArray, lte, or, sql } from 'drizzle-orm';
import { MESSAGE_STATUS } from '../../shared/constants';
import { messages as texts } from '../../shared/messages';
import { userActor } from '../access';
import type { Db } from '../db';
import { chips, scheduledMessages } from '../db/schema';
import { sendConversationMessage } from '../domains/conversations/conversations.service';
import { contactByPhone, openTeamConversation } from '../domains/conversations/open-conversation';
import { loadConversation } from '../domains/conversations/present';
import { usersRepo } from '../domains/users/users.repo';
import type { SignedInContext } from '../http/context';
import { AppError } from '../http/errors';
import type { Services } from '../services';

type Row = typeof scheduledMessages.$inferSelect;

export interface SchedulerOptions {
  /** Longest wait between two looks at the table. */
  pollMs?: number;
  /** How long a claim holds a row: after it, another claim may take the row again. */
  leaseMs?: number;
  /** Rows claimed at once. */
  batch?: number;
  /** Sends in flight at once. */
  concurrency?: number;
}

const DEFAULTS = { pollMs: 500, leaseMs: 90_000, batch: 100, concurrency: 8 } satisfies SchedulerOptions;

/** The message_id the send path dedupes on: one provider send per scheduled message, however often retried. */
export const scheduledMessageId = (id: string) => `sched-${id}`;

/** Claims up to `limit` rows due at `now` (or whose claim has run out), oldest first. */
export async function claimDue(db: Db, now: Date, leaseMs = DEFAULTS.leaseMs, limit = DEFAULTS.batch) {
  const due = db
    .select({ id: scheduledMessages.id })
    .from(scheduledMessages)
    .where(
      and(
        eq(scheduledMessages.filed, false),
        or(
          and(eq(scheduledMessages.status, 'scheduled'), lte(scheduledMessages.scheduledTo, now)),
          and(eq(scheduledMessages.status, 'sending'), lte(scheduledMessages.leaseUntil, now)),
        ),
      ),
    )
    .orderBy(asc(scheduledMessages.scheduledTo))
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(scheduledMessages)
    .set({
      status: 'sending',
      leaseUntil: new Date(now.getTime() + leaseMs),
      attempts: sql`${scheduledMessages.attempts} + 1`,
    })
    .where(inArray(scheduledMessages.id, due))
    .returning();
}

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
): Promise<'sent' | 'error'> {
  let status: 'sent' | 'error';
  let failure: string | null = null;
  try {
    const message = await send(services, row, lookups);
    if (message.status >= MESSAGE_STATUS.sent) status = 'sent';
    else {
      status = 'error';
      failure =
        message.failure ??
        (message.status === MESSAGE_STATUS.pending ? texts.sendInterrupted : texts.providerFailed);
    }
  } catch (err) {
    status = 'error';
    failure = err instanceof AppError ? err.message : texts.scheduleSendFailed;
    if (!(err instanceof AppError)) services.log.error({ err, id: row.id }, 'scheduled message not sent');
  }
  await services.db
    .update(scheduledMessages)
    .set({ status, failure, sentAt: status === 'sent' ? new Date() : null, leaseUntil: null })
    .where(and(eq(scheduledMessages.id, row.id), eq(scheduledMessages.status, 'sending')));
  return status;
}

async function send(services: Services, row: Row, lookups: Lookups) {
  const { db, realtime } = services;
  const found = await once(lookups, `user:${row.userId}`, () => usersRepo.findById(db, row.userId));
  if (!found || found.user.filed) throw new AppError(texts.scheduleSendFailed);
  const [chip] = await once(lookups, `chip:${row.chipId}`, () =>
    db
      .select()
      .from(chips)
      .where(and(eq(chips.id, row.chipId), eq(chips.filed, false)))
      .limit(1),
  );
  if (!chip) throw new AppError(texts.notFound);
  // Until the send path takes an Actor, the job passes its sender's user (issue 14 moves it to systemActor).
  const user = { ...found.user, account: found.account, actingAdminId: null };
  const ctx: SignedInContext = {
    services,
    user,
    actor: userActor(user),
    sessionId: 'scheduler',
    ip: '',
    userAgent: 'scheduler',
    file: null,
  };
  const contact = await contactByPhone(db, row.accountId, row.to);
  const { conversation, created } = await openTeamConversation(db, chip, contact.id, chip.departmentId);
  if (created) {
    const view = await loadConversation(db, conversation.id);
    if (view)
      realtime.toConversation(row.accountId, view.department, { type: 'new_conversation', message: view });
  }
  return sendConversationMessage(ctx, {
    conversation_id: conversation.id,
    message_id: scheduledMessageId(row.id),
    text: row.message,
    ...(row.template && { template: row.template }),
  });
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

/** When the next row falls due (or a claim runs out), or null when nothing waits. */
async function nextDue(db: Db): Promise<Date | null> {
  const [row] = await db
    .select({
      at: sql<
        Date | string | null
      >`min(case when ${scheduledMessages.status} = 'sending' then ${scheduledMessages.leaseUntil} else ${scheduledMessages.scheduledTo} end)`,
    })
    .from(scheduledMessages)
    .where(
      and(eq(scheduledMessages.filed, false), inArray(scheduledMessages.status, ['scheduled', 'sending'])),
    );
  return row?.at ? new Date(row.at) : null;
}

const STOP_WAIT_MS = 5000;

/** Starts the job: it looks at the table at least every `pollMs`, and wakes exactly when the next row is due. */
export function startScheduledMessages(services: Services, opts: SchedulerOptions = {}) {
  const o = { ...DEFAULTS, ...opts };
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;

  const schedule = (ms: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(tick, Math.max(0, ms));
    timer.unref();
  };
  function tick() {
    timer = null;
    if (running) return;
    running = (async () => {
      let wait = o.pollMs;
      try {
        await runDue(services, new Date(), o);
        const next = await nextDue(services.db);
        if (next) wait = Math.min(o.pollMs, next.getTime() - Date.now());
      } catch (err) {
        services.log.warn({ err }, 'scheduled messages: tick failed');
      }
      running = null;
      schedule(wait);
    })();
  }
  schedule(0);
  return {
    /** Looks at the table now (a message was just scheduled). */
    wake: () => schedule(0),
    /**
     * Waits for a tick in progress, at most `STOP_WAIT_MS`: a send stuck at the provider must not hold the
     * server's shutdown. What it left is safe: the lease runs out and the idempotent send reads its outcome.
     */
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      let bound: NodeJS.Timeout | undefined;
      await Promise.race([running, new Promise<void>((r) => (bound = setTimeout(r, STOP_WAIT_MS)))]);
      clearTimeout(bound);
    },
  };
}
