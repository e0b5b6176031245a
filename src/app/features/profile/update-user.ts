import { useCallMutation } from '@/app/lib/mutation';
import { useSetCurrentUser } from '@/app/lib/user';
import { messages } from '@/shared/messages';

export function useUpdateUser() {
  const setUser = useSetCurrentUser();
  return useCallMutation('update-user', {
    onSuccess: setUser,
    successMessage: messages.dataUpdated,
    toastError: true,
  });
}
