// The inbound half of the message pipeline: what happens when a channel reports a customer's message or a
// delivery receipt. Every step is safe to repeat: a replayed webhook finds its message already stored
// (unique per chip and provider id) and changes nothing.
import { MESSAGE_STATUS } from '../../../shared/constants';
import { withoutBidiControls } from '../../../shared/format';
import { normalizePhone } from '../../../shared/phone';
import { type Actor, systemActor } from '../../access';
import type { ChipRow, InboundMessage, ReceiptStatus } from '../../channels/adapter';
import type { Db } from '../../db';
import { audioSeconds } from '../../media/audio-length';
import type { Services } from '../../services';
import { officialCampaignReply } from '../campaigns/official-conversation';
import { officialCampaignTouched } from '../campaigns/official-recount';
import { onChatbotCustomerMessage } from '../chatbots/engine';
import { onCustomerMessage } from '../flows/engine';
import { startFlowRun } from '../flows/start';
import { notifyNewConversation } from '../push/push.service';
import { type AutoTagCandidate, matchAutoTags } from '../tags/auto-tag';
import { reopenUnanswered } from './answered';
import { appendMessage, repairConversation } from './append-message';
import { announceUpdated } from './delivery';
import { type ContactRow, inboundRepo } from './inbound.repo';
import { messagesRepo, type NewMessageRow } from './messages.repo';
import { findOpenConversation, findOrOpenConversation } from './open-conversation';
import { loadConversation, toMessage } from './present';

/** The provider's reply window on official channels: 24 h after the customer's last message. */
const REPLY_WINDOW_MS = 24 * 60 * 60 * 1000;

async function upsertContact(
  services: Services,
  actor: Actor,
  phone: string,
  inbound: InboundMessage,
  known: ContactRow | undefined,
) {
  const { db } = services;
  const name = (inbound.name ?? '').trim().slice(0, 200);
  // The usual customer is known and unchanged: the upsert would write a new row version (and flush the log)
  // for every message.
  if (known && known.channelContactId === inbound.from && (known.name !== '' || !name)) return known;
  return inboundRepo.upsertContact(db, actor, { phone, name, channelContactId: inbound.from });
}

/** The contact's open conversation on this chip, or a new one as the chip's settings say. */
function openConversation(services: Services, chip: ChipRow, contactId: string) {
  // Who answers first (spec 3 §3 redirect). Chatbots and flows take over here when they exist; until then
  // the conversation waits for them, and a human can take it with 'Atender como humano'.
  const human = chip.redirect === 'human';
  return findOrOpenConversation(services.db, chip, contactId, {
    departmentId: chip.departmentId,
    isManual: human,
    chatbotType: human ? null : chip.redirect === 'flow_chatbot' ? 'flow_chatbot' : 'chatbot',
    chatbotId: chip.redirect === 'ai_chatbot' ? chip.chatbotId : null,
    flowId: chip.redirect === 'flow_chatbot' ? chip.flowId : null,
    startFlow: chip.redirect === 'flow_chatbot',
  });
}

/** An ignored contact's message is kept, in a finished conversation when none is open, and nothing more. */
async function storageConversation(services: Services, actor: Actor, chip: ChipRow, contactId: string) {
  const { db } = services;
  const open = await findOpenConversation(services.db, chip.id, contactId);
  if (open) return open;
  return inboundRepo.createFinishedConversation(db, actor, chip, contactId);
}

/** The account's auto-tags the text names that the contact does not have yet. */
async function autoTags(
  services: Services,
  actor: Actor,
  contact: ContactRow,
  text: string,
  known?: AutoTagCandidate[],
) {
  if (!text) return [];
  const candidates = known ?? (await inboundRepo.autoTagCandidates(services.db, actor));
  return matchAutoTags(text, candidates).filter((id) => !contact.tags.includes(id));
}

/** A customer's audio's length: from the bytes in hand, or from the file the channel stored itself. */
async function inboundAudioSeconds(services: Services, inbound: InboundMessage) {
  if (inbound.media) return audioSeconds(inbound.media.buffer, inbound.media.mime);
  const bytes = inbound.storedMedia ? await services.media.read(inbound.storedMedia.url) : null;
  return bytes ? audioSeconds(bytes) : null;
}

async function saveInboundMedia(services: Services, media: NonNullable<InboundMessage['media']>) {
  const sniffed = await services.media.sniff(media.buffer, [media.mime]);
  const fromName = /\.([a-z0-9]{2,5})$/i.exec(media.fileName ?? '')?.[1]?.toLowerCase();
  const ext = sniffed?.ext ?? fromName ?? 'bin';
  return services.media.save(media.buffer, ext, sniffed?.mime ?? media.mime);
}

/**
 * Stores a customer's message and tells the team. Repeating it (a webhook replay) stores nothing new; a
 * replay of a message whose conversation missed it (stored before appends were one transaction) repairs it.
 */
export async function receiveInbound(services: Services, chip: ChipRow, inbound: InboundMessage) {
  const { db, realtime } = services;
  const actor = systemActor(chip.accountId, 'pipeline');
  const createdAt = inbound.timestamp ?? new Date();
  // Official numbers: the customer's message opens the provider's reply window again.
  const contextWindow = chip.official ? new Date(createdAt.getTime() + REPLY_WINDOW_MS) : undefined;
  const samePlatformId = messagesRepo.platformKey(actor, chip.id, inbound.platformMessageId);
  const phone = normalizePhone(inbound.from) ?? inbound.from.replace(/\D/g, '');
  // The usual case (a known customer's new message) is one read; a replay then reads what its repair needs.
  const found = await inboundRepo.lookUp(db, actor, chip, phone, inbound.platformMessageId);
  const seen = found
    ? found.seen
    : await messagesRepo.storedId(db, actor, chip.id, inbound.platformMessageId);
  const already = seen ? await messagesRepo.withConversation(db, actor, seen) : undefined;
  if (already) {
    if (already.ignore) return;
    const repaired = await repairConversation(
      db,
      { conversation: already.conversation, effect: 'customer', contextWindow },
      already.message,
    );
    const view = repaired ? await loadConversation(db, already.conversation.id) : null;
    if (view)
      realtime.toConversation(chip.accountId, view.department, {
        type: 'conversation_updated',
        message: view,
      });
    return;
  }

  const contact = await upsertContact(services, actor, phone, inbound, found?.contact);
  const handled = !contact.ignore;
  // Official campaigns: the person this message answers (replied_at, a quick-reply tap); with rule
  // 'on_response' their conversation is opened here first, the template before the reply.
  const campaignReply = handled
    ? await officialCampaignReply(services, chip, phone, inbound, createdAt)
    : null;
  // The open conversation the lookup found, unless the campaign's reply may have just opened one.
  const { conversation, created: opened } = handled
    ? found?.conversation && !campaignReply
      ? { conversation: found.conversation, created: false }
      : await openConversation(services, chip, contact.id)
    : { conversation: await storageConversation(services, actor, chip, contact.id), created: false };

  const created = opened || campaignReply?.opened === true;

  let replyMessage: NewMessageRow['replyMessage'] = null;
  if (inbound.replyTo) {
    const quoted = await messagesRepo.byPlatformId(db, actor, chip.id, inbound.replyTo);
    if (quoted) replyMessage = { type: quoted.type, message: quoted.message, media: quoted.mediaUrl };
  }
  const tagged = handled ? await autoTags(services, actor, contact, inbound.text, found?.autoTags) : [];
  const stored = inbound.media ? await saveInboundMedia(services, inbound.media) : null;
  const seconds = inbound.type === 'audio' ? await inboundAudioSeconds(services, inbound) : null;
  // The message and the conversation's change in one transaction (append-message.ts).
  const appended = await appendMessage(services, actor, {
    conversation,
    effect: handled ? 'customer' : 'none',
    contextWindow,
    existing: samePlatformId,
    announce: false,
    // Appended in SQL, so two messages tagging at once both keep their tags.
    alsoWrite:
      tagged.length || campaignReply
        ? async (tx) => {
            if (tagged.length) await inboundRepo.addContactTags(tx, actor, contact.id, tagged);
            await campaignReply?.record(tx, createdAt);
          }
        : undefined,
    message: {
      origin: 'customer',
      type: inbound.type,
      message: inbound.text,
      mediaUrl: stored?.url ?? inbound.storedMedia?.url ?? null,
      fileName: withoutBidiControls(inbound.media?.fileName ?? inbound.storedMedia?.fileName ?? '') || null,
      ptt: inbound.type === 'audio' && inbound.voice === true,
      audioSeconds: seconds,
      platformMessageId: inbound.platformMessageId,
      status: MESSAGE_STATUS.sent,
      location: inbound.location ?? null,
      replyMessage,
      createdAt,
    },
  });
  if (!appended.created) {
    // The same message arrived twice at once; the other copy was stored first.
    if (stored) await services.media.remove(stored.url);
    return;
  }
  if (!handled) return;
  const row = appended.row;
  if (campaignReply) await officialCampaignTouched(services, chip.accountId, campaignReply.campaign.id);

  if (created) {
    const view = await loadConversation(db, conversation.id);
    if (view) {
      realtime.toConversation(chip.accountId, view.department, { type: 'new_conversation', message: view });
      // Web Push to the devices of who may see it (issue 7); never in the way of the message's own path.
      void notifyNewConversation(services, systemActor(chip.accountId, 'push'), view).catch((err: unknown) =>
        services.log.warn({ err }, 'push failed'),
      );
    }
  } else {
    realtime.toConversation(chip.accountId, conversation.departmentId, {
      type: 'new_message',
      message: { conversation_id: conversation.id, message: toMessage(row) },
    });
  }
  // A tap on an official campaign's quick reply starts the flow chosen for that button (the tap is not the
  // flow's input, nor a chatbot's).
  const tapFlow = campaignReply?.tap?.flowId;
  if (tapFlow) {
    await startFlowRun(services, conversation.id, tapFlow).catch((err: unknown) =>
      services.log.warn({ err, conversation: conversation.id }, 'campaign button flow not started'),
    );
    return;
  }
  // Flows: a keyword starts one; a flow serving the conversation reads the message (flows/engine.ts).
  // Both read the conversation as this message's append left it; a flow the message started changed it, so
  // the chatbot's check then reads it again.
  const { flowStarted } = await onCustomerMessage(
    services,
    chip,
    conversation.id,
    { id: row.id, text: inbound.text },
    appended.conversation,
    found?.keywordFlows,
  );
  // AI chatbots: a conversation one serves gets an answer after the response delay (chatbots/engine.ts).
  await onChatbotCustomerMessage(
    services,
    conversation.id,
    { id: row.id, createdAt: row.createdAt },
    flowStarted ? null : appended.conversation,
  );
}

const RECEIPT_STATUS: Record<ReceiptStatus, number> = {
  sent: MESSAGE_STATUS.sent,
  delivered: MESSAGE_STATUS.delivered,
  read: MESSAGE_STATUS.read,
  failed: MESSAGE_STATUS.failed,
};

/** How long a receipt waits for its send to be stored: a fast phone can answer before the provider does. */
const RECEIPT_RETRY_MS = [100, 300, 600, 1000];

/** Applies a provider's sent/delivered/read/failed to our message. Status never goes backwards. */
export async function applyReceipt(
  services: Services,
  chip: ChipRow,
  platformMessageId: string,
  status: ReceiptStatus,
  reason?: string,
) {
  const { db, realtime } = services;
  const actor = systemActor(chip.accountId, 'pipeline');
  const value = RECEIPT_STATUS[status];
  for (let attempt = 0; ; attempt++) {
    let reopened = false;
    const [row] =
      value === MESSAGE_STATUS.failed
        ? // A failure counts only before delivery: a late failure of a delivered message is noise. It gives
          // the customer's wait back, in the same transaction, when that send was what answered it.
          await db.transaction(async (tx) => {
            const failed = await messagesRepo.receiptFailed(
              tx as Db,
              actor,
              chip.id,
              platformMessageId,
              reason ?? null,
            );
            if (failed[0]) reopened = await reopenUnanswered(tx as Db, failed[0]);
            return failed;
          })
        : await messagesRepo.receiptStatus(db, actor, chip.id, platformMessageId, value);
    if (row) {
      const conversation = await messagesRepo.conversationDepartment(db, actor, row.conversationId);
      const department = conversation?.departmentId ?? null;
      if (value === MESSAGE_STATUS.read) {
        realtime.toConversation(chip.accountId, department, {
          type: 'message_read',
          message: { conversation_id: row.conversationId, _id: row.id, status: row.status },
        });
      } else {
        realtime.toConversation(chip.accountId, department, {
          type: 'message_updated',
          message: { conversation_id: row.conversationId, message: toMessage(row) },
        });
      }
      if (reopened) await announceUpdated(services, chip.accountId, row.conversationId);
      return;
    }
    // Known and already at (or past) this status: nothing to do. Unknown: maybe not stored yet.
    if (await messagesRepo.exists(db, actor, chip.id, platformMessageId)) return;
    const wait = RECEIPT_RETRY_MS[attempt];
    if (wait === undefined) return;
    await new Promise((r) => setTimeout(r, wait));
  }
}

/** Where a customer's media stands whose download failed (a text notice is stored in its place). */
export async function mediaNoticeState(services: Services, chipId: string, platformMessageId: string) {
  const row = await messagesRepo.mediaState(services.db, chipId, platformMessageId);
  if (!row) return 'missing' as const;
  return row.type === 'text' && !row.mediaUrl ? ('notice' as const) : ('done' as const);
}

/**
 * A media downloaded late (a retry): it replaces the text notice stored when the first download failed, and
 * open screens are told. Only a notice is replaced (one UPDATE): a second retry finds nothing to do.
 */
export async function attachInboundMedia(
  services: Services,
  chipId: string,
  platformMessageId: string,
  media: NonNullable<InboundMessage['media']> & {
    type: 'image' | 'audio' | 'video' | 'document';
    caption: string;
    voice?: boolean;
  },
): Promise<boolean> {
  const { db, realtime } = services;
  const stored = await saveInboundMedia(services, media);
  const row = await messagesRepo.replaceNotice(db, chipId, platformMessageId, {
    type: media.type,
    message: media.caption,
    mediaUrl: stored.url,
    fileName: withoutBidiControls(media.fileName ?? '') || null,
    ptt: media.type === 'audio' && media.voice === true,
    audioSeconds: media.type === 'audio' ? await audioSeconds(media.buffer, media.mime) : null,
  });
  if (!row) {
    await services.media.remove(stored.url);
    return false;
  }
  const conversation = await messagesRepo.conversationDepartment(
    db,
    systemActor(row.accountId, 'pipeline'),
    row.conversationId,
  );
  realtime.toConversation(row.accountId, conversation?.departmentId ?? null, {
    type: 'message_updated',
    message: { conversation_id: row.conversationId, message: toMessage(row) },
  });
  return true;
}

/**
 * A customer's edit or delete-for-everyone (QR numbers): the stored message takes the new text, or is marked
 * deleted, and open screens are told. Only the customer's own messages change; a repeat changes nothing.
 */
export async function applyCustomerChange(
  services: Services,
  chip: ChipRow,
  platformMessageId: string,
  change: { text: string } | { deleted: true },
) {
  const { db, realtime } = services;
  const actor = systemActor(chip.accountId, 'pipeline');
  const row = await messagesRepo.applyCustomerChange(db, actor, chip.id, platformMessageId, change);
  if (!row) return;
  const conversation = await messagesRepo.conversationDepartment(db, actor, row.conversationId);
  realtime.toConversation(chip.accountId, conversation?.departmentId ?? null, {
    type: 'message_updated',
    message: { conversation_id: row.conversationId, message: toMessage(row) },
  });
}
