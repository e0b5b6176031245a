// What both columns show of a conversation's reply window, as a pure function.

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
