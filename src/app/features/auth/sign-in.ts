// The 'auth' call, then the stored token and the cached user: what every sign-in form does.
import { useMutation } from '@tanstack/react-query';
import type { Payload } from '../../../shared/contract';
import { api, session } from '../../lib/api';
import { followSession, queryClient } from '../../lib/query';
import { currentUserQuery } from '../../lib/user';

export function useSignIn() {
  return useMutation({
    mutationFn: (payload: Payload<'auth'>) => api('auth', payload),
    onSuccess: ({ token, user }) => {
      clearPreviousUser();
      session.set(token);
      followSession();
      queryClient.setQueryData(currentUserQuery.queryKey, user);
    },
  });
}

/** Another account may have used this browser: nothing of it may show up in the new session. */
function clearPreviousUser() {
  queryClient.clear();
}

export function useSendPasswordRecovery() {
  return useMutation({
    mutationFn: (email: string) => api('send-password-recovery', { email }),
  });
}
