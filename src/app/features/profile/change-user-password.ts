import { useMutation } from '@tanstack/react-query';
import { api } from '@/app/lib/api';
import type { Payload } from '@/shared/contract';

export const useChangeUserPassword = () =>
  useMutation({
    mutationFn: (payload: Payload<'change-user-password'>) => api('change-user-password', payload),
  });
