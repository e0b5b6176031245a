// The admin's forms (spec 3 §5 Admin change password, Admin account edit): one rule for the dialog and the
// server, the same pt-BR messages.
import { MIN_PASSWORD_LENGTH } from '../constants';
import { messages } from '../messages';
import { ACCOUNT_LIMIT_MAX, adminMessages } from '../messages-admin';
import { type FieldError, fieldError } from './field-error';

export const LIMIT_FIELDS = ['max_channels', 'max_official_channels', 'max_users', 'max_flows'] as const;
export type LimitField = (typeof LIMIT_FIELDS)[number];

export const LIMIT_MESSAGES: Record<LimitField, string> = {
  max_channels: messages.maxChannelsInvalid,
  max_official_channels: messages.maxOfficialChannelsInvalid,
  max_users: messages.maxUsersInvalid,
  max_flows: messages.maxFlowsInvalid,
};

export type AccountLimits = Record<LimitField, number> & {
  campaigns_enabled: boolean;
  custom_negotiation: boolean;
};

export type AccountLimitsInput = Partial<Record<LimitField, number | string | null>> & {
  campaigns_enabled?: boolean;
  custom_negotiation?: boolean;
};

/** A whole number from 0 to ACCOUNT_LIMIT_MAX (typed as text or sent as a number), or null. */
export function limitValue(value: number | string | null | undefined): number | null {
  const text = typeof value === 'number' ? String(value) : (value ?? '').trim();
  if (!/^\d{1,6}$/.test(text)) return null;
  const n = Number(text);
  return n <= ACCOUNT_LIMIT_MAX ? n : null;
}

/** The account edit's numbers, each checked with its own §5 message. */
export function prepareAccountLimits(
  input: AccountLimitsInput,
): { ok: true; limits: AccountLimits } | { ok: false; error: FieldError<LimitField> } {
  const limits = {} as Record<LimitField, number>;
  for (const field of LIMIT_FIELDS) {
    const n = limitValue(input[field]);
    if (n === null) return { ok: false, error: fieldError(field, LIMIT_MESSAGES[field]) };
    limits[field] = n;
  }
  return {
    ok: true,
    limits: {
      ...limits,
      campaigns_enabled: input.campaigns_enabled ?? false,
      custom_negotiation: input.custom_negotiation ?? false,
    },
  };
}

/** The admin's new password for a user: at least 6 characters, and typed the same twice. */
export function newPasswordError(
  password: string,
  confirmation: string,
): FieldError<'password' | 'confirmation'> | null {
  if (password.length < MIN_PASSWORD_LENGTH) return fieldError('password', adminMessages.passwordTooShort);
  if (password !== confirmation) return fieldError('confirmation', adminMessages.passwordsDontMatch);
  return null;
}

/** The 6-digit PIN of a number's two-step verification (Meta's register call). */
export const pinError = (pin: string): string | null =>
  /^\d{6}$/.test(pin) ? null : adminMessages.pinInvalid;
