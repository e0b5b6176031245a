// What a conversation item shows, as pure functions (spec 2 §2.3, §9): the name, the preview, its time, the
// tags that fit, the reply-window countdown, and whether a conversation belongs in a filtered list.
import { MESSAGE_STATUS } from '@/shared/constants';
import type { Payload } from '@/shared/contract';
import type { Conversation, Message } from '@/shared/contract/conversations';
import { truncatePreview } from '@/shared/format';
import { messages } from '@/shared/messages';
import { departmentLimit, subjectOfAnswer, type UserAnswerSubject } from '@/shared/rules/access';

/** The list's filter, as the list call takes it, every field set. */
export type ConversationFilter = Required<
  NonNullable<Payload<'get-conversations-with-last-message'>['filter']>
>;

const TYPE_LABELS: Partial<Record<Message['type'], string>> = {
  image: messages.image,
  audio: messages.audio,
  video: messages.video,
  document: messages.document,
  location: messages.location,
  contact: messages.contactLabel,
  summary: messages.previewSummary,
};

/** The last message in one line of at most 60 characters: its text, or what kind of media it is. */
export function previewOf(message: Message | null): string {
  if (!message) return messages.listNoMessages;
  if (message.deleted) return messages.listDeletedMessage;
  const text = message.message.replace(/\s+/g, ' ').trim();
  const label = TYPE_LABELS[message.type];
  if (!label) return truncatePreview(text);
  const detail = text || (message.type === 'document' ? (message.file_name ?? '') : '');
  // An audio says how long it is, as WhatsApp's list does.
  const length =
    message.type === 'audio' && message.audio_seconds ? ` (${clockLength(message.audio_seconds)})` : '';
  return truncatePreview(detail ? `${label}${length}: ${detail}` : `${label}${length}`);
}

/** 0:07, 1:05, 1:02:03. */
export function clockLength(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** The team's last message never reached the customer: the list marks it (spec 2 §4). */
export const lastMessageFailed = (c: Conversation) =>
  c.last_message?.origin === 'user' && c.last_message.status === MESSAGE_STATUS.failed;

const pad = (n: number) => String(n).padStart(2, '0');

/** HH:mm for today, dd/MM HH:mm otherwise (the viewer's local time). */
export function formatListTime(value: string, now: Date = new Date()): string {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  const today =
    d.getFullYear() === now.getFullYear() && d.getMonth() === now.getMonth() && d.getDate() === now.getDate();
  return today ? time : `${pad(d.getDate())}/${pad(d.getMonth() + 1)} ${time}`;
}

/** The tag selector's rule: 3 chips, then '+N' for the rest. */
export function visibleTags<T>(tags: readonly T[], max = 3): { shown: T[]; more: number } {
  return { shown: tags.slice(0, max), more: Math.max(0, tags.length - max) };
}

export type ConversationType = 'chatbot' | 'human';

/** The filter a user starts with: attendants see their own departments (spec 2 §6). */
export function defaultFilter(user: UserAnswerSubject): ConversationFilter {
  return {
    situation: 'all',
    types: ['chatbot', 'human'],
    departments: [...(departmentLimit(subjectOfAnswer(user)) ?? [])],
    tags: [],
    chips: [],
    text: '',
    assigned_user: null,
  };
}

const sorted = (list: readonly string[]) => [...list].sort();

/** The same filter written one way: sorted lists, trimmed text, both types when none or both are chosen. */
export function normalizeFilter(filter: ConversationFilter): ConversationFilter {
  const types: ConversationType[] = filter.types.length === 1 ? [...filter.types] : ['chatbot', 'human'];
  return {
    situation: filter.situation,
    types,
    departments: sorted(filter.departments),
    tags: sorted(filter.tags),
    chips: sorted(filter.chips),
    text: filter.text.trim(),
    assigned_user: filter.assigned_user ?? null,
  };
}

/** True when the filter asks for less than the user's default: the 'Existem filtros ativos' banner. */
export function filterIsActive(filter: ConversationFilter, fallback: ConversationFilter): boolean {
  return JSON.stringify(normalizeFilter(filter)) !== JSON.stringify(normalizeFilter(fallback));
}

/** Whether an open conversation belongs in a list with this filter: the server's rules, client side. */
export function matchesFilter(c: Conversation, filter: ConversationFilter): boolean {
  if (c.finished) return false;
  const f = normalizeFilter(filter);
  if (f.situation === 'waiting_response' && !c.waiting_response) return false;
  if (f.types.length === 1 && c.is_manual !== (f.types[0] === 'human')) return false;
  if (f.departments.length && !(c.department && f.departments.includes(c.department))) return false;
  if (f.chips.length && !f.chips.includes(c.chip)) return false;
  if (f.assigned_user && c.assigned_user !== f.assigned_user) return false;
  if (f.tags.length && !c.contact.tags.some((t) => f.tags.includes(t))) return false;
  if (f.text) {
    const text = f.text.toLocaleLowerCase('pt-BR');
    const digits = f.text.replace(/\D/g, '');
    const named = [c.contact.name, c.contact.override_name ?? ''].some((n) =>
      n.toLocaleLowerCase('pt-BR').includes(text),
    );
    if (!named && !(digits.length >= 3 && c.contact.phone.includes(digits))) return false;
  }
  return true;
}
