import { useQueryClient } from '@tanstack/react-query';
import { api } from '@/app/lib/api';
import { putChip } from '@/app/lib/lists';
import { useCallMutation } from '@/app/lib/mutation';
import type { Chip } from '@/shared/contract';
import { chipMessages } from '@/shared/messages-chips';

/** Clears a QR channel's credentials (spec 3 §4): the next connection needs a new scan. */
export function useResetChipConnection() {
  const client = useQueryClient();
  return useCallMutation((chip: Chip) => api('reset-chip-connection', { _id: chip._id }), {
    onSuccess: (chip) => putChip(client, chip),
    successMessage: chipMessages.operationSucceeded,
    toastError: true,
  });
}
