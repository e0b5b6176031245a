import { api } from '@/app/lib/api';
import { teamUsersQuery } from '@/app/lib/lists';
import { useCallMutation } from '@/app/lib/mutation';
import { currentUserQuery } from '@/app/lib/user';
import type { TeamUser } from '@/shared/contract/configuration';
import { messages } from '@/shared/messages';

// The signed-in user may have changed their own row (name, access areas): the menu follows.
const stale = [teamUsersQuery.queryKey, currentUserQuery.queryKey];

/** Edits a team member; an error answer is left to the dialog, which stays open and shows it. */
export const useUpdateTeamUser = () =>
  useCallMutation('update-team-user', { successMessage: messages.attendantUpdated, invalidates: stale });

/** The soft delete: the whole row with `filed: true`. */
export const useDeleteTeamUser = () =>
  useCallMutation(
    ({ _id, name, email, user_role, departments, access_areas }: TeamUser) =>
      api('update-team-user', { _id, name, email, user_role, departments, access_areas, filed: true }),
    { successMessage: messages.attendantDeleted, invalidates: stale, toastError: true },
  );
