import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/app/lib/api';
import { notifyError, notifySuccess } from '@/app/lib/notify';
import type { Chip } from '@/shared/contract';
import { messages } from '@/shared/messages';
import { putChip } from './get-chip-numbers-by-user';

/** Clears a QR channel's credentials (spec 3 §4): the next connection needs a new scan. */
export function useResetChipConnection() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (chip: Chip) => api('reset-chip-connection', { _id: chip._id }),
    onSuccess: (chip) => {
      putChip(client, chip);
      notifySuccess(messages.operationSucceeded);
    },
    onError: notifyError,
  });
}
