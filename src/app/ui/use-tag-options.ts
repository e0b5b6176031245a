import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { callQuery } from '@/app/lib/query';

/** The account's tags a person can still pick (filed ones left out), as a select's options. */
export function useTagOptions() {
  const tags = useQuery(callQuery('get-tags-by-user'));
  return useMemo(
    () => (tags.data ?? []).filter((t) => !t.filed).map((t) => ({ value: t._id, label: t.name })),
    [tags.data],
  );
}
