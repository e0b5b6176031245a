// The contacts screen's calls: the page query, and the mutations that refresh it.
import { keepPreviousData, type QueryClient, useQuery } from '@tanstack/react-query';
import { api } from '@/app/lib/api';
import { saveSheet } from '@/app/lib/download';
import { callQuery } from '@/app/lib/query';
import type { ContactFilter } from '@/shared/contract/contacts';

export const CONTACTS_KEY = ['get-contacts-by-user'] as const;

export function useContactsPage(filter: ContactFilter, page: number, itemsPerPage: number) {
  return useQuery({
    ...callQuery('get-contacts-by-user', { ...filter, page, itemsPerPage }),
    placeholderData: keepPreviousData,
  });
}

export const refreshContacts = (client: QueryClient) => client.invalidateQueries({ queryKey: CONTACTS_KEY });

/** Contatos_<date>.xlsx with the current filters, saved by the browser. */
export async function downloadContacts(filter: ContactFilter) {
  const file = await api('export-contacts', filter);
  saveSheet(file);
}
