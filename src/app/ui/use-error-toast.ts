import { useEffect } from 'react';
import { notifyError } from '@/app/lib/notify';

/** A failed dashboard call: the server's message as a red toast (spec 3 §8), once per failure. */
export function useErrorToast(error: unknown) {
  useEffect(() => {
    if (error) notifyError(error);
  }, [error]);
}
