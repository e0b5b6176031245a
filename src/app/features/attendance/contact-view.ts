// What both columns show of a conversation's contact and reply window, as pure functions.
import type { Conversation } from '../../../shared/contract/conversations';
import { formatPhone } from '../../../shared/format';

/** override_name first, then the profile name, then the formatted phone. */
export function displayName(contact: Conversation['contact']): string {
  return contact.override_name?.trim() || contact.name.trim() || formatPhone(contact.phone);
}

/** The letters of a name, for the avatar's initials: '+55 (11) …' has none, 'Ana (VIP)' gives 'Ana VIP'. */
export function initialsOf(name: string): string | undefined {
  const letters = name
    .replace(/[^\p{L}\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return letters || undefined;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Time left in the reply window, in hours and minutes ('23h 05min'), or null once it has closed. Minutes are
 * rounded up: a window with 30 s left still shows '0h 01min' until the next minute's refresh.
 */
export function replyWindowLeft(deadline: string, now: number): string | null {
  const ms = Date.parse(deadline) - now;
  if (!Number.isFinite(ms) || ms <= 0) return null;
  const minutes = Math.ceil(ms / 60_000);
  return `${Math.floor(minutes / 60)}h ${pad(minutes % 60)}min`;
}
