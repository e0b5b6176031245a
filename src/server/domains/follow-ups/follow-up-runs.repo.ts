// The follow-up engine's reads and writes on conversations (jobs/follow-ups.ts decides what is due): the sweep
// that finds candidates across accounts, the cached due time, the claim and the recorded step. The engine's
// own bookkeeping leaves updated_at alone: nothing a screen shows changed, so the catch-up (get-changes-since)
// does not send the conversation again for it.
import { and, eq, isNull, lte, or, sql } from 'drizzle-orm';
import type { Actor } from '../../access';
import type { Db } from '../../db';
import { accounts, conversations, followUpSettings } from '../../db/schema';

/** The conversation's type in the setting's words, in SQL (followUpTypeOf's rule). */
const typeOf = sql`case when ${conversations.isManual} then 'human' when ${conversations.chatbotType} = 'chatbot' then 'ai_chatbot' when ${conversations.chatbotType} = 'flow_chatbot' then 'flow_chatbot' end`;

/** Open conversations still awaiting a follow-up the chip's setting serves. */
const waiting = () =>
  and(
    sql`${conversations.followUpAnchor} is not null`,
    isNull(conversations.finishedAt),
    eq(conversations.autoFollowUp, true),
    sql`${conversations.followUpStep} < 3`,
    eq(followUpSettings.enabled, true),
    sql`${followUpSettings.types} @> jsonb_build_array(${typeOf})`,
  );

/** Claims not held by anyone at `now`. */
const unclaimed = (now: Date) =>
  or(isNull(conversations.followUpLeaseUntil), lte(conversations.followUpLeaseUntil, now));

const quietly = { updatedAt: sql`${conversations.updatedAt}` };

/** Same conversation, anchor and step as when it was read: a reply, a team message or a sender changed nothing. */
const unchanged = (actor: Actor, c: FollowUpConversation) =>
  and(
    eq(conversations.id, c.id),
    eq(conversations.accountId, actor.accountId),
    c.followUpAnchor ? eq(conversations.followUpAnchor, c.followUpAnchor) : undefined,
    eq(conversations.followUpStep, c.followUpStep),
  );

export type FollowUpConversation = typeof conversations.$inferSelect;
export interface FollowUpCandidate {
  conversation: FollowUpConversation;
  setting: typeof followUpSettings.$inferSelect;
  timeZone: string;
}

export const followUpRunsRepo = {
  /**
   * Up to `limit` conversations whose follow-up may be due at `now` and that nobody holds, with their chip's
   * setting and their account's time zone: the engine's sweep across every account (it acts for each
   * conversation's account afterwards).
   */
  candidates(db: Db, now: Date, limit: number): Promise<FollowUpCandidate[]> {
    return db
      .select({ conversation: conversations, setting: followUpSettings, timeZone: accounts.timeZone })
      .from(conversations)
      .innerJoin(followUpSettings, eq(followUpSettings.chipId, conversations.chipId))
      .innerJoin(accounts, eq(accounts.id, conversations.accountId))
      .where(
        and(
          waiting(),
          or(isNull(conversations.followUpDueAt), lte(conversations.followUpDueAt, now)),
          unclaimed(now),
        ),
      )
      .orderBy(sql`${conversations.followUpDueAt} asc nulls first`, conversations.id)
      .limit(limit);
  },

  /** Caches when the next follow-up is due, while nothing changed since it was read. */
  async cacheDue(db: Db, actor: Actor, c: FollowUpConversation, dueAt: Date) {
    await db
      .update(conversations)
      .set({ followUpDueAt: dueAt, ...quietly })
      .where(unchanged(actor, c));
  },

  /** Takes the due follow-up for `leaseMs`, only while nothing changed and nobody holds it: one process sends. */
  async claim(db: Db, actor: Actor, c: FollowUpConversation, now: Date, leaseMs: number): Promise<boolean> {
    const [claimed] = await db
      .update(conversations)
      .set({ followUpLeaseUntil: new Date(now.getTime() + leaseMs), ...quietly })
      .where(
        and(
          unchanged(actor, c),
          isNull(conversations.finishedAt),
          eq(conversations.autoFollowUp, true),
          unclaimed(now),
        ),
      )
      .returning({ id: conversations.id });
    return Boolean(claimed);
  },

  /**
   * Records the step sent, only for the anchor it belongs to: a reply meanwhile has cleared it, and a new team
   * message has started another clock, which this must not touch.
   */
  async recordStep(db: Db, actor: Actor, conversationId: string, anchor: Date, step: number, now: Date) {
    await db
      .update(conversations)
      .set({
        followUpStep: step,
        followUpLastAt: now,
        followUpDueAt: null,
        followUpLeaseUntil: null,
        ...quietly,
      })
      .where(
        and(
          eq(conversations.id, conversationId),
          eq(conversations.accountId, actor.accountId),
          eq(conversations.followUpAnchor, anchor),
        ),
      );
  },
};
