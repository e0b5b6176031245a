// The inbound half of the message pipeline: what happens when a channel reports a customer's message or a
// delivery receipt. Every step is safe to repeat: a replayed webhook finds its message already stored
// (unique per chip and provider id) and changes nothing.
import { and, eq, gte, isNull, sql } from 'drizzle-orm';
import { MESSAGE_STATUS, OFFICIAL_CHANNEL_TYPE } from '../../../shared/constants';
import { withoutBidiControls } from '../../../shared/format';
import { newId } from '../../../shared/ids';
import { normalizePhone } from '../../../shared/phone';
import { systemActor } from '../../access';
import type { ChipRow, InboundMessage, ReceiptStatus } from '../../channels/adapter';
import type { Db } from '../../db';
import { prepared } from '../../db/prepared';
import { contacts, conversations, flows, messages, tags } from '../../db/schema';
import { audioSeconds } from '../../media/audio-length';
import type { Services } from '../../services';
import { officialCampaignReply } from '../campaigns/official-conversation';
import { officialCampaignTouched } from '../campaigns/official-recount';
import { onChatbotCustomerMessage } from '../chatbots/engine';
import { type KeywordFlow, onCustomerMessage } from '../flows/engine';
import { startFlowRun } from '../flows/start';
import { notifyNewConversation } from '../push/push.service';
import { type AutoTagCandidate, matchAutoTags } from '../tags/auto-tag';
import { reopenUnanswered } from './answered';
import { appendMessage, repairConversation } from './append-message';
import { announceUpdated } from './delivery';
import { findOpenConversation, findOrOpenConversation } from './open-conversation';
import { loadConversation, toMessage } from './present';

type ContactRow = typeof contacts.$inferSelect;

/** The provider's reply window on official channels: 24 h after the customer's last message. */
const REPLY_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * What a customer's message needs first, in one round trip: the contact by phone, its open conversation on the
 * chip, and whether this message is stored already (a replay). No row when the contact is new.
 */
async function lookUp(db: Db, chip: ChipRow, phone: string, platformMessageId: string) {
  const [row] = await prepared(db, 'inbound_lookup', (d) =>
    d
      .select({
        seen: sql<
          string | null
        >`(select ${messages.id} from ${messages} where ${messages.chipId} = ${sql.placeholder('chip')} and ${messages.platformMessageId} = ${sql.placeholder('platform')} limit 1)`,
        contact: contacts,
        conversation: conversations,
        // The account's rules the message meets next, read here rather than by two more round trips.
        autoTags: sql<
          AutoTagCandidate[]
        >`(select coalesce(json_agg(json_build_object('id', ${tags.id}, 'autoTag', ${tags.autoTag}, 'keywords', ${tags.keywords})), '[]') from ${tags} where ${tags.accountId} = ${sql.placeholder('account')} and ${tags.autoTag} and not ${tags.filed})`,
        keywordFlows: sql<
          KeywordFlow[]
        >`(select coalesce(json_agg(json_build_object('id', ${flows.id}, 'keywords', ${flows.keywords}, 'triggerHuman', ${flows.triggerHuman}, 'disabledChips', ${flows.disabledChips}) order by ${flows.createdAt}, ${flows.id}), '[]') from ${flows} where ${flows.accountId} = ${sql.placeholder('account')} and ${flows.trigger} and not ${flows.filed})`,
      })
      .from(contacts)
      .leftJoin(
        conversations,
        and(
          eq(conversations.chipId, sql.placeholder('chip')),
          eq(conversations.contactId, contacts.id),
          isNull(conversations.finishedAt),
        ),
      )
      .where(
        and(
          eq(contacts.accountId, sql.placeholder('account')),
          eq(contacts.phone, sql.placeholder('phone')),
          eq(contacts.filed, false),
        ),
      )
      .limit(1)
      .prepare('inbound_lookup'),
  ).execute({ chip: chip.id, platform: platformMessageId, account: chip.accountId, phone });
  return row;
}

/** Whether this message is stored already, for a contact the lookup did not find (new, or deleted since). */
async function storedId(db: Db, chip: ChipRow, platformMessageId: string) {
  const [row] = await prepared(db, 'inbound_seen', (d) =>
    d
      .select({ id: messages.id })
      .from(messages)
      .where(
        and(
          eq(messages.chipId, sql.placeholder('chip')),
          eq(messages.platformMessageId, sql.placeholder('platform')),
        ),
      )
      .limit(1)
      .prepare('inbound_seen'),
  ).execute({ chip: chip.id, platform: platformMessageId });
  return row?.id ?? null;
}

async function upsertContact(
  services: Services,
  chip: ChipRow,
  phone: string,
  inbound: InboundMessage,
  known: ContactRow | undefined,
) {
  const { db } = services;
  const name = (inbound.name ?? '').trim().slice(0, 200);
  // The usual customer is known and unchanged: the upsert would write a new row version (and flush the log)
  // for every message.
  if (known && known.channelContactId === inbound.from && (known.name !== '' || !name)) return known;
  const [row] = await db
    .insert(contacts)
    .values({ id: newId(), accountId: chip.accountId, phone, name, channelContactId: inbound.from })
    .onConflictDoUpdate({
      target: [contacts.accountId, contacts.phone],
      targetWhere: sql`${contacts.filed} = false`,
      // A profile name fills an empty name; a name the team typed (override_name) is never touched.
      set: {
        name: sql`case when ${contacts.name} = '' then excluded.name else ${contacts.name} end`,
        channelContactId: sql`excluded.channel_contact_id`,
      },
    })
    .returning();
  if (!row) throw new Error('contact upsert returned nothing');
  return row;
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
async function storageConversation(services: Services, chip: ChipRow, contactId: string) {
  const { db } = services;
  const open = await findOpenConversation(services.db, chip.id, contactId);
  if (open) return open;
  const [created] = await db
    .insert(conversations)
    .values({
      id: newId(),
      accountId: chip.accountId,
      chipId: chip.id,
      contactId,
      departmentId: chip.departmentId,
      isNew: false,
      finishedAt: new Date(),
      channelType: chip.official ? OFFICIAL_CHANNEL_TYPE : null,
    })
    .returning();
  if (!created) throw new Error('conversation insert returned nothing');
  return created;
}

/** The account's auto-tags the text names that the contact does not have yet. */
async function autoTags(
  services: Services,
  chip: ChipRow,
  contact: ContactRow,
  text: string,
  known?: AutoTagCandidate[],
) {
  if (!text) return [];
  const candidates =
    known ??
    (await prepared(services.db, 'auto_tags', (d) =>
      d
        .select({ id: tags.id, autoTag: tags.autoTag, keywords: tags.keywords })
        .from(tags)
        .where(
          and(eq(tags.accountId, sql.placeholder('account')), eq(tags.filed, false), eq(tags.autoTag, true)),
        )
        .prepare('auto_tags'),
    ).execute({ account: chip.accountId }));
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
  const samePlatformId = and(
    eq(messages.chipId, chip.id),
    eq(messages.platformMessageId, inbound.platformMessageId),
  );
  const phone = normalizePhone(inbound.from) ?? inbound.from.replace(/\D/g, '');
  // The usual case (a known customer's new message) is one read; a replay then reads what its repair needs.
  const found = await lookUp(db, chip, phone, inbound.platformMessageId);
  const seen = found ? found.seen : await storedId(db, chip, inbound.platformMessageId);
  const [already] = seen
    ? await db
        .select({ message: messages, conversation: conversations, ignore: contacts.ignore })
        .from(messages)
        .innerJoin(conversations, eq(conversations.id, messages.conversationId))
        .innerJoin(contacts, eq(contacts.id, conversations.contactId))
        .where(eq(messages.id, seen))
        .limit(1)
    : [];
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

  const contact = await upsertContact(services, chip, phone, inbound, found?.contact);
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
    : { conversation: await storageConversation(services, chip, contact.id), created: false };

  const created = opened || campaignReply?.opened === true;

  let replyMessage: (typeof messages.$inferInsert)['replyMessage'] = null;
  if (inbound.replyTo) {
    const [quoted] = await db
      .select()
      .from(messages)
      .where(and(eq(messages.chipId, chip.id), eq(messages.platformMessageId, inbound.replyTo)))
      .limit(1);
    if (quoted) replyMessage = { type: quoted.type, message: quoted.message, media: quoted.mediaUrl };
  }
  const tagged = handled ? await autoTags(services, chip, contact, inbound.text, found?.autoTags) : [];
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
            if (tagged.length)
              await tx
                .update(contacts)
                .set({
                  tags: sql`(select coalesce(jsonb_agg(distinct t), '[]'::jsonb) from jsonb_array_elements(${contacts.tags} || ${JSON.stringify(tagged)}::jsonb) t)`,
                })
                .where(eq(contacts.id, contact.id));
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
  const value = RECEIPT_STATUS[status];
  const match = and(eq(messages.chipId, chip.id), eq(messages.platformMessageId, platformMessageId));
  for (let attempt = 0; ; attempt++) {
    let reopened = false;
    const [row] =
      value === MESSAGE_STATUS.failed
        ? // A failure counts only before delivery: a late failure of a delivered message is noise. It gives
          // the customer's wait back, in the same transaction, when that send was what answered it.
          await db.transaction(async (tx) => {
            const failed = await tx
              .update(messages)
              .set({ status: value, failure: reason ?? null })
              .where(and(match, sql`${messages.status} between 0 and ${MESSAGE_STATUS.sent}`))
              .returning();
            if (failed[0]) reopened = await reopenUnanswered(tx as Db, failed[0]);
            return failed;
          })
        : await db
            .update(messages)
            .set({ status: value })
            .where(and(match, gte(sql`${value}`, messages.status), sql`${messages.status} <> ${value}`))
            .returning();
    if (row) {
      const [conversation] = await db
        .select({ departmentId: conversations.departmentId })
        .from(conversations)
        .where(eq(conversations.id, row.conversationId));
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
    const exists = await db.select({ id: messages.id }).from(messages).where(match).limit(1);
    // Known and already at (or past) this status: nothing to do. Unknown: maybe not stored yet.
    if (exists.length) return;
    const wait = RECEIPT_RETRY_MS[attempt];
    if (wait === undefined) return;
    await new Promise((r) => setTimeout(r, wait));
  }
}

/** Where a customer's media stands whose download failed (a text notice is stored in its place). */
export async function mediaNoticeState(services: Services, chipId: string, platformMessageId: string) {
  const [row] = await services.db
    .select({ type: messages.type, mediaUrl: messages.mediaUrl })
    .from(messages)
    .where(and(eq(messages.chipId, chipId), eq(messages.platformMessageId, platformMessageId)))
    .limit(1);
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
  const [row] = await db
    .update(messages)
    .set({
      type: media.type,
      message: media.caption,
      mediaUrl: stored.url,
      fileName: withoutBidiControls(media.fileName ?? '') || null,
      ptt: media.type === 'audio' && media.voice === true,
      audioSeconds: media.type === 'audio' ? await audioSeconds(media.buffer, media.mime) : null,
    })
    .where(
      and(
        eq(messages.chipId, chipId),
        eq(messages.platformMessageId, platformMessageId),
        eq(messages.type, 'text'),
        sql`${messages.mediaUrl} is null`,
      ),
    )
    .returning();
  if (!row) {
    await services.media.remove(stored.url);
    return false;
  }
  const [conversation] = await db
    .select({ departmentId: conversations.departmentId })
    .from(conversations)
    .where(eq(conversations.id, row.conversationId));
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
  const set = 'text' in change ? { message: change.text } : { deleted: true };
  const same =
    'text' in change ? sql`${messages.message} is distinct from ${change.text}` : eq(messages.deleted, false);
  const [row] = await db
    .update(messages)
    .set(set)
    .where(
      and(
        eq(messages.chipId, chip.id),
        eq(messages.platformMessageId, platformMessageId),
        eq(messages.origin, 'customer'),
        same,
      ),
    )
    .returning();
  if (!row) return;
  const [conversation] = await db
    .select({ departmentId: conversations.departmentId })
    .from(conversations)
    .where(eq(conversations.id, row.conversationId));
  realtime.toConversation(chip.accountId, conversation?.departmentId ?? null, {
    type: 'message_updated',
    message: { conversation_id: row.conversationId, message: toMessage(row) },
  });
}
