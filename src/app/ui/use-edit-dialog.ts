import { useState } from 'react';

/** The create/edit dialog of a list screen, as useEditDialog gives it (EditDialog shows it). */
export interface EditDialogState<T> {
  opened: boolean;
  /** The item it edits; null for a new one. */
  item: T | null;
  /** A fresh key per opening: the form starts from `item` each time. */
  key: number;
  openNew(): void;
  openEdit(item: T): void;
  close(): void;
}

/**
 * The create/edit dialog of a list screen: which item it edits (null: a new one) and a fresh key per
 * opening, so the form starts from the item every time.
 */
export function useEditDialog<T>(): EditDialogState<T> {
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
