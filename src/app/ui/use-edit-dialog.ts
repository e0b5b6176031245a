import { useState } from 'react';

/**
 * The create/edit dialog of a list screen: which item it edits (null: a new one) and a fresh key per
 * opening, so the form starts from the item every time.
 */
export function useEditDialog<T>() {
  const [state, setState] = useState<{ opened: boolean; item: T | null; key: number }>({
    opened: false,
    item: null,
    key: 0,
  });
  return {
    ...state,
    openNew: () => setState((s) => ({ opened: true, item: null, key: s.key + 1 })),
    openEdit: (item: T) => setState((s) => ({ opened: true, item, key: s.key + 1 })),
    close: () => setState((s) => ({ ...s, opened: false })),
  };
}
