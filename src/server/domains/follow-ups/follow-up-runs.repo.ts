// The follow-up engine's own queries (jobs/follow-ups.ts decides what is due; the claim, the send's record
// and its wake_at go through the engine skeleton, conversations/claim.ts): the sweep that finds candidates
// across accounts, over conversations joined to their follow_up_runs row, and the due time cached without a
// claim. Nothing here writes a conversation: the engine's bookkeeping leaves updated_at alone, so the catch-up
// (get-changes-since) does not send it again.
import { and, eq, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db';
import {
  accounts,
  conversations,
  type FollowUpPosition,
  followUpRuns,
  followUpSettings,
} from '../../db/schema';

/** The conversation's type in the setting's words, in SQL (followUpTypeOf's rule). */
const typeOf = sql`case when ${conversations.isManual} then 'human' when ${conversations.chatbotType} = 'chatbot' then 'ai_chatbot' when ${conversations.chatbotType} = 'flow_chatbot' then 'flow_chatbot' end`;

/** The engine may run the conversation: open, an unanswered business message, follow-ups not switched off. */
export const followUpServes: SQL = and(
  sql`${conversations.followUpAnchor} is not null`,
  isNull(conversations.finishedAt),
  eq(conversations.autoFollowUp, true),
) as SQL;

/**
 * The run row counts from the conversation's current anchor. Otherwise (no row, another anchor: a new team
 * message since) it is step 0 with nothing cached.
 */
const current = sql`coalesce((${followUpRuns.position}->>'anchor')::timestamptz = ${conversations.followUpAnchor}, false)`;

/** Still awaiting a follow-up the chip's setting serves, due (or not worked out) at `now`. */
const due = (now: Date) =>
  and(
    followUpServes,
    eq(followUpSettings.enabled, true),
    sql`${followUpSettings.types} @> jsonb_build_array(${typeOf})`,
    or(sql`not ${current}`, isNull(followUpRuns.wakeAt), lte(followUpRuns.wakeAt, now)),
    or(sql`not ${current}`, sql`(${followUpRuns.position}->>'step')::int < 3`),
    // Nobody holds it, on the clock the skeleton's claim reads (the database's).
    or(isNull(followUpRuns.leaseUntil), sql`${followUpRuns.leaseUntil} < now()`),
  );

export type { FollowUpPosition };
export type FollowUpSetting = typeof followUpSettings.$inferSelect;
export interface FollowUpCandidate {
  conversation: Pick<
    typeof conversations.$inferSelect,
    'id' | 'followUpAnchor' | 'finishedAt' | 'isManual' | 'chatbotType'
  >;
  /** Its run as read (null: none yet). */
  run: { position: FollowUpPosition | null; wakeAt: Date | null } | null;
  setting: FollowUpSetting;
  timeZone: string;
}

const candidateQuery = (db: Db) =>
  db
    .select({
      conversation: {
        id: conversations.id,
        followUpAnchor: conversations.followUpAnchor,
        finishedAt: conversations.finishedAt,
        isManual: conversations.isManual,
        chatbotType: conversations.chatbotType,
      },
      run: { position: followUpRuns.position, wakeAt: followUpRuns.wakeAt },
      setting: followUpSettings,
      timeZone: accounts.timeZone,
    })
    .from(conversations)
    .innerJoin(followUpSettings, eq(followUpSettings.chipId, conversations.chipId))
    .innerJoin(accounts, eq(accounts.id, conversations.accountId))
    .leftJoin(followUpRuns, eq(followUpRuns.conversationId, conversations.id));

export const followUpRunsRepo = {
  /**
   * Up to `limit` conversations whose follow-up may be due at `now` and that nobody holds, with their run, their
   * chip's setting and their account's time zone: the engine's sweep across every account (it acts for each
   * conversation's account afterwards).
   */
  candidates(db: Db, now: Date, limit: number): Promise<FollowUpCandidate[]> {
    return candidateQuery(db)
      .where(due(now))
      .orderBy(sql`${followUpRuns.wakeAt} asc nulls first`, conversations.id)
      .limit(limit);
  },

  /** The conversation, when its follow-up may be due at `now` and nobody holds it (work left after a run). */
  async candidate(db: Db, conversationId: string, now: Date): Promise<FollowUpCandidate | undefined> {
    const [row] = await candidateQuery(db)
      .where(and(eq(conversations.id, conversationId), due(now)))
      .limit(1);
    return row;
  },

  /**
   * Caches when the next follow-up is due, without a claim: only while nobody holds the run, the conversation
   * has the anchor it was worked out for, and the run is as `read` (no step recorded, no setting saved since).
   * A claim here would keep a run that finds a follow-up due from it.
   */
  async cacheDue(
    db: Db,
    c: FollowUpCandidate['conversation'],
    read: FollowUpCandidate['run'],
    position: FollowUpPosition,
    wakeAt: Date,
  ) {
    const runs = followUpRuns;
    await db
      .insert(runs)
      .select(
        db
          .select({
            conversationId: conversations.id,
            accountId: conversations.accountId,
            position: sql`${JSON.stringify(position)}::jsonb`.as('position'),
            leaseUntil: sql`null::timestamptz`.as('lease_until'),
            wakeAt: sql`${wakeAt.toISOString()}::timestamptz`.as('wake_at'),
          })
          .from(conversations)
          .where(
            and(
              eq(conversations.id, c.id),
              eq(conversations.followUpAnchor, c.followUpAnchor as Date),
              followUpServes,
            ),
          ),
      )
      .onConflictDoUpdate({
        target: runs.conversationId,
        set: { position: sql`excluded.position`, wakeAt: sql`excluded.wake_at` },
        setWhere: and(
          or(isNull(runs.leaseUntil), sql`${runs.leaseUntil} < now()`),
          read?.position
            ? sql`${runs.position} = ${JSON.stringify(read.position)}::jsonb`
            : isNull(runs.position),
          read?.wakeAt ? eq(runs.wakeAt, read.wakeAt) : isNull(runs.wakeAt),
        ),
      });
  },
};
