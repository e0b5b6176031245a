import { useMutation } from '@tanstack/react-query';
import type { Payload } from '../../../shared/contract';
import { messages } from '../../../shared/messages';
import { api } from '../../lib/api';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useSetCurrentUser } from '../../lib/user';

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
