// What the AI summary and follow-up tell the model (spec 2 §5): the instructions and the transcript's words.
// They speak to the model, not to the user, so they stay here in pt-BR outside the catalogue (the inline-text
// lint allows this file).
import type { ChatMessage } from '../../ai/client';
import type { AiMessageRow as MessageRow } from './ai.repo';

export const SUMMARY_PROMPT =
  'Você resume conversas de atendimento ao cliente pelo WhatsApp para a equipe da empresa. Escreva em português do Brasil, em até 5 frases curtas: quem é o cliente, o que ele quer, o que já foi feito e o que falta fazer. Não invente informações.';
export const FOLLOW_UP_PROMPT =
  'Você escreve mensagens de follow-up para clientes de uma empresa pelo WhatsApp. A partir da conversa, escreva uma única mensagem curta, cordial e em português do Brasil, retomando o assunto e convidando o cliente a responder. Responda só com o texto da mensagem, sem aspas.';

/** Who wrote a line of the transcript. */
export const speaker = (m: MessageRow) =>
  m.origin === 'customer' ? 'Cliente' : m.origin === 'chatbot' ? 'Chatbot' : 'Atendente';

/** How a media message shows in the transcript. */
export const MEDIA_LABEL: Partial<Record<MessageRow['type'], string>> = {
  image: '[imagem]',
  video: '[vídeo]',
  document: '[documento]',
  location: '[localização]',
  audio: '[áudio]',
};

/** The model's request: the instruction, then the conversation and the attendant's own instruction, if any. */
export function prompt(system: string, lines: string[], instruction: string): ChatMessage[] {
  const extra = instruction ? `\n\nInstrução do atendente: ${instruction}` : '';
  return [
    { role: 'system', content: system },
    { role: 'user', content: `Conversa:\n${lines.join('\n')}${extra}` },
  ];
}
