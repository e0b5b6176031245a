// What the pane shows, as pure functions: the contact's name, the reply window, the rows of the message area
// (day separators between messages), a bubble's side and read status, and a shared contact card.
import { MESSAGE_STATUS } from '@/shared/constants';
import type { Message } from '@/shared/contract/conversations';
import { messages } from '@/shared/messages';
import type { PaneMessage } from '../data/provisional';

const pad = (n: number) => String(n).padStart(2, '0');

const dayKey = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** 'Hoje', 'Ontem' or dd/MM/yyyy. */
export function dayLabel(iso: string, now: Date = new Date()): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  if (dayKey(d) === dayKey(now)) return messages.today;
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (dayKey(d) === dayKey(yesterday)) return messages.yesterday;
  return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}`;
}

export type Row =
  | { kind: 'more'; key: 'more' }
  | { kind: 'day'; key: string; label: string }
  | { kind: 'message'; key: string; message: PaneMessage };

/** A message's day and row, kept by the pane per message object (see buildRows). */
export type RowCache = Map<PaneMessage, { day: string; row: Row }>;

function messageRow(message: PaneMessage, cache: RowCache) {
  let known = cache.get(message);
  if (!known) {
    const d = new Date(message.created);
    known = {
      day: Number.isNaN(d.getTime()) ? '' : dayKey(d),
      // A provisional message keeps its key when the server's copy takes its place: no remount, no jump.
      row: { kind: 'message', key: `m-${message.message_id ?? message._id}`, message },
    };
    cache.set(message, known);
  }
  return known;
}

/**
 * The message area's rows: 'Carregar mais' when there is more, then each day's separator and messages.
 * `cache` keeps each message's row between calls: a page of older messages rebuilds the rows of thousands of
 * messages, and parsing each one's date again made that a long task. (A Map the pane owns, not a WeakMap:
 * thousands of weak entries made each full garbage collection a long task.)
 */
export function buildRows(
  list: readonly PaneMessage[],
  hasOlder: boolean,
  now: Date = new Date(),
  cache: RowCache = new Map(),
): Row[] {
  // Replaced messages (merged news) leave their old entries behind: start over when they pile up.
  if (cache.size > 2 * list.length + 100) cache.clear();
  const rows: Row[] = [];
  if (hasOlder) rows.push({ kind: 'more', key: 'more' });
  let day = '';
  for (const message of list) {
    const { day: key, row } = messageRow(message, cache);
    if (key !== day) {
      day = key;
      rows.push({ kind: 'day', key: `day-${key}`, label: dayLabel(message.created, now) });
    }
    rows.push(row);
  }
  return rows;
}

/** Customer messages on the left; the team's (people and chatbots) on the right. */
export const sideOf = (m: Pick<Message, 'origin'>) => (m.origin === 'customer' ? 'customer' : 'team');

export type Tick = 'failed' | 'pending' | 'sent' | 'delivered' | 'read';

/** The ticks of a sent message: ✓ sent, ✓✓ delivered, blue ✓✓ read (4 or more). */
export function tickOf(m: Pick<PaneMessage, 'status' | 'provisional'>): Tick {
  if (m.status < 0) return 'failed';
  if (m.provisional || m.status === MESSAGE_STATUS.pending) return 'pending';
  if (m.status >= MESSAGE_STATUS.read) return 'read';
  if (m.status >= MESSAGE_STATUS.delivered) return 'delivered';
  return 'sent';
}

export const TICK_LABELS: Record<Tick, string> = {
  failed: messages.statusNotSent,
  pending: messages.statusSending,
  sent: messages.statusSent,
  delivered: messages.paneStatusDelivered,
  read: messages.paneStatusRead,
};

/** A shared contact: a vCard's name and phones, or the text as it came. */
export function contactCard(text: string): { name: string; phones: string[] } {
  if (!/BEGIN:VCARD/i.test(text)) return { name: text.trim(), phones: [] };
  const lines = text.split(/\r?\n/);
  const value = (line: string) => line.slice(line.indexOf(':') + 1).trim();
  const fn = lines.find((l) => /^FN[;:]/i.test(l));
  const n = lines.find((l) => /^N[;:]/i.test(l));
  const name = fn ? value(fn) : n ? value(n).split(';').filter(Boolean).reverse().join(' ') : '';
  const phones = lines.filter((l) => /^(item\d+\.)?TEL[;:]/i.test(l)).map(value);
  return { name, phones };
}

const MEDIA_LABELS: Partial<Record<Message['type'], string>> = {
  image: messages.image,
  audio: messages.audio,
  video: messages.video,
  document: messages.document,
  location: messages.location,
  contact: messages.contactLabel,
};

/** The quoted message of a reply, in one short line. */
export function replyText(reply: NonNullable<Message['reply_message']>): string {
  const label = MEDIA_LABELS[reply.type as Message['type']];
  const text = reply.message.trim();
  if (!label) return text;
  return text ? `${label}: ${text}` : label;
}
