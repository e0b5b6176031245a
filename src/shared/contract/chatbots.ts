// AI chatbots (spec 3 §2.7, §3 Chatbot and Chatbot model, §5 Chatbot, §8, §9). A chatbot is a persona the
// engine (src/server/domains/chatbots/) prompts an OpenAI-compatible model with; the rules that judge one are
// in rules/chatbot.ts, the models it can start from in rules/chatbot-models.ts.
import { z } from 'zod';
import { messages } from '../messages';
import { id } from './common';
import { defineCall } from './define';

export const PERSONA_GENDERS = ['feminina', 'masculina'] as const;
export type PersonaGender = (typeof PERSONA_GENDERS)[number];

/** The 21 personality choices of spec 3 §9, in its order (the stored value is the label itself). */
export const PERSONALITY_TYPES = messages.chatbotPersonalities;
export type PersonalityType = (typeof PERSONALITY_TYPES)[number];

/** Who serves the conversation after the chatbot hands it over (spec 3 §3 Chatbot redirect). */
export const CHATBOT_REDIRECTS = ['human', 'flow_chatbot'] as const;
export type ChatbotRedirect = (typeof CHATBOT_REDIRECTS)[number];

/** Bounds against abuse; the editor's own limits (3 personalities, 25k/50k context) are in rules/chatbot.ts. */
export const CHATBOT_CONTEXT_MAX = 200_000;
const s = (max: number) => z.string().max(max);

/** What the persona is told (spec 3 §3 instructionsObject). */
export const chatbotInstructions = z.object({
  persona_name: s(100),
  persona_gender: z.enum(PERSONA_GENDERS).or(z.literal('')),
  persona_mission: s(2000),
  personality_types: z.array(z.enum(PERSONALITY_TYPES)).max(PERSONALITY_TYPES.length),
  fallback: s(1000),
  context: z.string().max(CHATBOT_CONTEXT_MAX, messages.chatbotContextMax),
});
export type ChatbotInstructions = z.infer<typeof chatbotInstructions>;

/** The editable fields of a chatbot: what the editor's form holds, and what 'Testar chatbot' runs. */
export const chatbotDraft = z.object({
  name: s(200),
  /** 0 to 1, step 0.1 (default 0.3). */
  temperature: z.number().min(0).max(1),
  /** Seconds the chatbot waits before it shows 'digitando…' (default 2); quick messages share one answer. */
  response_delay: z.number().int().min(0).max(60),
  /** Who serves after a transfer: a person ('human') or a flow ('flow_chatbot', `flow` required). */
  redirect: z.enum(CHATBOT_REDIRECTS),
  flow: id.nullable(),
  /** The model may hand the conversation over (a tool call) when the customer asks for a person or it cannot help. */
  chatbot_auto_transfer: z.boolean(),
  /** A customer's file (image, audio, video, document) hands the conversation over at once. */
  chatbot_auto_transfer_if_is_media: z.boolean(),
  /** Sent to the customer when the chatbot hands over to a person. */
  chatbot_auto_transfer_message: s(1000),
  /** Sent when a conversation the chatbot serves is finished after 48 h without messages. */
  finish_conversation_message: s(1000),
  instructionsObject: chatbotInstructions,
});
export type ChatbotDraft = z.infer<typeof chatbotDraft>;

export const chatbot = chatbotDraft.extend({
  _id: id,
  /** The model it was created from, if any. */
  model: z.string().nullable(),
  created: z.string(),
  updated: z.string(),
});
export type Chatbot = z.infer<typeof chatbot>;

/** The list's row (every role: the chips and transfer dialogs pick from it). */
export const chatbotSummary = z.object({
  _id: id,
  name: z.string(),
  persona_name: z.string(),
  persona_gender: z.string(),
  created: z.string(),
  updated: z.string(),
});
export type ChatbotSummary = z.infer<typeof chatbotSummary>;

/** A model's content item (spec 3 §3 Chatbot model): a field the user fills, turned into context text. */
export const chatbotModelItem = z.object({
  /** The value's key in `values` of a creation from this model. */
  name: z.string(),
  /** Its label, and the {description} of 'É necessário preencher o campo: {description}'. */
  description: z.string(),
  /** text_field: one line; textarea: several; text: fixed text, nothing to fill. */
  type: z.enum(['text_field', 'textarea', 'text']),
  required: z.boolean(),
  /** The context's paragraph: {valor} is replaced by what the user typed (type text: used as is). */
  text: z.string(),
  placeholder: z.string().optional(),
});
export type ChatbotModelItem = z.infer<typeof chatbotModelItem>;

export const chatbotModel = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string(),
  content: z.array(chatbotModelItem),
  personality_types: z.array(z.enum(PERSONALITY_TYPES)),
  persona_mission: z.string(),
  chatbot_auto_transfer_message: z.string(),
});
export type ChatbotModel = z.infer<typeof chatbotModel>;

/** One line of the 'Testar chatbot' conversation. */
export const chatbotTestLine = z.object({
  from: z.enum(['customer', 'chatbot']),
  text: s(4096),
});

/** What the engine decided for one turn (the test chat shows it; the live engine acts on it). */
export const chatbotTurn = z.object({
  /** The answer sent to the customer; null when the turn only hands over. */
  answer: z.string().nullable(),
  /** A hand-over: to a person or to the chatbot's flow, with the model's reason when it gave one. */
  transfer: z
    .object({ to: z.enum(CHATBOT_REDIRECTS), reason: z.string(), message: z.string().nullable() })
    .nullable(),
});
export type ChatbotTurn = z.infer<typeof chatbotTurn>;

/**
 * Where a conversation's chatbot stands (conversations.chatbot_context), written by the engine after every
 * answer: a restart or another process answers exactly the customer messages not yet answered.
 */
export interface ChatbotContext {
  chatbot: string;
  /** The last customer message already answered (created_at ISO, id): later ones wait for an answer. */
  input_after: { at: string; id: string } | null;
  /** Failed provider calls for the current input (the retries' backoff; after the last, a person serves). */
  attempts: number;
  /** After a failed call: not before this time (ISO), so a sweep or a new message does not skip the backoff. */
  retry_at?: string | null;
}

const manageChatbots = { roles: ['owner', 'manager'], area: 'chatbots' } as const;

export const chatbotsCalls = {
  /** Every role: the chips and transfer dialogs pick from it. */
  'get-chatbots-by-user': defineCall({
    access: {},
    payload: z.object({}).default({}),
    answer: z.array(chatbotSummary),
  }),
  'get-chatbot': defineCall({ access: manageChatbots, payload: z.object({ _id: id }), answer: chatbot }),
  'get-chatbot-models': defineCall({
    access: manageChatbots,
    payload: z.object({}).default({}),
    answer: z.array(chatbotModel),
  }),
  /**
   * Creates (no _id) or changes a chatbot; `filed: true` deletes it. A creation from a model names it and the
   * values of its content items: the context, mission, personalities and defaults come from the model
   * (spec 3 §9), then the same rules judge the result (rules/chatbot.ts).
   */
  'create-or-update-chatbot': defineCall({
    access: manageChatbots,
    payload: chatbotDraft.partial().extend({
      _id: id.optional(),
      filed: z.boolean().optional(),
      from_model: z
        .object({ model: z.string().max(64), values: z.record(z.string().max(64), s(20_000)) })
        .optional(),
    }),
    answer: chatbot,
  }),
  /**
   * 'Testar chatbot': the real engine's turn for the draft and the test conversation so far, touching no
   * customer. The provider is called as for a customer; nothing is stored.
   */
  'test-chatbot': defineCall({
    access: manageChatbots,
    payload: z.object({ draft: chatbotDraft, lines: z.array(chatbotTestLine).min(1).max(100) }),
    answer: chatbotTurn,
  }),
} as const;
