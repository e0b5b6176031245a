// What the integrations send (issue 20: the public API, the webhooks): a text, a flow or an approved template
// to a PHONE on one of the account's CHIPS, acting as the caller (the API key's account, or the system for a
// webhook's event) on that account only. Each call is idempotent by
// the caller's `key`: called again with it (a retry, a replay, a restart after a crash mid-way) it sends
// nothing new and answers the same outcome.
// - A text goes through the attendants' send path with the message_id `out-<hash of key>`: one stored message
//   and one provider call per message_id, whatever crashes in between (conversations.service.ts).
// - A flow start records the key (outbound_sends) in the start's own transaction (start.ts alsoWrite): a retry
//   finds it and starts nothing.
// - A template is a one-person official campaign (its row, its person, the key and its job in one
//   transaction), sent by the official campaigns' job: the same exactly-once send, the same conversation rule,
//   redirect and quick-reply flows as a campaign of the /campanhas-api-oficial screen.
// Errors are AppErrors with the HTTP status the public API answers: 404 for a chip or flow that is not the
// account's (no hint it exists), 400 for bad input, 503 for a disconnected chip.
import { createHash } from 'node:crypto';
import { MESSAGE_STATUS } from '../../../shared/constants';
import { officialCampaignFields, type TemplateParameter } from '../../../shared/contract/campaigns';
import { ID_PATTERN, newId } from '../../../shared/ids';
import { messages as texts } from '../../../shared/messages';
import { apiMessages } from '../../../shared/messages-api';
import { normalizePhone } from '../../../shared/phone';
import type { Actor } from '../../access';
import type { ChipRow } from '../../channels/adapter';
import type { Db } from '../../db';
import { AppError } from '../../http/errors';
import { queueOfficialCampaignRun } from '../../jobs/official-campaigns';
import type { Services } from '../../services';
import { prepare as prepareOfficialSend } from '../campaigns/official.service';
import { chipsRepo } from '../chips/chips.repo';
import { apiSender, sendConversationMessage } from '../conversations/conversations.service';
import {
  contactByPhone,
  findOpenConversation,
  openTeamConversation,
} from '../conversations/open-conversation';
import { loadConversation, toMessage } from '../conversations/present';
import { flowsRepo } from '../flows/flows.repo';
import { startFlowRun } from '../flows/start';
import { outboundRepo } from './outbound.repo';

/** Where: one of the actor's account's chips, a phone as typed (normalised here), the caller's key. */
export interface OutboundTarget {
  chipId: string;
  phone: string;
  /** Same key, same outcome, nothing sent twice. Callers namespace it ('api:…', 'webhook:…'). */
  key: string;
}

export type SendStatus = 'pending' | 'sent' | 'delivered' | 'read' | 'failed';

export interface TextOutcome {
  conversation_id: string;
  /** The stored message (messages.id). */
  message_id: string;
  status: SendStatus;
  failure: string | null;
}
export interface FlowOutcome {
  conversation_id: string;
  flow_id: string;
}
export interface TemplateOutcome {
  /** The one-person official campaign that sends it (its delivery data is listed with the campaigns). */
  campaign_id: string;
  status: 'queued';
}

/** The message_id of a text sent for `key`: the send path's dedupe. */
export const outboundMessageId = (key: string) =>
  `out-${createHash('sha256').update(key).digest('base64url').slice(0, 32)}`;

const statusName = (status: number): SendStatus =>
  status >= MESSAGE_STATUS.read
    ? 'read'
    : status >= MESSAGE_STATUS.delivered
      ? 'delivered'
      : status >= MESSAGE_STATUS.sent
        ? 'sent'
        : status === MESSAGE_STATUS.pending
          ? 'pending'
          : 'failed';

/** The account's chip (not deleted); another account's id, or a bad one, is simply not found. */
async function accountChip(services: Services, actor: Actor, chipId: string): Promise<ChipRow> {
  const chip = ID_PATTERN.test(chipId) ? await chipsRepo.find(services.db, actor, chipId) : null;
  if (!chip) throw new AppError(apiMessages.chipNotFound, 404);
  return chip;
}

/** The phone as stored (digits with the country code; Brazil's when none), or a 400. */
export function outboundPhone(raw: string): string {
  const phone = normalizePhone(raw);
  if (!phone) throw new AppError(texts.invalidPhone, 400);
  return phone;
}

function assertConnected(chip: ChipRow) {
  if (chip.status !== 'open') throw new AppError(texts.chipDisconnected, 503);
}

/**
 * An official number may send free text (and a flow's messages) only within 24 h of the customer's last
 * message (the conversation's context_window); outside it only a template. Checked before anything is opened.
 */
async function assertOfficialWindow(db: Db, chip: ChipRow, contactId: string) {
  if (!chip.official) return;
  const open = await findOpenConversation(db, chip.id, contactId);
  if (!open?.contextWindow || open.contextWindow.getTime() <= Date.now())
    throw new AppError(apiMessages.officialWindowClosed, 400);
}

/** The contact's open conversation on the chip, or a new human one in the chip's department (announced). */
async function conversationWith(services: Services, chip: ChipRow, contactId: string) {
  const { conversation, created } = await openTeamConversation(
    services.db,
    chip,
    contactId,
    chip.departmentId,
  );
  if (created) {
    const view = await loadConversation(services.db, conversation.id);
    if (view)
      services.realtime.toConversation(chip.accountId, view.department, {
        type: 'new_conversation',
        message: view,
      });
  }
  return conversation;
}

/** Thrown inside a transaction whose key another call recorded first: it rolls back, the first one answers. */
class AlreadyDone extends Error {}

/** Sends `text` to the phone on the chip, as the system (origin 'chatbot': no attendant wrote it). */
export async function sendTextTo(
  services: Services,
  actor: Actor,
  o: OutboundTarget & { text: string },
): Promise<TextOutcome> {
  const { db } = services;
  const messageId = outboundMessageId(o.key);
  const stored = await outboundRepo.storedMessage(db, actor, messageId);
  if (stored) return textOutcome(toMessage(stored));

  const chip = await accountChip(services, actor, o.chipId);
  const phone = outboundPhone(o.phone);
  const text = o.text.trim();
  if (!text) throw new AppError(apiMessages.messageRequired, 400);
  assertConnected(chip);
  const contact = await contactByPhone(db, actor.accountId, phone);
  await assertOfficialWindow(db, chip, contact.id);
  const conversation = await conversationWith(services, chip, contact.id);
  const message = await sendConversationMessage({ services, actor }, apiSender, {
    conversation_id: conversation.id,
    message_id: messageId,
    text,
  });
  return textOutcome(message);
}

const textOutcome = (m: ReturnType<typeof toMessage>): TextOutcome => ({
  conversation_id: m.conversation_id,
  message_id: m._id,
  status: statusName(m.status),
  failure: m.failure ?? null,
});

/** Contact variables a flow reads as {key}: the caller's metadata, merged into contacts.data. */
export type FlowVariables = Readonly<Record<string, string | number | boolean>>;

/**
 * Starts the flow from its beginning in the phone's conversation on the chip (opened when none is), like a
 * scheduled flow or a flow campaign. `variables` become the contact's variables, which the flow reads as
 * {key} (the engine's variables are the contact's: FlowContext holds none of its own).
 */
export async function startFlowFor(
  services: Services,
  actor: Actor,
  o: OutboundTarget & { flowId: string; variables?: FlowVariables },
): Promise<FlowOutcome> {
  const { db } = services;
  const done = await outboundRepo.sent(db, actor, o.key);
  if (done?.conversationId) return { conversation_id: done.conversationId, flow_id: o.flowId };

  const chip = await accountChip(services, actor, o.chipId);
  const phone = outboundPhone(o.phone);
  const flow = ID_PATTERN.test(o.flowId) ? await flowsRepo.find(db, actor, o.flowId) : null;
  if (!flow) throw new AppError(texts.flowNotFound, 404);
  assertConnected(chip);
  const contact = await contactByPhone(db, actor.accountId, phone);
  await assertOfficialWindow(db, chip, contact.id);
  const conversation = await conversationWith(services, chip, contact.id);
  try {
    await startFlowRun(services, conversation.id, flow.id, async (tx) => {
      const recorded = await outboundRepo.record(tx, actor, {
        key: o.key,
        kind: 'flow',
        conversationId: conversation.id,
      });
      if (!recorded) throw new AlreadyDone();
      if (o.variables && Object.keys(o.variables).length) {
        // A mapped 'nome' names a contact without a name (a new one); a name it has is never overwritten.
        const nome = typeof o.variables.nome === 'string' ? o.variables.nome.trim().slice(0, 200) : '';
        await outboundRepo.setContactVariables(tx, actor, contact.id, o.variables, nome);
      }
    });
  } catch (err) {
    if (!(err instanceof AlreadyDone)) throw err;
    const first = await outboundRepo.sent(db, actor, o.key);
    return { conversation_id: first?.conversationId ?? conversation.id, flow_id: flow.id };
  }
  return { conversation_id: conversation.id, flow_id: flow.id };
}

export interface TemplateSend {
  /** The approved template's name (and language, when the number has it in several). */
  template: string;
  language?: string;
  /**
   * The template's {{n}} values: '1', '2'… for the body, 'header_1' for a text header's; 'header_image' is an
   * image header's link (an image of our media store, as the campaign dialog uploads it).
   */
  variables?: Readonly<Record<string, string>>;
  /** Quick-reply buttons (by their text) and the flow a tap starts. */
  payloads?: readonly { button: string; flow: string | null }[];
  /** 'on_response' (default): the conversation opens when the person answers; 'all': right after the send. */
  conversation_creation_rule?: 'all' | 'on_response';
  redirect?: 'human' | 'ai_chatbot' | 'flow_chatbot' | null;
  chatbot?: string | null;
  flow?: string | null;
  department?: string | null;
}

/** The parameters the campaign code matches by place: every variable given, as a fixed value. */
function givenParameters(variables: Readonly<Record<string, string>>): TemplateParameter[] {
  const out: TemplateParameter[] = [];
  for (const [name, value] of Object.entries(variables)) {
    const body = /^\d{1,3}$/.exec(name);
    const header = /^header_(\d{1,3})$/.exec(name);
    const n = Number(body?.[0] ?? header?.[1]);
    if ((body || header) && n >= 1 && n <= 100)
      out.push({
        index: n,
        par: `{{${n}}}`,
        var: '',
        fallback: value,
        location: body ? 'body' : 'header',
        type: 'text',
      });
    else if (name === 'header_image')
      out.push({
        index: 1,
        par: 'image',
        var: '',
        fallback: '',
        location: 'header',
        type: 'image',
        link: value,
      });
  }
  return out;
}

/**
 * Sends an approved template of the official chip to the phone: a one-person official campaign, judged by
 * the campaign dialog's own rules (official.service.ts prepare: the template approved now, each {{n}} given,
 * the flows, chatbot and department the account's) and sent by the official campaigns' job.
 */
export async function sendTemplateTo(
  services: Services,
  actor: Actor,
  o: OutboundTarget & TemplateSend,
): Promise<TemplateOutcome> {
  const { db } = services;
  const done = await outboundRepo.sent(db, actor, o.key);
  if (done?.campaignId) return { campaign_id: done.campaignId, status: 'queued' };

  const chip = await accountChip(services, actor, o.chipId);
  const phone = outboundPhone(o.phone);
  if (!chip.official) throw new AppError(apiMessages.chipNotOfficial, 400);
  assertConnected(chip);
  const fields = await prepareOfficialSend(
    services,
    actor,
    officialCampaignFields.parse({
      name: apiMessages.templateCampaignName(o.template),
      chip: chip.id,
      template: { name: o.template, language: o.language ?? '' },
      template_parameters: givenParameters(o.variables ?? {}),
      template_payloads: (o.payloads ?? []).map((p) => ({ button: p.button, payload: p.flow })),
      conversation_creation_rule: o.conversation_creation_rule ?? 'on_response',
      redirect: o.redirect ?? null,
      chatbot: o.chatbot ?? null,
      flow: o.flow ?? null,
      department: o.department ?? null,
      scheduledTo: null,
    }),
    { chipChanged: true, single: true },
  );
  // The campaign is the account's owner's, as a campaign row needs its creator.
  const ownerId = await outboundRepo.ownerId(db, actor);
  if (!ownerId) throw new AppError(texts.notFound, 404);

  const id = newId();
  const made = await outboundRepo.createSingleCampaign(
    db,
    actor,
    { id, key: o.key, ownerId, phone, fields },
    (tx, row) => queueOfficialCampaignRun(services, row, { tx }),
  );
  if (!made) {
    const first = await outboundRepo.sent(db, actor, o.key);
    return { campaign_id: first?.campaignId ?? id, status: 'queued' };
  }
  return { campaign_id: id, status: 'queued' };
}
