// The engines' claim on a conversation (claim.ts is its API): the lease columns' statements and the condition
// 'customer input after a mark'. By conversation id alone: the claim names no account, its holder is the
// engine run that took it (the conversation came from the actor's own read).
import { and, eq, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db';
import { conversations, messages } from '../../db/schema';

export type { SQL as Condition } from 'drizzle-orm';

export type ClaimColumn = 'flowLeaseUntil' | 'chatbotLeaseUntil';

/** A customer message an engine has handled: its created_at (ISO, to the millisecond) and id. */
export type InputMark = { at: string; id: string } | null;

/** A claim's value: now + `seconds`, to the millisecond (a renewal writes a new one). */
const leaseFor = (seconds: number) =>
  sql`date_trunc('milliseconds', now() + ${`${seconds} seconds`}::interval)`;

export const claimsRepo = {
  leaseFor,
  /** Takes the claim when free or run out (and `also` holds); answers its value, or null when taken. */
  async claim(
    db: Db,
    column: ClaimColumn,
    conversationId: string,
    seconds: number,
    also?: SQL,
  ): Promise<Date | null> {
    const lease = conversations[column];
    const [row] = await db
      .update(conversations)
      .set({ [column]: leaseFor(seconds) })
      .where(and(eq(conversations.id, conversationId), also, or(isNull(lease), lt(lease, sql`now()`))))
      .returning({ lease });
    return row?.lease ?? null;
  },
  /** Lets go of the claim, if it is still this holder's. */
  release: (db: Db, column: ClaimColumn, conversationId: string, lease: Date) =>
    db
      .update(conversations)
      .set({ [column]: null })
      .where(and(eq(conversations.id, conversationId), eq(conversations[column], lease))),
  /** The conversation's customer messages after `after` (all of them when null): an engine's unread input. */
  customerInputAfter: (conversationId: string, after: InputMark) =>
    and(
      eq(messages.conversationId, conversationId),
      eq(messages.origin, 'customer'),
      after
        ? sql`(date_trunc('milliseconds', ${messages.createdAt}), ${messages.id}) > (${after.at}::timestamptz, ${after.id})`
        : undefined,
    ),
};
