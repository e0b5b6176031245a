import { useState } from 'react';
import { newId } from '@/shared/ids';

/**
 * The id a create-or-update dialog saves under: the item's own, or one named once when a new item's dialog
 * opens, so a save sent twice (a retry on a bad network, a double click) creates one item, not two.
 */
export function useItemId(item: { _id: string } | null): string {
  const [fresh] = useState(newId);
  return item?._id ?? fresh;
}
