// The offers' calls (spec 3 §7 'get / create / update Guru offers').
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/app/lib/api';
import { useCallMutation } from '@/app/lib/mutation';
import { billingMessages } from '@/shared/messages-billing';
import type { OfferInput } from '@/shared/rules/offer';

const offersKey = ['get-guru-offers'] as const;

export const offersQuery = (query: string) =>
  queryOptions({
    queryKey: [...offersKey, { query }] as const,
    queryFn: () => api('get-guru-offers', { query }),
  });

export const useOffers = (query: string) =>
  useQuery({ ...offersQuery(query), placeholderData: keepPreviousData });

/** Creates (no `_id`) or edits an offer: 'Oferta salva com sucesso'. */
export const useSaveOffer = () =>
  useCallMutation(
    ({ _id, ...offer }: OfferInput & { _id: string | null }) =>
      _id ? api('update-guru-offer', { _id, ...offer }) : api('create-guru-offer', offer),
    { successMessage: billingMessages.offerSaved, invalidates: [offersKey] },
  );
