// The provider half of a send, made durable. A send is stored pending with its provider request (outbound)
// and a claim (send_lease_until, send_attempts): the holder of an unexpired claim is talking to the provider.
// The outcome is recorded in the statement right after the provider answers. A claim that runs out means its
// process died mid-send: resumePendingSends claims the row again and sends it by the same path. So a send is
// at least once towards the provider; a second send happens only when a process dies between the provider's
// acceptance and that one UPDATE (README: 'Sending: exactly-once and the crash window').
//
// Order and outages. A conversation's sends leave in the order they were stored: a send goes to the provider
// at once only when no earlier send of its conversation is still pending; otherwise it queues behind it (due
// at once, but the resume never takes a send while an earlier one of its conversation holds a claim). A
// provider that did not take a message and may later (ChannelError.retryLater: Graph 5xx, transient codes,
// rate limits, a refused connection) leaves it pending, claimed until a retry moment that backs off with the
// send's age (5 s, then half its age, at most a minute), and a 'send-resume' job of its conversation takes it
// and those behind it then. After MAX_SEND_AGE_MS it fails with the provider's last reason.
import { MESSAGE_STATUS } from '../../../shared/constants';
import type { Message } from '../../../shared/contract/conversations';
import { messages as texts } from '../../../shared/messages';
import { type Actor, platformJob, systemActor } from '../../access';
import { ChannelError, type ChipRow, type OutboundContent } from '../../channels/adapter';
import { type Db, isDatabaseUnavailable, whileUnavailable } from '../../db';
import type { Services } from '../../services';
import { markAnswered, sendAnswers } from './answered';
import { deliveryRepo } from './delivery.repo';
import { type MessageRow, messagesRepo, type NewMessageRow } from './messages.repo';
import { loadConversation, toMessage } from './present';

// The claim's durations, and the cut-off condition the conversations' repository reads.
export { claimRanOut, MAX_SEND_AGE_MS, MAX_SEND_ATTEMPTS, SEND_LEASE_MS } from './delivery.repo';

/** The delivery acts as the send's account. */
const deliveryActor = (row: { accountId: string }): Actor => systemActor(row.accountId, 'delivery');

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
  const actor = deliveryActor(row);
  let outcome: Partial<NewMessageRow>;
  try {
    if (!row.outbound) throw new ChannelError(texts.sendInterrupted);
    const chip = known.chip ?? (await whileUnavailable(() => deliveryRepo.chip(db, actor, row.chipId)))[0];
    if (!chip || chip.filed) throw new ChannelError(texts.chipDisconnected);
    // A QR number reconnecting by itself (its session dropped: 'Conectando', no code to scan) takes the
    // send once it is back (chipBack); one disconnected, or waiting for a scan, fails it now.
    if (chip.status !== 'open')
      throw new ChannelError(texts.chipDisconnected, chip.status === 'connecting' && !chip.qrcode);
    const { to, content } = row.outbound;
    const sent = await channels.adapter(chip).send(chip, to, checkedMedia(content, media), { key: row.id });
    outcome = { status: MESSAGE_STATUS.sent, platformMessageId: sent.platformMessageId };
  } catch (err) {
    // The database out of reach (reading the chip): the provider was not asked. The row stays pending under
    // its claim, and the resume sends it when the claim runs out, rather than failing a send never tried.
    if (isDatabaseUnavailable(err)) throw err;
    const reason = err instanceof ChannelError ? err.message : texts.providerFailed;
    if (!(err instanceof ChannelError)) log.error({ err }, 'channel send failed');
    if (err instanceof ChannelError && err.retryLater) return waitForRetry(services, row, reason);
    outcome = { status: MESSAGE_STATUS.failed, failure: reason };
  }
  const settled = { sendLeaseUntil: null, outbound: null, failure: outcome.failure ?? null };
  // A receipt may already have moved it on (a fast phone): a success keeps the higher status. A failure
  // never overwrites a success recorded meanwhile (a resume racing a slow first send).
  // Recorded even across a database restart: the provider has the message now, and a claim left to run out
  // would send it again.
  const [final, answered] = await whileUnavailable(async () =>
    outcome.status === MESSAGE_STATUS.failed
      ? [await deliveryRepo.recordFailure(db, actor, row.id, { ...outcome, ...settled }), false]
      : // Accepted: the message and the conversation's 'answered' change in one transaction (answered.ts).
        await db.transaction(async (tx) => {
          const sent = await deliveryRepo.recordSent(tx as Db, actor, row.id, { ...outcome, ...settled });
          return [sent, sent && sendAnswers(row) ? await markAnswered(tx as Db, sent) : false] as const;
        }),
  );
  const current = final ?? (await deliveryRepo.message(db, actor, row.id)) ?? row;
  const result = toMessage(current);
  const departmentId =
    known.departmentId !== undefined ? known.departmentId : await departmentOf(services, row);
  realtime.toConversation(row.accountId, departmentId, {
    type: 'message_updated',
    message: { conversation_id: row.conversationId, message: result },
  });
  // Answered: the other screens' lists drop its 'waiting response' and 'new' marks.
  if (answered) await announceUpdated(services, row.accountId, row.conversationId);
  // Sends queued behind this one go now. Not this send's failure if it cannot be queued: the sweep takes them.
  try {
    if (await whileUnavailable(() => deliveryRepo.pendingBeside(db, actor, row, 'after')))
      await whileUnavailable(() => queueResume(services, row.conversationId));
  } catch (err) {
    services.log.warn({ err, conversationId: row.conversationId }, 'sends behind this one left to the sweep');
  }
  return result;
}

/**
 * The provider did not take the send and may later: it stays pending ('enviando'), claimed until its retry
 * moment, with the reason it will fail with if the provider never comes back; its conversation's resume job is
 * queued for then.
 */
async function waitForRetry(services: Services, row: MessageRow, reason: string): Promise<Message> {
  const { db, log } = services;
  const waiting = await whileUnavailable(() =>
    deliveryRepo.waitForRetry(db, deliveryActor(row), row.id, reason),
  );
  if (waiting?.sendLeaseUntil) {
    log.warn({ messageId: row.id, retryAt: waiting.sendLeaseUntil }, 'provider unavailable: send waits');
    const at = waiting.sendLeaseUntil;
    await whileUnavailable(() => queueResume(services, row.conversationId, at));
  }
  return toMessage(waiting ?? row);
}

/**
 * A send just stored: to the provider now, unless an earlier send of its conversation is still pending (waiting
 * for the provider, or being sent): then it queues behind it, due as soon as those are done.
 */
export async function deliverInOrder(
  services: Services,
  row: MessageRow,
  known: { chip?: ChipRow; departmentId?: string | null } = {},
): Promise<Message> {
  const { db } = services;
  const actor = deliveryActor(row);
  // Through a database restart too. Should it stay out of reach, nothing was sent: the row's first claim is
  // handed back, so the device's retry sends it rather than its conversation waiting a lease.
  const earlier = await whileUnavailable(() => deliveryRepo.pendingBeside(db, actor, row, 'before')).catch(
    async (err: unknown) => {
      if (row.messageId)
        await whileUnavailable(() => releaseFirstClaim(db, row.accountId, row.messageId ?? '')).catch(
          () => undefined,
        );
      throw err;
    },
  );
  // A chip that is not connected fails the send at once, as it would alone.
  if (!earlier || (known.chip && known.chip.status !== 'open')) return deliverPending(services, row, known);
  const queued = await whileUnavailable(() => deliveryRepo.queueBehind(db, actor, row.id));
  // The earlier send may have finished before this row was queued (and found nothing behind it).
  await whileUnavailable(() => queueResume(services, row.conversationId));
  return toMessage(queued ?? row);
}

/** A send still holding the first claim its insert gave it (never sent, never claimed again) is free now. */
export async function releaseFirstClaim(db: Db, accountId: string, messageId: string) {
  await deliveryRepo.releaseFirstClaim(db, systemActor(accountId, 'delivery'), messageId);
}

/** The conversation's sends are looked at again then (now by default): those due go, in order. */
async function queueResume(services: Services, conversationId: string, at?: Date) {
  await services.jobs.send(
    SEND_RESUME_JOB,
    { conversationId },
    at ? { startAfter: new Date(at.getTime() + 50), key: `${conversationId}@${at.getTime()}` } : {},
  );
}

export const SEND_RESUME_JOB = 'send-resume';

/**
 * A chip connected again: the sends that waited for it (its session dropped) are due now, each conversation's
 * in its order.
 */
export async function chipBack(services: Services, chipId: string) {
  const waiting = await deliveryRepo.chipBack(services.db, chipId);
  for (const conversationId of new Set(waiting.map((m) => m.conversationId)))
    await queueResume(services, conversationId);
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

/**
 * conversation_updated to the department the conversation is in now and, when it moved, to the one it was in
 * (`before`): an engine's hand-over or redirect shows at once in both lists.
 */
export async function announceMoved(
  services: Services,
  before: { id: string; accountId: string; departmentId: string | null },
) {
  const view = await loadConversation(services.db, before.id);
  if (!view) return;
  const event = { type: 'conversation_updated' as const, message: view };
  services.realtime.toConversation(before.accountId, view.department, event);
  if (before.departmentId && before.departmentId !== view.department)
    services.realtime.toConversation(before.accountId, before.departmentId, event);
}

async function departmentOf(services: Services, row: MessageRow) {
  const conversation = await messagesRepo.conversationDepartment(
    services.db,
    deliveryActor(row),
    row.conversationId,
  );
  return conversation?.departmentId ?? null;
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
  opts: { limit?: number; id?: string; conversationId?: string } = {},
) {
  const { services } = ctx;
  const { db } = services;
  // The sweep looks at every account's sends; each send then goes as its own account's.
  const sweep = platformJob('send-sweep');
  // One send's retry resumes its conversation: its earlier sends go first.
  const conversationId = opts.id
    ? await deliveryRepo.conversationOf(db, sweep, opts.id)
    : opts.conversationId;
  if (opts.id && !conversationId) return { resumed: 0, failed: 0 };

  const givenUp = await deliveryRepo.giveUp(db, sweep, conversationId, texts.sendInterrupted);
  for (const row of givenUp) {
    services.realtime.toConversation(row.accountId, await departmentOf(services, row), {
      type: 'message_updated',
      message: { conversation_id: row.conversationId, message: toMessage(row) },
    });
  }

  // One claim at a time across processes (deliveryRepo.claimDue); each send's claim is lengthened right
  // before it goes.
  const claimed = await deliveryRepo.claimDue(db, sweep, conversationId, opts.limit ?? 100);
  // One at a time, oldest first: a conversation's resumed messages reach the customer in their order. A send
  // that waits again for its provider holds back those behind it: their claims are handed back.
  claimed.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
  const held = new Set<string>();
  for (const row of claimed) {
    if (held.has(row.conversationId)) {
      await deliveryRepo.handBack(db, deliveryActor(row), row.id);
      continue;
    }
    const going = await whileUnavailable(() => deliveryRepo.lengthenClaim(db, deliveryActor(row), row.id));
    // Settled meanwhile (a receipt, another path): nothing to send.
    if (!going) continue;
    const result = await deliverPending(services, going);
    if (result.status === MESSAGE_STATUS.pending) held.add(row.conversationId);
  }
  // A conversation's sends held back by an earlier claim that no outcome will end (its process died) go when
  // that claim runs out, not at the next sweep.
  if (conversationId) {
    const next = await deliveryRepo.nextClaimEnd(db, sweep, conversationId);
    if (next && held.size === 0) await queueResume(services, conversationId, new Date(next));
  }
  return { resumed: claimed.length, failed: givenUp.length };
}
