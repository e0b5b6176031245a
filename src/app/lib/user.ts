// The signed-in user (get-user): read by the guards, the shell and the screens; kept for offline starts.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Payload, User } from '@/shared/contract';
import { messages } from '@/shared/messages';
import { api } from './api';
import { notifyError, notifySuccess } from './notify';
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
  return useMutation({
    mutationFn: (config: Payload<'update-user-config'>) => api('update-user-config', config),
    onSuccess: (user) => {
      setUser(user);
      notifySuccess(messages.configChanged);
    },
    onError: notifyError,
  });
}
