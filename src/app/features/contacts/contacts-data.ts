// The contacts screen's calls: the page query, and the mutations that refresh it.
import { keepPreviousData, type QueryClient, useQuery } from '@tanstack/react-query';
import { api } from '@/app/lib/api';
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
  const bytes = Uint8Array.from(atob(file.content_base64), (c) => c.charCodeAt(0));
  const blob = new Blob([bytes], {
    type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = file.file_name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
