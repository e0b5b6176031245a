// The signed-in user (get-user): read by the guards, the shell and the screens; kept for offline starts.
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { User } from '@/shared/contract';
import { messages } from '@/shared/messages';
import { useCallMutation } from './mutation';
import { callQuery } from './query';

export const currentUserQuery = queryOptions({
  ...callQuery('get-user'),
  staleTime: 60_000,
  meta: { persist: true },
});

export function useCurrentUser(): User {
  const { data } = useQuery(currentUserQuery);
  // The menu layout's guard loads the user before any screen renders.
  if (!data) throw new Error('useCurrentUser outside the signed-in layout');
  return data;
}

export function useSetCurrentUser() {
  const client = useQueryClient();
  return (user: User) => client.setQueryData(currentUserQuery.queryKey, user);
}

/** The user's own toggles: notification sound and signature (spec 1 §6). */
export function useUpdateUserConfig() {
  const setUser = useSetCurrentUser();
  return useCallMutation('update-user-config', {
    onSuccess: setUser,
    successMessage: messages.configChanged,
    toastError: true,
  });
}
