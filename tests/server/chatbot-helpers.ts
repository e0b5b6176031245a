// Helpers for the AI chatbots' tests: a draft the rules accept.
import type { ChatbotDraft } from '@/shared/contract/chatbots';
import { newChatbotDraft } from '@/shared/rules/chatbot';

/** A draft the shared rules accept; `over` replaces fields, and its instructionsObject's fields one by one. */
export const validDraft = (
  over: Partial<Omit<ChatbotDraft, 'instructionsObject'>> & {
    instructionsObject?: Partial<ChatbotDraft['instructionsObject']>;
  } = {},
): ChatbotDraft => {
  const base = newChatbotDraft();
  return {
    ...base,
    name: 'Atendente virtual',
    ...over,
    instructionsObject: {
      ...base.instructionsObject,
      persona_name: 'Ana',
      persona_gender: 'feminina',
      persona_mission: 'Atender os clientes da Loja Demo',
      personality_types: ['Amigável'],
      context: 'A Loja Demo vende camisetas a R$ 49,90.',
      ...over.instructionsObject,
    },
  };
};
