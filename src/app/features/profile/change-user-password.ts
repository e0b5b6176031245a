import { useMutation } from '@tanstack/react-query';
import type { Payload } from '../../../shared/contract';
import { api } from '../../lib/api';

export const useChangeUserPassword = () =>
  useMutation({
    mutationFn: (payload: Payload<'change-user-password'>) => api('change-user-password', payload),
  });
