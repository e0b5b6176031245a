import { messages } from '../messages';
import { type FieldError, fieldError } from './field-error';

export interface QuickMessageInput {
  shortcut: string;
  message: string;
}

/** Quick-message rules (spec 1 §5). The shortcut is stored without the '/' the screens show before it. */
export function prepareQuickMessage(
  input: QuickMessageInput,
): { ok: true; quickMessage: QuickMessageInput } | { ok: false; error: FieldError<keyof QuickMessageInput> } {
  const shortcut = input.shortcut.trim().replace(/^\/+/, '').trim();
  if (!shortcut) return { ok: false, error: fieldError('shortcut', messages.quickMessageShortcutRequired) };
  if (!input.message.trim())
    return { ok: false, error: fieldError('message', messages.quickMessageMessageRequired) };
  return { ok: true, quickMessage: { shortcut, message: input.message } };
}
