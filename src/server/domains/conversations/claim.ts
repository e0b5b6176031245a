// An engine's claim on a conversation, and the customer input it reads after its mark (the flow engine's flow_lease_until, the AI chatbot's
// chatbot_lease_until): one runner at a time per conversation, across processes. The claim is taken only when
// free or run out, and its value (to the millisecond) names the holder in its later writes; a process killed
// while holding one leaves it to run out.
import { and, eq, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db';
import { conversations, messages } from '../../db/schema';

export type ClaimColumn = 'flowLeaseUntil' | 'chatbotLeaseUntil';

/** A claim's value: now + `seconds`, to the millisecond (a renewal writes a new one). */
export const leaseFor = (seconds: number) =>
  sql`date_trunc('milliseconds', now() + ${`${seconds} seconds`}::interval)`;

/** Takes the claim when free or run out (and `also` holds); answers its value, or null when taken. */
export async function claimConversation(
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
}

/** Lets go of the claim, if it is still this holder's. */
export const releaseConversation = (db: Db, column: ClaimColumn, conversationId: string, lease: Date) =>
  db
    .update(conversations)
    .set({ [column]: null })
    .where(and(eq(conversations.id, conversationId), eq(conversations[column], lease)));

/** A customer message an engine has handled: its created_at (ISO, to the millisecond) and id. */
export type InputMark = { at: string; id: string } | null;

/** The conversation's customer messages after `after` (all of them when null): an engine's unread input. */
export const customerInputAfter = (conversationId: string, after: InputMark) =>
  and(
    eq(messages.conversationId, conversationId),
    eq(messages.origin, 'customer'),
    after
      ? sql`(date_trunc('milliseconds', ${messages.createdAt}), ${messages.id}) > (${after.at}::timestamptz, ${after.id})`
      : undefined,
  );
