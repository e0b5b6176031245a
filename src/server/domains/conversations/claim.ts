// An engine's claim on a conversation, and the customer input it reads after its mark (the flow engine's flow_lease_until, the AI chatbot's
// chatbot_lease_until): one runner at a time per conversation, across processes. The claim is taken only when
// free or run out, and its value (to the millisecond) names the holder in its later writes; a process killed
// while holding one leaves it to run out. The statements live in claims.repo.ts.
import type { Db } from '../../db';
import { type ClaimColumn, type Condition, claimsRepo, type InputMark } from './claims.repo';

export type { ClaimColumn, InputMark };

/** A claim's value: now + `seconds`, to the millisecond (a renewal writes a new one). */
export const leaseFor = claimsRepo.leaseFor;

/** Takes the claim when free or run out (and `also` holds); answers its value, or null when taken. */
export const claimConversation = (
  db: Db,
  column: ClaimColumn,
  conversationId: string,
  seconds: number,
  also?: Condition,
): Promise<Date | null> => claimsRepo.claim(db, column, conversationId, seconds, also);

/** Lets go of the claim, if it is still this holder's. */
export const releaseConversation = claimsRepo.release;

/** The conversation's customer messages after `after` (all of them when null): an engine's unread input. */
export const customerInputAfter = claimsRepo.customerInputAfter;
