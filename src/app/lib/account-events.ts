// The socket's account-wide news for the screens that show it (/templates: template_status; the dashboard:
// load_realtime and load_open_conversations, from the dashboard room the server puts its users in; the official
// campaigns' official_campaign_updated is a query invalidation in use-realtime). The shell's socket dispatches it as a window event named
// ACCOUNT_EVENT (a one-liner there: the shell's bundle is at its budget, tests/size.mjs); a screen listens
// with onAccountEvent while it is open.
import type { ReceiveMessage } from '@/shared/contract/events';

export type AccountEvent = Extract<
  ReceiveMessage,
  { type: 'template_status' | 'load_realtime' | 'load_open_conversations' }
>;
/** The window event's name; use-realtime writes the same literal. */
export const ACCOUNT_EVENT = 'account-event';

export function onAccountEvent(listener: (event: AccountEvent) => void): () => void {
  const handle = (e: Event) => listener((e as CustomEvent<AccountEvent>).detail);
  window.addEventListener(ACCOUNT_EVENT, handle);
  return () => window.removeEventListener(ACCOUNT_EVENT, handle);
}
