import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { DEFAULT_COUNTRY_CODE } from '../constants';
import { labels, messages } from '../messages';
import { normalizePhone } from '../phone';
import { type FieldError, fieldError } from './field-error';

/** The schedule dialog's fields a rule (or the server) can point at. */
export type ScheduleField = 'chip' | 'country' | 'to' | 'when' | 'message' | 'flow' | 'template';

export interface ScheduledMessageInput {
  chip: string;
  country_code: string;
  to: string;
  type: 'text' | 'flow';
  message: string;
  flow?: string | null;
  template?: { name: string; language?: string } | null;
  scheduledTo: string;
}

/**
 * Scheduled-send rules (spec 2 §5), in the dialog's order. `official`: the chosen chip is an official-API
 * number, which sends only a template. Answers the destination as stored (digits with country code).
 */
export function prepareScheduledMessage(
  input: ScheduledMessageInput,
  chip: { official: boolean } | null,
  now: Date = new Date(),
): { ok: true; to: string; scheduledTo: Date } | { ok: false; error: FieldError<ScheduleField> } {
  const fail = (field: ScheduleField, message: string) => ({
    ok: false as const,
    error: fieldError(field, message),
  });
  if (!input.chip || !chip) return fail('chip', messages.scheduleChipRequired);
  const to = input.to.trim();
  if (!to) return fail('to', messages.scheduleToRequired);
  if (!input.scheduledTo) return fail('when', messages.scheduleDateRequired);
  if (!/^\d+$/.test(to)) return fail('to', messages.invalidPhone);
  const countryCode = input.country_code.trim() || DEFAULT_COUNTRY_CODE;
  if (!/^\d{1,4}$/.test(countryCode)) return fail('country', messages.scheduleCountryCodeInvalid);
  if (chip.official) {
    if (!input.template) return fail('template', messages.scheduleTemplateRequired);
  } else if (input.type === 'flow') {
    if (!input.flow) return fail('flow', messages.scheduleFlowRequired);
  } else if (!input.message.trim()) {
    return fail('message', messages.scheduleTextRequired);
  }
  const phone = normalizePhone(`+${countryCode}${to}`);
  if (!phone) return fail('to', messages.invalidPhone);
  const scheduledTo = new Date(input.scheduledTo);
  if (Number.isNaN(scheduledTo.getTime())) return fail('when', messages.scheduleDateRequired);
  if (scheduledTo.getTime() <= now.getTime()) return fail('when', messages.scheduleDateInPast);
  return { ok: true, to: phone, scheduledTo };
}

/** The stored number as the dialog edits it: a leading 55 is taken off into the country code (spec 2 §5). */
export function splitStoredPhone(stored: string): { country_code: string; to: string } {
  if (stored.startsWith(DEFAULT_COUNTRY_CODE))
    return { country_code: DEFAULT_COUNTRY_CODE, to: stored.slice(DEFAULT_COUNTRY_CODE.length) };
  const parsed = parsePhoneNumberFromString(`+${stored}`);
  return parsed
    ? { country_code: String(parsed.countryCallingCode), to: String(parsed.nationalNumber) }
    : { country_code: '', to: stored };
}

/** The table's message column (spec 2 §2.4, §9): over 80 characters, 79 and an ellipsis; 'Fluxo' for flows. */
export function scheduledPreview(item: {
  type: 'text' | 'flow';
  message: string;
  template?: { preview: string } | null;
}) {
  if (item.type === 'flow') return labels.common.flow;
  const text = item.template ? item.template.preview : item.message;
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}
