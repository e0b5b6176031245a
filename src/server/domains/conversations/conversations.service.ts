// The outbound half of the message pipeline, and the conversation calls around it. Who may see a
// conversation: owners and managers every one of the account; attendants those of their departments.
import { MESSAGE_STATUS, MESSAGE_WAITED_SHOWN_MS } from '../../../shared/constants';
import type { InteractiveMenu } from '../../../shared/contract/common';
import type { Message } from '../../../shared/contract/conversations';
import { messages as texts } from '../../../shared/messages';
import { normalizePhone } from '../../../shared/phone';
import type { Actor, UserActor } from '../../access';
import { ChannelError, type ChipRow, type OutboundContent } from '../../channels/adapter';
import { isDatabaseUnavailable, whileUnavailable } from '../../db';
import { AppError } from '../../http/errors';
import type { UploadedFile } from '../../http/upload';
import { audioSeconds } from '../../media/audio-length';
import type { Services } from '../../services';
import { wakeFollowUps } from '../follow-ups/wake';
import { answersCustomer } from './answered';
import { appendMessage } from './append-message';
import type { MessageRow } from './conversation-views.repo';
import { conversationsRepo } from './conversations.repo';
import { deliverInOrder, releaseFirstClaim, resumePendingSends } from './delivery';
import { toMessage } from './present';
import type { Sender } from './sender';

/** What a send needs: the server's parts and who acts (an attendant, or a job as the system actor). */
/** Who acts and with what: a signed-in user's call, or a job or an engine acting for one account. */
export interface ActingCtx {
  services: Services;
  actor: Actor;
}

export const flowSender: Sender = { chatbot: true, source: 'flow' };
export const chatbotSender: Sender = { chatbot: true, source: 'chatbot' };
export const apiSender: Sender = { chatbot: true, source: 'api' };
export const followUpSender: Sender = { chatbot: true, source: 'follow_up', followUp: true };

/** The conversation with its chip and contact, when the caller may see it; otherwise 'not found'. */
export const visibleConversation = (ctx: ActingCtx, conversationId: string) =>
  conversationsRepo.visible(ctx.services.db, ctx.actor, conversationId);

/** A chip the caller may use: attendants only their departments' chips. */
export const visibleChip = (ctx: ActingCtx, chipId: string): Promise<ChipRow> =>
  conversationsRepo.visibleChip(ctx.services.db, ctx.actor, chipId);

export async function listMessages(
  services: Services,
  actor: Actor,
  p: { conversation_id: string; before?: string; limit: number },
): Promise<Message[]> {
  await visibleConversation({ services, actor }, p.conversation_id);
  const rows = await conversationsRepo.messagesPage(services.db, actor, p.conversation_id, p.before, p.limit);
  return rows.reverse().map(toMessage);
}

/**
 * A repeat of a message_id already stored answers the message as it is now, at once: a pending one is still
 * being sent, never presented as sent. When its send was cut off by a crash (the claim ran out), the repeat
 * resumes it meanwhile, as the send sweep would: the device's retries bring it out without waiting for that.
 */
async function stored(ctx: ActingCtx, messageId: string, conversationId: string): Promise<Message> {
  const row = await conversationsRepo.storedSend(ctx.services.db, ctx.actor, messageId);
  if (!row) throw new AppError(texts.notFound);
  if (row.message.conversationId !== conversationId) throw new AppError(texts.messageIdReused);
  if (row.message.status === MESSAGE_STATUS.pending && row.cutOff)
    void resumePendingSends(ctx, { id: row.message.id }).catch((err: unknown) =>
      ctx.services.log.warn({ err }, 'send resume failed'),
    );
  return toMessage(row.message);
}

export interface SendInput {
  conversation_id: string;
  message_id: string;
  text: string;
  media?: { type: 'image' | 'audio' | 'video' | 'document'; url: string; file_name?: string; ptt?: boolean };
  reply_message?: string;
  /** How long an attendant's send waited on the device (offline) before this try. */
  waited_ms?: number;
  /** Official numbers outside the reply window: a fixed-content template (new conversation, scheduled send). */
  template?: { name: string; language: string; preview: string };
  /**
   * A flow's menu: `text` is the body; the channel shows the options to tap where it can, else the numbered
   * `fallback` (body, options, footer). The menu is stored with the message (messages.interactive).
   */
  interactive?: { menu: InteractiveMenu; fallback: string };
}

/**
 * Sends into a conversation, once per message_id: the row is the lock (a unique index on account and
 * message_id), so repeats, concurrent or later, store nothing new, never call the provider again and answer
 * the message as it stands (pending while its send is under way). The row is stored pending with its provider
 * request and a claim; the provider half (delivery.ts) records the outcome, or the send sweep resumes it
 * after a crash.
 */
export async function sendConversationMessage(
  ctx: ActingCtx,
  sender: Sender,
  p: SendInput,
): Promise<Message> {
  const { db, media } = ctx.services;
  const { conversation, chip, contact } = await visibleConversation(ctx, p.conversation_id);
  const text = p.template ? p.template.preview : p.text.trim();
  if (!text && !p.media) throw new AppError(texts.messageEmpty);
  // WhatsApp delivers audio without a caption: typed text would silently vanish.
  if (p.media?.type === 'audio' && text) throw new AppError(texts.audioWithoutText);

  if (await conversationsRepo.messageIdTaken(db, ctx.actor, p.message_id))
    return stored(ctx, p.message_id, conversation.id);
  if (conversation.finishedAt) throw new AppError(texts.conversationFinishedHint);

  let file: { mime: string } | null = null;
  if (p.media) {
    const kind = await media.classifyFile(p.media.url);
    if (!kind) throw new AppError(texts.mediaNotFound);
    if (kind.kind !== p.media.type) throw new AppError(texts.mediaWrongType);
    file = { mime: kind.mime };
  }
  const seconds = p.media?.type === 'audio' ? await storedAudioSeconds(ctx.services, p.media.url) : null;
  let quoted: MessageRow | undefined;
  if (p.reply_message) {
    quoted = await conversationsRepo.messageIn(db, ctx.actor, conversation.id, p.reply_message);
    if (!quoted) throw new AppError(texts.notFound);
  }
  // Only audio can be a voice note; the flag on any other file means nothing.
  const ptt = p.media?.type === 'audio' && p.media.ptt === true;
  // The signature (spec 2 §6): the user's name in bold before the text.
  const body =
    !('chatbot' in sender) && sender.userSignature && text && !p.template
      ? `*${sender.name}*:\n${text}`
      : text;

  const to =
    contact.channelContactId && chip.provider !== 'simulator' ? contact.channelContactId : contact.phone;
  const replyTo = quoted?.platformMessageId ?? null;
  const content: OutboundContent = p.template
    ? {
        type: 'template',
        name: p.template.name,
        language: p.template.language,
        components: [],
        preview: body,
      }
    : p.interactive
      ? { type: 'interactive', body, menu: p.interactive.menu, text: p.interactive.fallback }
      : p.media && file
        ? {
            type: p.media.type,
            url: p.media.url,
            mime: file.mime,
            fileName: p.media.file_name ?? p.media.url.split('/').pop() ?? 'arquivo',
            caption: body || undefined,
            replyTo,
            ...(ptt && { voice: true }),
          }
        : { type: 'text', text: body, replyTo };

  // The message and the conversation's new preview in one transaction (append-message.ts); 'answered' is
  // recorded with the channel's acceptance (delivery.ts).
  const { row, created } = await handBackOnOutage(ctx, p.message_id, () =>
    appendMessage(ctx.services, ctx.actor, {
      conversation,
      effect: 'chatbot' in sender && sender.followUp ? 'follow_up' : 'team',
      existing: conversationsRepo.byMessageId(ctx.actor, p.message_id),
      message: {
        origin: 'chatbot' in sender ? 'chatbot' : 'user',
        source: 'chatbot' in sender ? sender.source : null,
        type: p.media?.type ?? 'text',
        message: body,
        mediaUrl: p.media?.url ?? null,
        fileName: p.media ? (p.media.file_name ?? null) : null,
        ptt,
        audioSeconds: seconds,
        userId: 'chatbot' in sender ? null : sender.id,
        interactive: p.interactive?.menu ?? null,
        messageId: p.message_id,
        status: MESSAGE_STATUS.pending,
        replyMessage: quoted ? { type: quoted.type, message: quoted.message, media: quoted.mediaUrl } : null,
        typedAt: typedAt(p.waited_ms),
        // The send's first claim is the row itself (it holds one lease from created_at, the database's
        // clock): a crash from here on leaves it for the send sweep to resume.
        outbound: { to, content, answers: answersCustomer(sender) },
        sendAttempts: 1,
      },
    }),
  );
  // Another request with this message_id stored it first (another process, or a moment ago).
  if (!created) return stored(ctx, p.message_id, conversation.id);
  // The business spoke: the follow-up engine works out when this conversation's first follow-up is due.
  if (!('chatbot' in sender && sender.followUp))
    await wakeFollowUps(ctx.services, { actor: ctx.actor, chipId: chip.id });
  return deliverInOrder(ctx.services, row, { chip, departmentId: conversation.departmentId });
}

/** A stored audio's length, for the list's preview. */
async function storedAudioSeconds(services: ActingCtx['services'], url: string) {
  const bytes = await services.media.read(url);
  return bytes ? audioSeconds(bytes) : null;
}

/** A send that waited on the device long enough to matter keeps when it was typed (the server's clock). */
const typedAt = (waitedMs: number | undefined) =>
  waitedMs !== undefined && waitedMs >= MESSAGE_WAITED_SHOWN_MS ? new Date(Date.now() - waitedMs) : null;

/**
 * The database going away around a send's insert may have kept the row (its commit's answer lost on the way):
 * this request answers 503 and sends nothing, so the row's first claim is handed back at once. The device's
 * retry of the message_id then sends it (in its conversation's order) instead of waiting out a lease, and so
 * do the sends queued behind it.
 */
async function handBackOnOutage<T>(ctx: ActingCtx, messageId: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (isDatabaseUnavailable(err))
      await whileUnavailable(() => releaseFirstClaim(ctx.services.db, ctx.actor.accountId, messageId)).catch(
        (releaseErr: unknown) => ctx.services.log.warn({ err: releaseErr }, 'send claim not handed back'),
      );
    throw err;
  }
}

/** Deletes one of the caller's own sent messages, for everyone where the provider allows it. */
export async function deleteConversationMessage(
  services: Services,
  actor: UserActor,
  messageId: string,
): Promise<Message> {
  const { db, realtime, channels } = services;
  const row = await conversationsRepo.message(db, actor, messageId);
  if (!row) throw new AppError(texts.notFound);
  const { conversation, chip, contact } = await visibleConversation({ services, actor }, row.conversationId);
  if (row.type === 'summary') throw new AppError(texts.summaryNotDeletable);
  if (row.origin !== 'user' || row.userId !== actor.userId) throw new AppError(texts.onlyOwnMessages);
  if (row.deleted) return toMessage(row);
  const updated = await conversationsRepo.deleteMessage(db, actor, row.id);
  if (row.platformMessageId && chip.status === 'open') {
    const to =
      contact.channelContactId && chip.provider !== 'simulator' ? contact.channelContactId : contact.phone;
    await channels
      .adapter(chip)
      .deleteMessage(chip, to, row.platformMessageId)
      .catch((err: unknown) => services.log.warn({ err }, 'provider delete failed'));
  }
  const result = toMessage(updated ?? row);
  realtime.toConversation(actor.accountId, conversation.departmentId, {
    type: 'message_updated',
    message: { conversation_id: conversation.id, message: result },
  });
  return result;
}

export async function checkPhone(services: Services, actor: Actor, p: { phone: string; chip: string }) {
  const chip = await visibleChip({ services, actor }, p.chip);
  const phone = normalizePhone(p.phone);
  if (!phone) throw new AppError(texts.invalidPhone);
  if (chip.status !== 'open') throw new AppError(texts.chipDisconnected);
  try {
    const found = await services.channels.adapter(chip).checkPhone(chip, phone);
    return { exists: found.exists, phone, id: found.id };
  } catch (err) {
    if (err instanceof ChannelError) throw new AppError(err.message);
    throw err;
  }
}

export async function uploadFile(
  services: Services,
  file: UploadedFile | null,
  p: { type: 'image' | 'audio' | 'video' | 'document'; filename?: string },
) {
  if (!file) throw new AppError(texts.fileRequired);
  const name = (p.filename || file.filename || 'arquivo').slice(0, 200);
  const kind = await services.media.classify(file.buffer, name);
  if (!kind || kind.kind !== p.type) throw new AppError(texts.mediaWrongType);
  const stored = await services.media.save(file.buffer, kind.ext, kind.mime);
  return { url: stored.url, type: kind.kind, file_name: name, mime: kind.mime };
}
