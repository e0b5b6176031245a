// A person of an official campaign and their conversation (spec 3 §3 Official campaign extras: the
// conversation creation rule, redirect, chatbot, flow, department). Rule 'all': the sending job opens the
// conversation right after the send; rule 'on_response': the pipeline opens it when the person replies, the
// template first, then the reply. Either way the conversation gets the template as the business's first
// message, stored with the send's wamid so that the status webhooks (receipts) update it.
//
// The pipeline's part (receiveInbound): a customer message on an official chip from a person an official
// campaign of that chip sent to within 30 days marks replied_at; a quick-reply tap (payload
// `camp:<campaign>:<index>`, see official-template.ts) marks clicked_button and starts that button's flow.
import { MESSAGE_STATUS } from '../../../shared/constants';
import { systemActor } from '../../access';
import type { ChipRow, InboundMessage } from '../../channels/adapter';
import type { Db } from '../../db';
import type { Services } from '../../services';
import { appendMessage } from '../conversations/append-message';
import { contactByPhone, findOrOpenConversation } from '../conversations/open-conversation';
import { loadConversation } from '../conversations/present';
import type { CampaignRow } from './campaigns.repo';
import { officialPeopleRows as people } from './official-people.repo';
import type { RecipientRow } from './official-send.repo';
import { officialTemplateContent, readButtonPayload, tappedButton } from './official-template';

/** How long after the send a person's message counts as a reply to the campaign. */
export const REPLY_WINDOW_DAYS = 30;

export interface OfficialPerson {
  phone: string;
  data: Record<string, string>;
  /** The send's wamid: the stored message's platform id. */
  platformMessageId: string;
  sentAt: Date;
}

/** Who serves a conversation the campaign opens: its own redirect, or the chip's when it has none. */
function servedBy(campaign: CampaignRow, chip: ChipRow) {
  const own = campaign.redirect !== null;
  const redirect = campaign.redirect ?? chip.redirect;
  const human = redirect === 'human';
  return {
    departmentId: campaign.departmentId ?? chip.departmentId,
    isManual: human,
    chatbotType: human
      ? null
      : redirect === 'flow_chatbot'
        ? ('flow_chatbot' as const)
        : ('chatbot' as const),
    chatbotId: redirect === 'ai_chatbot' ? (own ? campaign.chatbotId : chip.chatbotId) : null,
    flowId: redirect === 'flow_chatbot' ? (own ? campaign.flowId : chip.flowId) : null,
    // A flow starts at the person's next message: outside the reply window only templates may be sent.
    startFlow: redirect === 'flow_chatbot',
  };
}

/** The public URL Meta fetched the image header from (the preview names no image; kept for the content). */
const publicUrl = (services: Services) => (link: string) =>
  /^https?:\/\//.test(link) ? link : `${services.config.publicUrl}${link}`;

/** The message's status from what the webhooks already told of the person (a reply may come after a read). */
function statusOf(person: { deliveredAt: Date | null; readAt: Date | null } | undefined) {
  if (person?.readAt) return MESSAGE_STATUS.read;
  if (person?.deliveredAt) return MESSAGE_STATUS.delivered;
  return MESSAGE_STATUS.sent;
}

async function openOfficial(
  services: Services,
  campaign: CampaignRow,
  chip: ChipRow,
  person: OfficialPerson,
  opts: { announce: boolean },
): Promise<{ conversationId: string; created: boolean }> {
  const { db, realtime } = services;
  const actor = systemActor(campaign.accountId, 'campaigns');
  const wamid = person.platformMessageId;
  // Called again (the job's sweep, a reply after the send's own call): the message says where it is.
  const known = await people.conversationOfSend(db, actor, chip.id, wamid);
  if (known) return { conversationId: known, created: false };

  const contact = await contactByPhone(db, campaign.accountId, person.phone);
  const { conversation, created } = await findOrOpenConversation(
    db,
    chip,
    contact.id,
    servedBy(campaign, chip),
  );
  const recipient = await people.delivery(db, actor, campaign.id, person.phone);
  const { preview } = officialTemplateContent(
    campaign.id,
    campaign.template ?? { name: '', language: '', category: '', components: [] },
    campaign.templateParameters,
    person.data,
    publicUrl(services),
    { name: contact.overrideName || contact.name, data: contact.data },
  );
  const appended = await appendMessage(services, actor, {
    conversation,
    effect: 'team',
    existing: people.sendMessage(actor, chip.id, wamid),
    announce: opts.announce && !created,
    // With the message: the person's conversation and message. A campaign's message answers no one
    // (answered.ts): a person who replied stays waiting for the team.
    alsoWrite: (tx) =>
      people.linkConversation(
        tx,
        actor,
        { campaignId: campaign.id, phone: person.phone, chipId: chip.id, wamid },
        { conversationId: conversation.id, contactId: contact.id },
      ),
    message: {
      origin: 'user',
      userId: campaign.userId,
      type: 'text',
      message: preview,
      platformMessageId: person.platformMessageId,
      status: statusOf(recipient),
      createdAt: person.sentAt,
    },
  });
  if (created && opts.announce) {
    const view = await loadConversation(db, conversation.id);
    if (view)
      realtime.toConversation(campaign.accountId, view.department, {
        type: 'new_conversation',
        message: view,
      });
  }
  return { conversationId: appended.row.conversationId, created };
}

/**
 * Finds or opens the person's conversation on the chip as the campaign says (redirect, chatbot or flow,
 * department) and stores the template's preview as the business's message with the send's wamid. Safe to
 * repeat and to race: called twice, one conversation and one message. Emits new_conversation when it opens one.
 */
export async function openOfficialConversation(
  services: Services,
  campaign: CampaignRow,
  chip: ChipRow,
  person: OfficialPerson,
): Promise<string> {
  return (await openOfficial(services, campaign, chip, person, { announce: true })).conversationId;
}

/** The person of an official campaign of this chip the message answers: by the tapped button, or the latest sent. */
function campaignPerson(db: Db, chip: ChipRow, phone: string, at: Date, campaignId: string | null) {
  const since = new Date(at.getTime() - REPLY_WINDOW_DAYS * 24 * 60 * 60 * 1000);
  return people.replyTarget(db, systemActor(chip.accountId, 'pipeline'), chip.id, phone, since, campaignId);
}

export interface OfficialReply {
  person: RecipientRow;
  campaign: CampaignRow;
  /** The conversation was opened for this reply (rule 'on_response'): the pipeline announces it. */
  opened: boolean;
  /** A quick-reply tap: the button's text, and the flow it starts (null: none chosen). */
  tap: { text: string; flowId: string | null } | null;
  /** Written with the reply (the same transaction): replied_at, and clicked_button for a tap. */
  record(tx: Db, repliedAt: Date): Promise<unknown>;
}

/**
 * Before the pipeline opens the conversation of a customer message on an official chip: the campaign person it
 * answers (null: none), with the campaign's conversation opened first when the person has none yet (the
 * template message before the reply).
 */
export async function officialCampaignReply(
  services: Services,
  chip: ChipRow,
  phone: string,
  inbound: InboundMessage,
  at: Date,
): Promise<OfficialReply | null> {
  if (!chip.official) return null;
  const payload = inbound.choice ? readButtonPayload(inbound.choice.id) : null;
  const found =
    (payload && (await campaignPerson(services.db, chip, phone, at, payload.campaignId))) ||
    (await campaignPerson(services.db, chip, phone, at, null));
  if (!found) return null;
  const { person, campaign } = found;
  const tap = payload && payload.campaignId === campaign.id ? tappedButton(campaign, payload.index) : null;
  let opened = false;
  if (!person.conversationId && person.platformMessageId && person.sentAt) {
    const made = await openOfficial(
      services,
      campaign,
      chip,
      {
        phone: person.phone,
        data: person.data,
        platformMessageId: person.platformMessageId,
        sentAt: person.sentAt,
      },
      { announce: false },
    );
    opened = made.created;
  }
  return {
    person,
    campaign,
    opened,
    tap,
    record: (tx, repliedAt) =>
      people.recordReply(
        tx,
        systemActor(chip.accountId, 'pipeline'),
        { campaignId: campaign.id, phone: person.phone },
        repliedAt,
        tap?.text ?? null,
      ),
  };
}
