// The chips of the top bar and the drawer (spec 1 "Shell elements", §9).
import { queryOptions } from '@tanstack/react-query';
import { CHIP_POLL_DRAWER_MS, CHIP_POLL_TOPBAR_MS, TOPBAR_MAX_CHIPS } from '@/shared/constants';
import type { Chip } from '@/shared/contract';
import { chipsQuery } from './lists';

export { chipsQuery };

export const topBarChipsQuery = queryOptions({ ...chipsQuery, refetchInterval: CHIP_POLL_TOPBAR_MS });
export const drawerChipsQuery = queryOptions({ ...chipsQuery, refetchInterval: CHIP_POLL_DRAWER_MS });

export const isConnected = (chip: Pick<Chip, 'status'>) => chip.status === 'open';

/**
 * Up to 5 chips are shown; above 5, four chips with the not-connected ones first, and an overflow icon for
 * the rest. Order is otherwise kept.
 */
export function topBarChips<C extends Pick<Chip, 'status'>>(
  chips: readonly C[],
): { shown: C[]; hidden: number } {
  if (chips.length <= TOPBAR_MAX_CHIPS) return { shown: [...chips], hidden: 0 };
  const ordered = [...chips.filter((c) => !isConnected(c)), ...chips.filter(isConnected)];
  const shown = ordered.slice(0, TOPBAR_MAX_CHIPS - 1);
  return { shown, hidden: chips.length - shown.length };
}
