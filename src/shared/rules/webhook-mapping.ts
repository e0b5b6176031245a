// A webhook's field mapping (spec 3 §2.13 'Campos Mapeados', §5 Webhook save): the paths of a sample JSON with
// their example values (the screen's choices), the value of a mapped field (the values of its paths joined),
// and what a save must have. The same rule maps a live event on the server.
import { PHONE_FIELD, WEBHOOK_PATH_MAX, type WebhookField } from '../contract/webhooks';
import { webhookMessages as M } from '../messages-webhooks';
import { type FieldError, fieldError } from './field-error';
import { readJsonPath } from './json-path';

/** A value as text: primitives as they are, a list of primitives joined by ', ', anything else as JSON. */
export function valueText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object'))
    return value.map(valueText).join(', ');
  return JSON.stringify(value);
}

const KEY_NEEDS_NO_QUOTES = /^[^.[\]]+$/;

/** Every leaf of a sample JSON (at most `max`) with its example value, in document order. */
export function listPaths(data: unknown, max = 500): { path: string; example: string }[] {
  const out: { path: string; example: string }[] = [];
  const walk = (value: unknown, path: string) => {
    // Deeper than a path can name: left out.
    if (out.length >= max || path.length > WEBHOOK_PATH_MAX) return;
    if (Array.isArray(value)) {
      if (value.length === 0 && path) out.push({ path, example: '' });
      for (const [i, v] of value.entries()) walk(v, `${path}[${i}]`);
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        // A key with a dot or a bracket cannot be written as a path: left out.
        if (KEY_NEEDS_NO_QUOTES.test(k)) walk(v, path ? `${path}.${k}` : k);
      }
    } else if (path) out.push({ path, example: valueText(value) });
  };
  walk(data, '');
  return out;
}

/** A mapped field's value: the values of its paths joined by a space (the paths that match nothing skipped). */
export const fieldValue = (data: unknown, origin: readonly string[]) =>
  origin
    .map((p) => valueText(readJsonPath(data, p)))
    .filter((v) => v !== '')
    .join(' ');

/** Every mapped field's value, by name (the flow's variables). */
export function mapFields(data: unknown, fields: readonly Pick<WebhookField, 'name' | 'origin'>[]) {
  const out: Record<string, string> = {};
  for (const f of fields) if (f.name) out[f.name] = fieldValue(data, f.origin);
  return out;
}

/** The screen's example values: each field's value in the sample (all empty when it is not JSON). */
export const withExamples = <F extends Pick<WebhookField, 'origin'>>(fields: readonly F[], data: unknown) =>
  fields.map((f) => ({ ...f, value: data === undefined ? '' : fieldValue(data, f.origin) }));

/** The sample's text parsed, or undefined when it is not JSON ('' is an empty sample: null). */
export function parseSample(text: string): unknown {
  if (!text.trim()) return null;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export type WebhookSaveField = 'data' | 'form' | `fields.${number}`;

/** What a save must have (spec 3 §5): telefone first and mapped, named fields once each, JSON data. */
export function webhookSaveProblems(w: {
  data: string;
  fields: readonly Pick<WebhookField, 'name' | 'origin'>[];
}): FieldError<WebhookSaveField>[] {
  const problems: FieldError<WebhookSaveField>[] = [];
  const [phone] = w.fields;
  if (!phone || phone.name !== PHONE_FIELD) problems.push(fieldError('fields.0', M.phoneFieldFixed));
  else if (phone.origin.length === 0) problems.push(fieldError('fields.0', M.phoneNotMapped));
  const seen = new Set<string>();
  w.fields.forEach((f, i) => {
    const name = f.name.trim();
    if (!name) problems.push(fieldError(`fields.${i}`, M.fieldNameRequired));
    else if (seen.has(name)) problems.push(fieldError(`fields.${i}`, M.fieldNameRepeated));
    seen.add(name);
  });
  if (parseSample(w.data) === undefined) problems.push(fieldError('data', M.dataNotJson));
  return problems;
}
