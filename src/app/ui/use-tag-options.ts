import { useMemo } from 'react';
import { useTags } from '@/app/lib/lists';

/** The account's tags a person can still pick (filed ones left out), as a select's options. */
export function useTagOptions() {
  const tags = useTags();
  return useMemo(
    () => (tags.data ?? []).filter((t) => !t.filed).map((t) => ({ value: t._id, label: t.name })),
    [tags.data],
  );
}
