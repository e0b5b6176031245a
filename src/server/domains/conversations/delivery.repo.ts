// The send path's statements (delivery.ts is the mechanism): a pending send's claim (send_lease_until,
// send_attempts), its outcome, the order of a conversation's sends and the sweep's claim of what a dead
// process left. The delivery acts as the send's account (systemActor(accountId, 'delivery')); the statements go
// by the message's id or its conversation's, as the mechanism's order and exactly-once rely on them as they are.
import { and, asc, eq, exists, gt, gte, inArray, isNull, lt, not, or, sql } from 'drizzle-orm';
import { alias, type PgColumn } from 'drizzle-orm/pg-core';
import { MESSAGE_STATUS } from '../../../shared/constants';
import type { Actor, PlatformJob } from '../../access';
import type { Db } from '../../db';
import { chips, messages } from '../../db/schema';
import type { MessageRow, NewMessageRow } from './messages.repo';

/**
 * How long a claim holds a send: longer than the slowest provider call (the Cloud API's own timeouts: 60 s
 * for a media upload + 15 s for the send), and short, as a send cut off by a crash waits for it to run out.
 */
export const SEND_LEASE_MS = 90 * 1000;
/** Claims before giving up: a send that takes its process down each time is not tried forever. */
export const MAX_SEND_ATTEMPTS = 3;
/** A send older than this is not worth sending late: it fails and the attendant sends again if still wanted. */
export const MAX_SEND_AGE_MS = 60 * 60 * 1000;

const LEASE = `${SEND_LEASE_MS} milliseconds`;

/** Until the next try of a send the provider may take later: 5 s, then half the send's age, at most a minute. */
const retryAt = () =>
  sql`now() + greatest(interval '5 seconds', least(interval '60 seconds', (now() - ${messages.createdAt}) / 2))`;

/** The sends that go through this path (an attendant's, a flow's, a follow-up's, a campaign's…). */
const SENT_HERE = ['user', 'chatbot'] as const;

/** A resume's claim ends then, by the database's clock (one clock for every process). */
const sendLease = () => sql`now() + ${LEASE}::interval`;

/**
 * The claim ran out. A row without a lease holds its first claim, taken by its insert: one lease from its
 * created_at (the database's clock too).
 */
export const claimRanOut = () => claimRanOutOf(messages);

function claimRanOutOf(m: { sendLeaseUntil: PgColumn; createdAt: PgColumn }) {
  // Never NULL (a null lease compared is): `not` of it must hold for a claim that has not run out.
  return sql<boolean>`coalesce(${m.sendLeaseUntil} < now(), ${m.createdAt} < now() - ${LEASE}::interval)`;
}

/** A resume's claim of a batch: each send's own lease (SEND_LEASE_MS) starts when it goes. */
const RESUME_CLAIM = '15 seconds';

/** The advisory lock every process takes to claim sends (any constant shared by them). */
const SEND_CLAIM_LOCK = 7_340_211;

/** The pending sends of `row`'s conversation stored before it, or after it. */
const pendingBeside = (row: MessageRow, side: 'before' | 'after') => {
  const than = side === 'before' ? lt : gt;
  return and(
    eq(messages.conversationId, row.conversationId),
    eq(messages.status, MESSAGE_STATUS.pending),
    inArray(messages.origin, [...SENT_HERE]),
    or(
      than(messages.createdAt, row.createdAt),
      and(eq(messages.createdAt, row.createdAt), than(messages.id, row.id)),
    ),
  );
};

/** The pending sends a sweep looks at (of one conversation, or all): their claim ran out. */
const pendingCutOff = (conversationId: string | undefined) =>
  and(
    conversationId ? eq(messages.conversationId, conversationId) : undefined,
    eq(messages.status, MESSAGE_STATUS.pending),
    // The attendants' sends and the flows' (origin 'chatbot'): the same path, the same resume.
    inArray(messages.origin, [...SENT_HERE]),
    claimRanOut(),
  );

/** The row as long as it is still pending. */
const stillPending = (id: string) => and(eq(messages.id, id), eq(messages.status, MESSAGE_STATUS.pending));

export const deliveryRepo = {
  /** The send's chip. */
  chip: (db: Db, _actor: Actor, chipId: string) => db.select().from(chips).where(eq(chips.id, chipId)),

  /** The provider refused it: failed, unless a success was recorded meanwhile (a resume racing a slow send). */
  async recordFailure(db: Db, _actor: Actor, id: string, set: Partial<NewMessageRow>) {
    const [row] = await db.update(messages).set(set).where(stillPending(id)).returning();
    return row;
  },

  /** The provider accepted it: sent, or the higher status a receipt already recorded (a fast phone). */
  async recordSent(tx: Db, _actor: Actor, id: string, set: Partial<NewMessageRow>) {
    const [row] = await tx
      .update(messages)
      .set({ ...set, status: sql`greatest(${messages.status}, ${MESSAGE_STATUS.sent})` })
      .where(eq(messages.id, id))
      .returning();
    return row;
  },

  /** The message as stored now. */
  async message(db: Db, _actor: Actor, id: string) {
    const [row] = await db.select().from(messages).where(eq(messages.id, id));
    return row;
  },

  /** Waits for the provider: claimed until its retry moment, with the reason it fails with if never taken. */
  async waitForRetry(db: Db, _actor: Actor, id: string, reason: string) {
    const [row] = await db
      .update(messages)
      // A claim taken back without a crash: attempts count only claims that ended without an outcome.
      .set({ sendLeaseUntil: retryAt(), sendAttempts: 0, failure: reason })
      .where(stillPending(id))
      .returning();
    return row;
  },

  /** Whether a send of `row`'s conversation stored before it (or after it) is still pending. */
  async pendingBeside(db: Db, _actor: Actor, row: MessageRow, side: 'before' | 'after') {
    const [found] = await db
      .select({ id: messages.id })
      .from(messages)
      .where(pendingBeside(row, side))
      .limit(1);
    return Boolean(found);
  },

  /** Queued behind an earlier send: due at once, its claim handed back. */
  async queueBehind(db: Db, _actor: Actor, id: string) {
    const [row] = await db
      .update(messages)
      .set({ sendLeaseUntil: sql`now()`, sendAttempts: 0 })
      .where(stillPending(id))
      .returning();
    return row;
  },

  /** A send still holding the first claim its insert gave it (never sent, never claimed again) is free now. */
  releaseFirstClaim: (db: Db, actor: Actor, messageId: string) =>
    db
      .update(messages)
      .set({ sendLeaseUntil: sql`now()` })
      .where(
        and(
          eq(messages.accountId, actor.accountId),
          eq(messages.messageId, messageId),
          eq(messages.status, MESSAGE_STATUS.pending),
          isNull(messages.sendLeaseUntil),
          eq(messages.sendAttempts, 1),
        ),
      ),

  /**
   * A chip connected again: the sends that waited for it are due now; answers their conversations. By the
   * chip's id alone, as the channel that saw it connect holds it.
   */
  chipBack: (db: Db, chipId: string) =>
    db
      .update(messages)
      .set({ sendLeaseUntil: sql`now()` })
      .where(
        and(
          eq(messages.chipId, chipId),
          eq(messages.status, MESSAGE_STATUS.pending),
          inArray(messages.origin, [...SENT_HERE]),
          // Waiting (handed back), not being sent by a process now.
          eq(messages.sendAttempts, 0),
        ),
      )
      .returning({ conversationId: messages.conversationId }),

  // The sweep's (every account's sends, or one conversation's): the platform's job, no single account.

  /** The conversation of a message (a device's retry of one send). */
  async conversationOf(db: Db, _job: PlatformJob, id: string) {
    const [row] = await db
      .select({ conversationId: messages.conversationId })
      .from(messages)
      .where(eq(messages.id, id));
    return row?.conversationId;
  },

  /**
   * Gives up the cut-off sends tried too often, too old, or stored without a provider request: failed with
   * the provider's last reason, or `interrupted`.
   */
  giveUp: (db: Db, _job: PlatformJob, conversationId: string | undefined, interrupted: string) =>
    db
      .update(messages)
      .set({
        status: MESSAGE_STATUS.failed,
        // A send that waited for its provider fails with the provider's last reason.
        failure: sql`coalesce(${messages.failure}, ${interrupted})`,
        sendLeaseUntil: null,
        outbound: null,
      })
      .where(
        and(
          pendingCutOff(conversationId),
          or(
            gte(messages.sendAttempts, MAX_SEND_ATTEMPTS),
            lt(messages.createdAt, sql`now() - ${`${MAX_SEND_AGE_MS} milliseconds`}::interval`),
            isNull(messages.outbound),
          ),
        ),
      )
      .returning(),

  /**
   * Claims the cut-off sends due (on a connected chip, no earlier send of their conversation holding a
   * claim), oldest first, at most `limit`: FOR UPDATE SKIP LOCKED under one advisory lock across processes (a
   * claim not yet committed elsewhere would not block ours: its rows are skipped as locked, and the send
   * behind them looks free). The claim is short (RESUME_CLAIM): a claim whose commit's answer was lost (the
   * database going away), or a batch cut short, holds its sends only seconds.
   */
  claimDue(db: Db, _job: PlatformJob, conversationId: string | undefined, limit: number) {
    // Not while an earlier send of its conversation holds a claim (being sent, or waiting for its provider).
    const earlier = alias(messages, 'earlier');
    const blocked = exists(
      db
        .select({ id: earlier.id })
        .from(earlier)
        .where(
          and(
            eq(earlier.conversationId, messages.conversationId),
            eq(earlier.status, MESSAGE_STATUS.pending),
            inArray(earlier.origin, [...SENT_HERE]),
            or(
              lt(earlier.createdAt, messages.createdAt),
              and(eq(earlier.createdAt, messages.createdAt), lt(earlier.id, messages.id)),
            ),
            sql`not (${claimRanOutOf(earlier)})`,
          ),
        ),
    );
    const due = db
      .select({ id: messages.id })
      .from(messages)
      .innerJoin(chips, eq(chips.id, messages.chipId))
      .where(
        and(pendingCutOff(conversationId), eq(chips.status, 'open'), eq(chips.filed, false), not(blocked)),
      )
      .orderBy(asc(messages.createdAt))
      .limit(limit)
      .for('update', { of: messages, skipLocked: true });
    return db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${SEND_CLAIM_LOCK})`);
      return tx
        .update(messages)
        .set({
          sendAttempts: sql`${messages.sendAttempts} + 1`,
          sendLeaseUntil: sql`now() + ${RESUME_CLAIM}::interval`,
        })
        .where(inArray(messages.id, due))
        .returning();
    });
  },

  /** A claimed send held back behind one that waits again: its claim handed back, its attempt not counted. */
  handBack: (db: Db, _actor: Actor, id: string) =>
    db
      .update(messages)
      .set({ sendLeaseUntil: sql`now()`, sendAttempts: sql`${messages.sendAttempts} - 1` })
      .where(stillPending(id)),

  /** The claim lengthened right before the send goes (SEND_LEASE_MS); nothing when settled meanwhile. */
  async lengthenClaim(db: Db, _actor: Actor, id: string) {
    const [row] = await db
      .update(messages)
      .set({ sendLeaseUntil: sendLease() })
      .where(stillPending(id))
      .returning();
    return row;
  },

  /** When the conversation's earliest claim that has not run out does (null: none). */
  async nextClaimEnd(db: Db, _job: PlatformJob, conversationId: string) {
    const [next] = await db
      .select({
        at: sql<Date>`min(coalesce(${messages.sendLeaseUntil}, ${messages.createdAt} + ${LEASE}::interval))`,
      })
      .from(messages)
      .where(
        and(
          eq(messages.conversationId, conversationId),
          eq(messages.status, MESSAGE_STATUS.pending),
          inArray(messages.origin, [...SENT_HERE]),
          sql`not (${claimRanOut()})`,
        ),
      );
    return next?.at ?? null;
  },
};
