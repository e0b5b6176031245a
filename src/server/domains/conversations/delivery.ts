// The provider half of a send, made durable. A send is stored pending with its provider request (outbound)
// and a claim (send_lease_until, send_attempts): the holder of an unexpired claim is talking to the provider.
// The outcome is recorded in the statement right after the provider answers. A claim that runs out means its
// process died mid-send: resumePendingSends claims the row again and sends it by the same path. So a send is
// at least once towards the provider; a second send happens only when a process dies between the provider's
// acceptance and that one UPDATE (README: 'Sending: exactly-once and the crash window').
import { and, asc, eq, gte, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { MESSAGE_STATUS } from '../../../shared/constants';
import type { Message } from '../../../shared/contract/conversations';
import { messages as texts } from '../../../shared/messages';
import { ChannelError, type ChipRow, type OutboundContent } from '../../channels/adapter';
import type { Db } from '../../db';
import { chips, conversations, messages } from '../../db/schema';
import type { Services } from '../../services';
import { markAnswered } from './answered';
import { loadConversation, toMessage } from './present';

type MessageRow = typeof messages.$inferSelect;

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

/** A resume's claim ends then, by the database's clock (one clock for every process). */
const sendLease = () => sql`now() + ${LEASE}::interval`;

/**
 * The claim ran out. A row without a lease holds its first claim, taken by its insert: one lease from its
 * created_at (the database's clock too).
 */
export const claimRanOut = () =>
  sql<boolean>`(${messages.sendLeaseUntil} < now() or (${messages.sendLeaseUntil} is null and ${messages.createdAt} < now() - ${LEASE}::interval))`;

/**
 * Sends a pending row the caller has claimed, and records the outcome right after the provider answers.
 * Answers the message as recorded; emits message_updated to the conversation's room.
 */
export async function deliverPending(
  services: Services,
  row: MessageRow,
  known: { chip?: ChipRow; departmentId?: string | null } = {},
): Promise<Message> {
  const { db, channels, realtime, media, log } = services;
  let outcome: Partial<typeof messages.$inferInsert>;
  try {
    if (!row.outbound) throw new ChannelError(texts.sendInterrupted);
    const chip = known.chip ?? (await db.select().from(chips).where(eq(chips.id, row.chipId)))[0];
    if (!chip || chip.filed || chip.status !== 'open') throw new ChannelError(texts.chipDisconnected);
    const { to, content } = row.outbound;
    const sent = await channels.adapter(chip).send(chip, to, checkedMedia(content, media));
    outcome = { status: MESSAGE_STATUS.sent, platformMessageId: sent.platformMessageId };
  } catch (err) {
    const reason = err instanceof ChannelError ? err.message : texts.providerFailed;
    if (!(err instanceof ChannelError)) log.error({ err }, 'channel send failed');
    outcome = { status: MESSAGE_STATUS.failed, failure: reason };
  }
  const settled = { sendLeaseUntil: null, outbound: null };
  // A receipt may already have moved it on (a fast phone): a success keeps the higher status. A failure
  // never overwrites a success recorded meanwhile (a resume racing a slow first send).
  const [final, answered] =
    outcome.status === MESSAGE_STATUS.failed
      ? [
          (
            await db
              .update(messages)
              .set({ ...outcome, ...settled })
              .where(and(eq(messages.id, row.id), eq(messages.status, MESSAGE_STATUS.pending)))
              .returning()
          )[0],
          false,
        ]
      : // Accepted: the message and the conversation's 'answered' change in one transaction (answered.ts).
        await db.transaction(async (tx) => {
          const [sent] = await tx
            .update(messages)
            .set({
              ...outcome,
              ...settled,
              status: sql`greatest(${messages.status}, ${MESSAGE_STATUS.sent})`,
            })
            .where(eq(messages.id, row.id))
            .returning();
          return [sent, sent ? await markAnswered(tx as Db, sent) : false] as const;
        });
  const current = final ?? (await db.select().from(messages).where(eq(messages.id, row.id)))[0] ?? row;
  const result = toMessage(current);
  const departmentId =
    known.departmentId !== undefined ? known.departmentId : await departmentOf(services, row.conversationId);
  realtime.toConversation(row.accountId, departmentId, {
    type: 'message_updated',
    message: { conversation_id: row.conversationId, message: result },
  });
  // Answered: the other screens' lists drop its 'waiting response' and 'new' marks.
  if (answered) await announceUpdated(services, row.accountId, row.conversationId);
  return result;
}

/**
 * A file goes by its URL, which the adapter reads from the media store (on disk or in a bucket, so a resume may
 * run on another process); only our own /media URLs. A send stored before had a disk path too: dropped.
 */
function checkedMedia(content: OutboundContent, media: Services['media']): OutboundContent {
  if (content.type === 'text' || content.type === 'template' || content.type === 'interactive')
    return content;
  if (!media.owns(content.url)) throw new ChannelError(texts.mediaNotFound);
  const { path: _stale, ...file } = content as typeof content & { path?: string };
  return file;
}

/** conversation_updated with the conversation as it stands now, to whoever may see it. */
export async function announceUpdated(services: Services, accountId: string, conversationId: string) {
  const view = await loadConversation(services.db, conversationId);
  if (view)
    services.realtime.toConversation(accountId, view.department, {
      type: 'conversation_updated',
      message: view,
    });
}

async function departmentOf(services: Services, conversationId: string) {
  const [row] = await services.db
    .select({ departmentId: conversations.departmentId })
    .from(conversations)
    .where(eq(conversations.id, conversationId));
  return row?.departmentId ?? null;
}

/**
 * The send sweep (every 2 minutes, and at start), and a device's retry of one pending send (`id`): sends whose
 * claim ran out were cut off by a crash. Those tried too often, too old, or stored without a provider request
 * fail with the pt-BR reason; the others are claimed (FOR UPDATE SKIP LOCKED: two processes never take the
 * same row) and sent again, oldest first. A send on a chip that is not connected waits (unclaimed) until the
 * chip is back or the send is too old. Answers how many sends it resumed and how many it gave up.
 */
export async function resumePendingSends(
  ctx: { services: Services },
  opts: { limit?: number; id?: string } = {},
) {
  const { services } = ctx;
  const { db } = services;
  const pendingCutOff = and(
    opts.id ? eq(messages.id, opts.id) : undefined,
    eq(messages.status, MESSAGE_STATUS.pending),
    // The attendants' sends and the flows' (origin 'chatbot'): the same path, the same resume.
    inArray(messages.origin, ['user', 'chatbot']),
    claimRanOut(),
  );

  const givenUp = await db
    .update(messages)
    .set({
      status: MESSAGE_STATUS.failed,
      failure: texts.sendInterrupted,
      sendLeaseUntil: null,
      outbound: null,
    })
    .where(
      and(
        pendingCutOff,
        or(
          gte(messages.sendAttempts, MAX_SEND_ATTEMPTS),
          lt(messages.createdAt, sql`now() - ${`${MAX_SEND_AGE_MS} milliseconds`}::interval`),
          isNull(messages.outbound),
        ),
      ),
    )
    .returning();
  for (const row of givenUp) {
    services.realtime.toConversation(row.accountId, await departmentOf(services, row.conversationId), {
      type: 'message_updated',
      message: { conversation_id: row.conversationId, message: toMessage(row) },
    });
  }

  const due = db
    .select({ id: messages.id })
    .from(messages)
    .innerJoin(chips, eq(chips.id, messages.chipId))
    .where(and(pendingCutOff, eq(chips.status, 'open'), eq(chips.filed, false)))
    .orderBy(asc(messages.createdAt))
    .limit(opts.limit ?? 100)
    .for('update', { of: messages, skipLocked: true });
  const claimed = await db
    .update(messages)
    .set({ sendAttempts: sql`${messages.sendAttempts} + 1`, sendLeaseUntil: sendLease() })
    .where(inArray(messages.id, due))
    .returning();
  // One at a time, oldest first: a conversation's resumed messages reach the customer in their order.
  claimed.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  for (const row of claimed) await deliverPending(services, row);
  return { resumed: claimed.length, failed: givenUp.length };
}
