import { messages } from '../messages';
import { type FieldError, fieldError } from './field-error';

/** An audience's name (spec 3 §5 Audience), trimmed; the import dialog and the server ask the same. */
export function prepareAudienceName(
  name: string,
): { ok: true; name: string } | { ok: false; error: FieldError<'name'> } {
  const trimmed = name.trim();
  if (!trimmed) return { ok: false, error: fieldError('name', messages.audienceNameRequired) };
  return { ok: true, name: trimmed };
}
