import { teamUsersQuery } from '@/app/lib/lists';
import { useCallMutation } from '@/app/lib/mutation';
import { messages } from '@/shared/messages';

/** Adds a team member; an error answer is left to the dialog, which stays open and shows it. */
export const useCreateTeamUser = () =>
  useCallMutation('create-team-user', {
    successMessage: messages.attendantCreated,
    invalidates: [teamUsersQuery.queryKey],
  });
