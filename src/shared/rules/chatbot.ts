// The rules that judge a chatbot (spec 3 §5 Chatbot, §9): the editor shows them as the user types, the server
// refuses a save that breaks one. Also the defaults of a new chatbot and the prompt's placeholders.
import type { ChatbotDraft, ChatbotModel } from '../contract/chatbots';
import { messages } from '../messages';
import { type FieldError, fieldError } from './field-error';

export const MAX_PERSONALITIES = 3;
/** Above this the editor warns (slower, less precise answers); at CONTEXT_ERROR_AT it warns at error level. */
export const CONTEXT_WARN_ABOVE = 25_000;
export const CONTEXT_ERROR_AT = 50_000;
/** A conversation a chatbot serves is finished after this long without messages (spec 3 §9). */
export const CHATBOT_INACTIVE_HOURS = 48;
/** 'digitando…' shown before the answer goes out (spec 3 §9 changelog: waits 2 s, types 5 s). */
export const CHATBOT_TYPING_SECONDS = 5;
export const DEFAULT_RESPONSE_DELAY = 2;
export const DEFAULT_TEMPERATURE = 0.3;

export type ChatbotField =
  | 'name'
  | 'persona_name'
  | 'persona_gender'
  | 'persona_mission'
  | 'personality_types'
  | 'fallback'
  | 'context'
  | 'flow';

/** A new chatbot from scratch (the editor's empty form). */
export const newChatbotDraft = (): ChatbotDraft => ({
  name: '',
  temperature: DEFAULT_TEMPERATURE,
  response_delay: DEFAULT_RESPONSE_DELAY,
  redirect: 'human',
  flow: null,
  chatbot_auto_transfer: true,
  chatbot_auto_transfer_if_is_media: false,
  chatbot_auto_transfer_message: '',
  finish_conversation_message: '',
  instructionsObject: {
    persona_name: '',
    persona_gender: '',
    persona_mission: '',
    personality_types: [],
    fallback: messages.chatbotNoInformation,
    context: '',
  },
});

/** Every problem of the draft, in the form's order (the editor marks each field; the server answers the first). */
export function chatbotProblems(d: ChatbotDraft): FieldError<ChatbotField>[] {
  const i = d.instructionsObject;
  const out: FieldError<ChatbotField>[] = [];
  if (!d.name.trim()) out.push(fieldError('name', messages.chatbotNameRequired));
  if (!i.persona_name.trim()) out.push(fieldError('persona_name', messages.chatbotPersonaNameRequired));
  if (!i.persona_gender) out.push(fieldError('persona_gender', messages.chatbotPersonaGenderRequired));
  if (!i.persona_mission.trim()) out.push(fieldError('persona_mission', messages.chatbotMissionRequired));
  if (!i.personality_types.length)
    out.push(fieldError('personality_types', messages.chatbotPersonalityRequired));
  else if (i.personality_types.length > MAX_PERSONALITIES)
    out.push(fieldError('personality_types', messages.chatbotPersonalityMax));
  if (!i.fallback.trim()) out.push(fieldError('fallback', messages.chatbotFallbackRequired));
  if (!i.context.trim()) out.push(fieldError('context', messages.chatbotContextRequired));
  if (d.redirect === 'flow_chatbot' && !d.flow) out.push(fieldError('flow', messages.chatbotFlowRequired));
  return out;
}

/** The context's size warning: none, a warning above 25,000 characters, error level at 50,000 or more. */
export function contextWarning(context: string): { level: 'warning' | 'error'; message: string } | null {
  if (context.length >= CONTEXT_ERROR_AT) return { level: 'error', message: messages.chatbotContextTooLong };
  if (context.length > CONTEXT_WARN_ABOVE) return { level: 'warning', message: messages.chatbotContextLong };
  return null;
}

/** Every required content field of a model left blank, in the model's order. */
export function modelFieldProblems(
  model: ChatbotModel,
  values: Record<string, string>,
): FieldError<string>[] {
  return model.content
    .filter((item) => item.type !== 'text' && item.required && !(values[item.name] ?? '').trim())
    .map((item) => fieldError(item.name, messages.chatbotModelFieldRequired(item.description)));
}

/**
 * A draft from a model and the values the user typed for its content items: the items become the context,
 * the model gives mission, personalities and transfer message, and the defaults of spec 3 §9 (delay 2 s,
 * redirect human, auto transfer on, fallback 'Não tenho essa informação no momento'). A required item left
 * empty is the error 'É necessário preencher o campo: {description}'.
 */
export function draftFromModel(
  model: ChatbotModel,
  values: Record<string, string>,
  name: string,
): { draft: ChatbotDraft } | { error: FieldError<string> } {
  const [missing] = modelFieldProblems(model, values);
  if (missing) return { error: missing };
  const paragraphs: string[] = [];
  for (const item of model.content) {
    if (item.type === 'text') {
      paragraphs.push(item.text);
      continue;
    }
    const value = (values[item.name] ?? '').trim();
    if (value) paragraphs.push(item.text.replaceAll('{valor}', value));
  }
  const base = newChatbotDraft();
  return {
    draft: {
      ...base,
      name: name.trim() || model.name,
      chatbot_auto_transfer: true,
      redirect: 'human',
      response_delay: DEFAULT_RESPONSE_DELAY,
      chatbot_auto_transfer_message: model.chatbot_auto_transfer_message,
      instructionsObject: {
        ...base.instructionsObject,
        persona_mission: model.persona_mission,
        personality_types: model.personality_types.slice(0, MAX_PERSONALITIES),
        context: paragraphs.join('\n\n'),
      },
    },
  };
}
