// Guru offers (spec 3 §2.5, §3 Guru offer, §5 Offer): the plans sold on Digital Manager Guru. A sale of an
// offer gives the buyer's account its limits (guru-events.ts). Few rows: the accent-insensitive search runs
// here, the same on PGlite and PostgreSQL (no unaccent extension needed).
import type { z } from 'zod';
import type { GuruOffer, offerFields } from '../../../shared/contract/billing';
import { billingMessages as M } from '../../../shared/messages-billing';
import { prepareOffer } from '../../../shared/rules/offer';
import type { StaffActor } from '../../access';
import { AppError, fieldFailure } from '../../http/errors';
import type { Services } from '../../services';
import { isUniqueViolation } from '../soft-save';
import { billingRepo, type OfferRow } from './billing.repo';

type OfferInput = z.output<z.ZodObject<typeof offerFields>>;

/** Lower case, without accents: 'Promoção' and 'promocao' are the same search. */
export const foldText = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .trim();

export const toOfferAnswer = (r: OfferRow): GuruOffer => ({
  _id: r.id,
  name: r.name,
  offer_id: r.offerId,
  max_channels: r.maxChannels,
  max_official_channels: r.maxOfficialChannels,
  max_users: r.maxUsers,
  max_flows: r.maxFlows,
  max_summaries: r.maxSummaries,
  max_follow_ups: r.maxFollowUps,
  campaigns_enabled: r.campaignsEnabled,
  created: r.createdAt.toISOString(),
});

const toRow = (p: OfferInput) => ({
  name: p.name,
  offerId: p.offer_id,
  maxChannels: p.max_channels,
  maxOfficialChannels: p.max_official_channels,
  maxUsers: p.max_users,
  maxFlows: p.max_flows,
  maxSummaries: p.max_summaries,
  maxFollowUps: p.max_follow_ups,
  campaignsEnabled: p.campaigns_enabled,
});

/** The offers whose name contains `query`, accents and case aside. Platform staff (customer_admin). */
export async function listOffers(services: Services, staff: StaffActor, query: string) {
  const rows = await billingRepo.offers(services.db, staff);
  const wanted = foldText(query);
  return rows.filter((r) => !wanted || foldText(r.name).includes(wanted)).map(toOfferAnswer);
}

/** Two offers may not share one Guru offer id: the unique index decides, the loser gets a clear message. */
async function uniqueOfferId<T>(write: Promise<T>) {
  try {
    return await write;
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError(M.offerIdTaken, 200, false, 'offer_id');
    throw e;
  }
}

/** The shared rule's refusal, or the offer to save. */
function checked(p: OfferInput) {
  const result = prepareOffer(p);
  if (!result.ok) throw fieldFailure(result.error);
  return toRow(result.offer);
}

export async function createOffer(services: Services, staff: StaffActor, p: OfferInput) {
  const row = await uniqueOfferId(billingRepo.createOffer(services.db, staff, checked(p)));
  if (!row) throw new AppError(M.offerNotFound);
  return toOfferAnswer(row);
}

export async function updateOffer(services: Services, staff: StaffActor, p: OfferInput & { _id: string }) {
  const row = await uniqueOfferId(billingRepo.updateOffer(services.db, staff, p._id, checked(p)));
  if (!row) throw new AppError(M.offerNotFound);
  return toOfferAnswer(row);
}
