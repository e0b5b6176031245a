// The 'auth' call, then the stored token and the cached user: what every sign-in form does.
import { useMutation } from '@tanstack/react-query';
import { api, session } from '@/app/lib/api';
import { followSession, queryClient } from '@/app/lib/query';
import { currentUserQuery } from '@/app/lib/user';
import type { Payload } from '@/shared/contract';

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
