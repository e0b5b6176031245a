import { useQueryClient } from '@tanstack/react-query';
import { putChip } from '@/app/lib/lists';
import { useCallMutation } from '@/app/lib/mutation';

/**
 * Connects (`connect: true`) or disconnects a chip. A QR channel's code comes back in the answer and over the
 * socket; either way it lands in the chips cache, where the page's QR dialog reads it. Errors are the
 * caller's: an official number not yet registered opens the support dialog instead of a toast.
 */
export function useConnectChip() {
  const client = useQueryClient();
  return useCallMutation('connect-chip', { onSuccess: (chip) => putChip(client, chip) });
}
