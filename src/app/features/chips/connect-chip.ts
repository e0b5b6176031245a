import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/app/lib/api';
import type { Payload } from '@/shared/contract';
import { putChip } from './get-chip-numbers-by-user';

/**
 * Connects (`connect: true`) or disconnects a chip. A QR channel's code comes back in the answer and over the
 * socket; either way it lands in the chips cache, where the page's QR dialog reads it. Errors are the
 * caller's: an official number not yet registered opens the support dialog instead of a toast.
 */
export function useConnectChip() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (payload: Payload<'connect-chip'>) => api('connect-chip', payload),
    onSuccess: (chip) => putChip(client, chip),
  });
}
