import { type QueryClient, useQuery } from '@tanstack/react-query';
import { callQuery } from '@/app/lib/query';
import type { Chip } from '@/shared/contract';

// The same query the shell's top bar and drawer read, and the socket's events update: one cache for all.
export const chipsQuery = callQuery('get-chip-numbers-by-user');

export const useChips = () => useQuery(chipsQuery);

/** A call's answer replaces the chip's row at once (the socket may bring the same news a moment later). */
export function putChip(client: QueryClient, chip: Chip) {
  client.setQueryData<Chip[]>(chipsQuery.queryKey, (chips) =>
    chips?.map((c) => (c._id === chip._id ? chip : c)),
  );
}
