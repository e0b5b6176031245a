// AI chatbots (spec 3 §2.7, §3 Chatbot, §5 Chatbot): list, open, create (from scratch or from a model), save,
// delete. A draft is judged by the shared rules (rules/chatbot.ts, the editor's own), then by what only the
// server knows: the flow of a flow redirect is a live flow of this account. A refusal names the first problem.
import type { z } from 'zod';
import type { CallName, Calls } from '../../../shared/contract';
import type { Chatbot, ChatbotDraft, ChatbotSummary } from '../../../shared/contract/chatbots';
import { messages } from '../../../shared/messages';
import { chatbotProblems, draftFromModel, newChatbotDraft } from '../../../shared/rules/chatbot';
import { CHATBOT_MODELS } from '../../../shared/rules/chatbot-models';
import { fieldError } from '../../../shared/rules/field-error';
import type { Actor } from '../../access';
import { AppError, fieldFailure } from '../../http/errors';
import type { Services } from '../../services';
import { announceUpdated } from '../conversations/delivery';
import { flowsRepo } from '../flows/flows.repo';
import { type ChatbotFields, type ChatbotRow, chatbotsRepo } from './chatbots.repo';

type Payload<N extends CallName> = z.output<Calls[N]['payload']>;

/** The row as the editor's draft. */
export const draftOf = (r: ChatbotRow): ChatbotDraft => ({
  name: r.name,
  temperature: Math.round(r.temperature * 10) / 10,
  response_delay: r.responseDelay,
  redirect: r.redirect,
  flow: r.flowId,
  chatbot_auto_transfer: r.autoTransfer,
  chatbot_auto_transfer_if_is_media: r.autoTransferIfMedia,
  chatbot_auto_transfer_message: r.autoTransferMessage,
  finish_conversation_message: r.finishMessage,
  instructionsObject: r.instructions,
});

export const toChatbot = (r: ChatbotRow): Chatbot => ({
  ...draftOf(r),
  _id: r.id,
  model: r.model,
  created: r.createdAt.toISOString(),
  updated: r.updatedAt.toISOString(),
});

const toSummary = (r: ChatbotRow): ChatbotSummary => ({
  _id: r.id,
  name: r.name,
  persona_name: r.instructions.persona_name,
  persona_gender: r.instructions.persona_gender,
  created: r.createdAt.toISOString(),
  updated: r.updatedAt.toISOString(),
});

const fieldsOf = (d: ChatbotDraft): ChatbotFields => ({
  name: d.name.trim(),
  temperature: d.temperature,
  responseDelay: d.response_delay,
  redirect: d.redirect,
  // A human redirect keeps no flow: the flow's deletion must not concern this chatbot.
  flowId: d.redirect === 'flow_chatbot' ? d.flow : null,
  autoTransfer: d.chatbot_auto_transfer,
  autoTransferIfMedia: d.chatbot_auto_transfer_if_is_media,
  autoTransferMessage: d.chatbot_auto_transfer_message,
  finishMessage: d.finish_conversation_message,
  instructions: { ...d.instructionsObject, persona_name: d.instructionsObject.persona_name.trim() },
});

export async function listChatbots(services: Services, actor: Actor): Promise<ChatbotSummary[]> {
  return (await chatbotsRepo.list(services.db, actor)).map(toSummary);
}

async function ownChatbot(services: Services, actor: Actor, id: string) {
  const row = await chatbotsRepo.find(services.db, actor, id);
  if (!row) throw new AppError(messages.chatbotNotFound);
  return row;
}

export async function getChatbot(services: Services, actor: Actor, id: string): Promise<Chatbot> {
  return toChatbot(await ownChatbot(services, actor, id));
}

export const listChatbotModels = () => CHATBOT_MODELS;

/** Refuses a draft the rules or the account's references refuse, with its first problem. */
export async function checkDraft(services: Services, actor: Actor, d: ChatbotDraft) {
  const [problem] = chatbotProblems(d);
  if (problem) throw fieldFailure(problem);
  if (d.redirect === 'flow_chatbot' && d.flow && !(await flowsRepo.find(services.db, actor, d.flow)))
    throw fieldFailure(fieldError('flow', messages.flowNotFound));
}

/** The draft fields the payload carries (the rest of the payload is _id, filed, from_model). */
function givenFields(p: Payload<'create-or-update-chatbot'>): Partial<ChatbotDraft> {
  const { _id: _i, filed: _f, from_model: _m, ...fields } = p;
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

/**
 * Creates (no _id), from scratch or from a model, or saves a chatbot; `filed: true` deletes it (its chips and
 * the conversations it serves go to human service).
 */
export async function saveChatbot(
  services: Services,
  actor: Actor,
  p: Payload<'create-or-update-chatbot'>,
): Promise<Chatbot> {
  const { db } = services;
  if (p.filed) {
    if (!p._id) throw new AppError(messages.chatbotNotFound);
    const filed = await chatbotsRepo.file(db, actor, p._id);
    if (!filed) throw new AppError(messages.chatbotNotFound);
    for (const id of filed.moved) await announceUpdated(services, actor.accountId, id);
    return toChatbot(filed.row);
  }
  const existing = p._id ? await ownChatbot(services, actor, p._id) : null;
  let base: ChatbotDraft = existing ? draftOf(existing) : newChatbotDraft();
  let model: string | null = existing?.model ?? null;
  if (p.from_model && !existing) {
    const found = CHATBOT_MODELS.find((m) => m._id === p.from_model?.model);
    if (!found) throw new AppError(messages.chatbotModelNotFound);
    const made = draftFromModel(found, p.from_model.values, p.name ?? '');
    if ('error' in made) throw fieldFailure(made.error);
    base = made.draft;
    model = found._id;
  }
  const draft: ChatbotDraft = { ...base, ...givenFields(p) };
  await checkDraft(services, actor, draft);
  const fields = { ...fieldsOf(draft), model };
  if (!existing) return toChatbot(await chatbotsRepo.insert(db, actor, fields));
  const saved = await chatbotsRepo.update(db, actor, existing.id, fields);
  // Deleted by someone else between the read and the write.
  if (!saved) throw new AppError(messages.chatbotNotFound);
  return toChatbot(saved);
}
