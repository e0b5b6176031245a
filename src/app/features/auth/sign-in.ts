// The 'auth' call, then the stored token and the cached user: what every sign-in form does.
import { api, session } from '@/app/lib/api';
import { useCallMutation } from '@/app/lib/mutation';
import { followSession, queryClient } from '@/app/lib/query';
import { currentUserQuery } from '@/app/lib/user';

export function useSignIn() {
  return useCallMutation('auth', {
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
  return useCallMutation((email: string) => api('send-password-recovery', { email }));
}
