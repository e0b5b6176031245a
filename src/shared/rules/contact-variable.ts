import { messages } from '../messages';
import { type FieldError, fieldError } from './field-error';

/** A contact variable about to be added (spec 2 §5): key and value required, keys unique. */
export function contactVariableError(
  key: string,
  value: string,
  existing: readonly string[],
): FieldError<'key' | 'value'> | null {
  if (!key.trim()) return fieldError('key', messages.profileFillAllFields);
  if (!value.trim()) return fieldError('value', messages.profileFillAllFields);
  if (existing.includes(key.trim())) return fieldError('key', messages.contactVariableDuplicate);
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
