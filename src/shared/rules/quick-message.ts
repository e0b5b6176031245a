import { messages } from '../messages';

export interface QuickMessageInput {
  shortcut: string;
  message: string;
}

/** Quick-message rules (spec 1 §5). The shortcut is stored without the '/' the screens show before it. */
export function prepareQuickMessage(
  input: QuickMessageInput,
): { ok: true; quickMessage: QuickMessageInput } | { ok: false; error: string } {
  const shortcut = input.shortcut.trim().replace(/^\/+/, '').trim();
  if (!shortcut) return { ok: false, error: messages.quickMessageShortcutRequired };
  if (!input.message.trim()) return { ok: false, error: messages.quickMessageMessageRequired };
  return { ok: true, quickMessage: { shortcut, message: input.message } };
}
