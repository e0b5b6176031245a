// The chatbot editor's logic, as pure functions: the form's draft from a saved chatbot, its fingerprint for
// "unsaved changes", the personality chips' limit, each field's message, and the 'Testar chatbot' chat (the
// lines sent to test-chatbot and what a turn adds to the chat).
import type { Chatbot, ChatbotDraft, ChatbotTurn } from '@/shared/contract/chatbots';
import { messages } from '@/shared/messages';
import { chatbotLabels } from '@/shared/messages-editors';
import { type ChatbotField, chatbotProblems, MAX_PERSONALITIES } from '@/shared/rules/chatbot';

/** The route parameter of a chatbot not saved yet (/chatbots/novo). */
export const NEW_CHATBOT = 'novo';

export const CHATBOT_FIELDS: readonly ChatbotField[] = [
  'name',
  'persona_name',
  'persona_gender',
  'persona_mission',
  'personality_types',
  'fallback',
  'context',
  'flow',
];

/** The editable part of a saved chatbot. */
export const draftOf = (c: Chatbot): ChatbotDraft => ({
  name: c.name,
  temperature: c.temperature,
  response_delay: c.response_delay,
  redirect: c.redirect,
  flow: c.flow,
  chatbot_auto_transfer: c.chatbot_auto_transfer,
  chatbot_auto_transfer_if_is_media: c.chatbot_auto_transfer_if_is_media,
  chatbot_auto_transfer_message: c.chatbot_auto_transfer_message,
  finish_conversation_message: c.finish_conversation_message,
  instructionsObject: {
    ...c.instructionsObject,
    personality_types: [...c.instructionsObject.personality_types],
  },
});

/** What a save would send, as text: a draft differs from the saved one when this does. */
export const fingerprint = (d: ChatbotDraft) =>
  JSON.stringify({ ...d, flow: d.redirect === 'flow_chatbot' ? d.flow : null });

/** A personality chip clicked: on or off, refused with the spec's warning past the third. */
export function togglePersonality<T extends string>(
  selected: readonly T[],
  value: T,
): { selected: T[]; warning: string | null } {
  if (selected.includes(value)) return { selected: selected.filter((v) => v !== value), warning: null };
  if (selected.length >= MAX_PERSONALITIES)
    return { selected: [...selected], warning: messages.chatbotPersonalityMax };
  return { selected: [...selected, value], warning: null };
}

/** Each field's first problem, for the message under it. */
export function problemsByField(d: ChatbotDraft): Partial<Record<ChatbotField, string>> {
  const out: Partial<Record<ChatbotField, string>> = {};
  for (const p of chatbotProblems(d)) out[p.field] ??= p.message;
  return out;
}

/** The field a server refusal names, when the form has it ('instructionsObject.context' → 'context'). */
export function refusalField(field: string | undefined): ChatbotField | null {
  if (!field) return null;
  const name = field.replace(/^instructionsObject\./, '');
  return (CHATBOT_FIELDS as readonly string[]).includes(name) ? (name as ChatbotField) : null;
}

/** A character count as Brazilians write numbers ('25.000 caracteres'). */
export const characterCount = (n: number) => chatbotLabels.characters(n.toLocaleString('pt-BR'));

/** One entry of the test chat: a line of either side, or the mark of a hand-over. */
export type TestEntry =
  | { kind: 'customer'; text: string }
  | { kind: 'chatbot'; text: string }
  | { kind: 'transfer'; to: 'human' | 'flow_chatbot'; reason: string };

/** The most lines test-chatbot takes (its contract): the latest ones. */
export const MAX_TEST_LINES = 100;

/** The conversation so far as test-chatbot reads it: the two sides' lines, the marks left out. */
export function testLinesOf(entries: readonly TestEntry[]) {
  const lines: { from: 'customer' | 'chatbot'; text: string }[] = [];
  for (const e of entries) if (e.kind !== 'transfer') lines.push({ from: e.kind, text: e.text });
  return lines.slice(-MAX_TEST_LINES);
}

/** What a turn adds to the chat: its answer, the transfer message the customer would get, then the mark. */
export function entriesOfTurn(turn: ChatbotTurn): TestEntry[] {
  const out: TestEntry[] = [];
  if (turn.answer?.trim()) out.push({ kind: 'chatbot', text: turn.answer });
  if (turn.transfer) {
    const message = turn.transfer.message?.trim();
    if (message && message !== turn.answer?.trim()) out.push({ kind: 'chatbot', text: message });
    out.push({ kind: 'transfer', to: turn.transfer.to, reason: turn.transfer.reason });
  }
  return out;
}

/** The mark's title. */
export const transferTitle = (to: 'human' | 'flow_chatbot') =>
  to === 'human' ? chatbotLabels.transferredToHuman : chatbotLabels.transferredToFlow;
