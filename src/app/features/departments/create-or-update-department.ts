import { api } from '@/app/lib/api';
import { departmentsQuery } from '@/app/lib/lists';
import { useCallMutation } from '@/app/lib/mutation';
import type { Department } from '@/shared/contract/configuration';
import { messages } from '@/shared/messages';

/** Creates or edits a department; an error answer is left to the dialog, which stays open and shows it. */
export const useSaveDepartment = () =>
  useCallMutation('create-or-update-department', {
    successMessage: messages.departmentSaved,
    invalidates: [departmentsQuery.queryKey],
  });

/** The soft delete: the same call with `filed: true`. */
export const useDeleteDepartment = () =>
  useCallMutation(
    (department: Department) => api('create-or-update-department', { _id: department._id, filed: true }),
    {
      successMessage: messages.departmentDeleted,
      invalidates: [departmentsQuery.queryKey],
      toastError: true,
    },
  );
