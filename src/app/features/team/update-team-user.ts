import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/app/lib/api';
import { notifyError, notifySuccess } from '@/app/lib/notify';
import { currentUserQuery } from '@/app/lib/user';
import type { Payload } from '@/shared/contract';
import type { TeamUser } from '@/shared/contract/configuration';
import { messages } from '@/shared/messages';
import { teamUsersQuery } from './get-team-users';

const update = (payload: Payload<'update-team-user'>) => api('update-team-user', payload);

function useRefresh() {
  const client = useQueryClient();
  // The signed-in user may have changed their own row (name, access areas): the menu follows.
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: teamUsersQuery.queryKey }),
      client.invalidateQueries({ queryKey: currentUserQuery.queryKey }),
    ]);
}

/** Edits a team member; an error answer is left to the dialog, which stays open and shows it. */
export function useUpdateTeamUser() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: update,
    onSuccess: () => {
      notifySuccess(messages.attendantUpdated);
      return refresh();
    },
  });
}

/** The soft delete: the whole row with `filed: true`. */
export function useDeleteTeamUser() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ _id, name, email, user_role, departments, access_areas }: TeamUser) =>
      update({ _id, name, email, user_role, departments, access_areas, filed: true }),
    onSuccess: () => {
      notifySuccess(messages.attendantDeleted);
      return refresh();
    },
    onError: notifyError,
  });
}
