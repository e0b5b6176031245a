import { useMutation } from '@tanstack/react-query';
import { api } from '@/app/lib/api';
import { notifyError, notifySuccess } from '@/app/lib/notify';
import { useSetCurrentUser } from '@/app/lib/user';
import type { Payload } from '@/shared/contract';
import { messages } from '@/shared/messages';

export function useUpdateUser() {
  const setUser = useSetCurrentUser();
  return useMutation({
    mutationFn: (payload: Payload<'update-user'>) => api('update-user', payload),
    onSuccess: (user) => {
      setUser(user);
      notifySuccess(messages.dataUpdated);
    },
    onError: notifyError,
  });
}
