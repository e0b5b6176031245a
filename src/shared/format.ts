// Display formats of spec 1 §9. Pure functions, used by app and server alike.
import { PREVIEW_LENGTH } from './constants';

const pad = (n: number) => String(n).padStart(2, '0');

/** dd/MM/yyyy HH:mm in the viewer's local time; '' for an invalid date. */
export function formatDateTime(value: Date | string | number): string {
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** +CC (AA) NNNNN-NNNN for a Brazilian mobile, +CC (AA) NNNN-NNNN for a landline, '+digits' otherwise. */
export function formatPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  const m = /^(\d{2})(\d{2})(\d{4,5})(\d{4})$/.exec(digits);
  if (!m) return digits ? `+${digits}` : '';
  return `+${m[1]} (${m[2]}) ${m[3]}-${m[4]}`;
}

/** The profile mask (##) #####-####, applied progressively while typing. */
export function maskPhone(input: string): string {
  const d = input.replace(/\D/g, '').slice(0, 11);
  if (d.length === 0) return '';
  if (d.length <= 2) return `(${d}`;
  if (d.length <= 7) return `(${d.slice(0, 2)}) ${d.slice(2)}`;
  return `(${d.slice(0, 2)}) ${d.slice(2, 7)}-${d.slice(7)}`;
}

const oneDecimal = (n: number) =>
  (Math.floor(n * 10) / 10).toLocaleString('pt-BR', { maximumFractionDigits: 1 });

/** 999 → '999', 1234 → '1,2k', 3456789 → '3,4M' (truncated, never rounded up past the real value). */
export function abbreviateNumber(n: number): string {
  const abs = Math.abs(n);
  const sign = n < 0 ? '-' : '';
  if (abs >= 1_000_000) return `${sign}${oneDecimal(abs / 1_000_000)}M`;
  if (abs >= 1_000) return `${sign}${oneDecimal(abs / 1_000)}k`;
  return String(n);
}

/** Cuts a preview at 60 characters: 59 characters plus an ellipsis. Counts code points, not UTF-16 units. */
export function truncatePreview(text: string, max = PREVIEW_LENGTH): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return `${chars.slice(0, max - 1).join('')}…`;
}

/** A badge count capped at '9+'. */
export function badgeCount(n: number, cap = 9): string {
  return n > cap ? `${cap}+` : String(n);
}

/**
 * Bidi control characters: embeddings and overrides (U+202A–U+202E), isolates (U+2066–U+2069) and the marks
 * (U+200E, U+200F, U+061C). In a name they only serve to disguise it: 'nota\u202Efdp.exe' shows as 'notaexe.pdf'.
 */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/**
 * A contact's or a file's name as it really reads: without bidi control characters. Letters of right-to-left
 * scripts (Arabic, Hebrew) stay; they order themselves. Used where names are stored and where they are shown.
 */
export function withoutBidiControls(name: string): string {
  return name.replace(BIDI_CONTROLS, '');
}

/** A count and its noun in agreement: countOf(1, ['canal', 'canais']) is '1 canal', countOf(2, …) '2 canais'. */
export const countOf = (n: number, [one, many]: readonly [string, string]) => `${n} ${n === 1 ? one : many}`;
