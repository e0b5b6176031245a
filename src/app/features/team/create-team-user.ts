import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/app/lib/api';
import { notifySuccess } from '@/app/lib/notify';
import type { Payload } from '@/shared/contract';
import { messages } from '@/shared/messages';
import { teamUsersQuery } from './get-team-users';

/** Adds a team member; an error answer is left to the dialog, which stays open and shows it. */
export function useCreateTeamUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (payload: Payload<'create-team-user'>) => api('create-team-user', payload),
    onSuccess: () => {
      notifySuccess(messages.attendantCreated);
      return client.invalidateQueries({ queryKey: teamUsersQuery.queryKey });
    },
  });
}
