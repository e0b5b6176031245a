import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/app/lib/api';
import { notifyError, notifySuccess } from '@/app/lib/notify';
import type { Payload } from '@/shared/contract';
import type { Department } from '@/shared/contract/configuration';
import { messages } from '@/shared/messages';
import { departmentsQuery } from './get-departments-by-user';

const save = (payload: Payload<'create-or-update-department'>) => api('create-or-update-department', payload);

/** Creates or edits a department; an error answer is left to the dialog, which stays open and shows it. */
export function useSaveDepartment() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: save,
    onSuccess: () => {
      notifySuccess(messages.departmentSaved);
      return client.invalidateQueries({ queryKey: departmentsQuery.queryKey });
    },
  });
}

/** The soft delete: the same call with `filed: true`. */
export function useDeleteDepartment() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (department: Department) => save({ _id: department._id, filed: true }),
    onSuccess: () => {
      notifySuccess(messages.departmentDeleted);
      return client.invalidateQueries({ queryKey: departmentsQuery.queryKey });
    },
    onError: notifyError,
  });
}
