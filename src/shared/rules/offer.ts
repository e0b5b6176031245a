// Offer rules (spec 3 §5 Offer: name required; the plan limits are whole numbers, in the words of §5 Admin
// account edit), shared by the offer dialog and the server so both give the same message on the same field.

import { messages } from '../messages';
import { billingMessages as M } from '../messages-billing';
import { type FieldError, fieldError } from './field-error';

/** The largest plan limit an offer may give (a typo of 1e9 is refused, not stored). */
export const MAX_OFFER_LIMIT = 100_000;

export const OFFER_LIMITS = [
  'max_channels',
  'max_official_channels',
  'max_users',
  'max_flows',
  'max_summaries',
  'max_follow_ups',
] as const;
export type OfferLimit = (typeof OFFER_LIMITS)[number];
export type OfferField = 'name' | 'offer_id' | OfferLimit;

export interface OfferInput {
  name: string;
  offer_id: string;
  max_channels: number;
  max_official_channels: number;
  max_users: number;
  max_flows: number;
  max_summaries: number;
  max_follow_ups: number;
  campaigns_enabled: boolean;
}

/** A new offer's fields: the smallest plan. */
export const newOffer = (): OfferInput => ({
  name: '',
  offer_id: '',
  max_channels: 1,
  max_official_channels: 0,
  max_users: 3,
  max_flows: 1,
  max_summaries: 100,
  max_follow_ups: 100,
  campaigns_enabled: false,
});

const validLimit = (n: unknown) =>
  typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= MAX_OFFER_LIMIT;

/** Trims the texts; answers the offer to save, or the first error. */
export function prepareOffer(
  input: OfferInput,
): { ok: true; offer: OfferInput } | { ok: false; error: FieldError<OfferField> } {
  const name = input.name.trim();
  if (!name) return { ok: false, error: fieldError('name', messages.nameRequired) };
  for (const field of OFFER_LIMITS)
    if (!validLimit(input[field])) return { ok: false, error: fieldError(field, M.limitInvalid[field]) };
  return { ok: true, offer: { ...input, name, offer_id: input.offer_id.trim() } };
}
