import { messages } from '../messages';

/** A contact variable about to be added (spec 2 §5): key and value required, keys unique. */
export function contactVariableError(key: string, value: string, existing: readonly string[]): string | null {
  if (!key.trim() || !value.trim()) return messages.contactVariableRequired;
  if (existing.includes(key.trim())) return messages.contactVariableDuplicate;
  return null;
}

/** The value as stored: parsed as JSON when it is JSON ({"a":1}, 42, true), the text otherwise. */
export function parseVariableValue(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
