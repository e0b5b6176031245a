import { api } from '@/app/lib/api';
import { tagsQuery } from '@/app/lib/lists';
import { useCallMutation } from '@/app/lib/mutation';
import type { Tag } from '@/shared/contract/configuration';
import { messages } from '@/shared/messages';

/** Creates or edits a tag; an error answer is left to the dialog, which stays open and shows it. */
export const useSaveTag = () =>
  useCallMutation('create-or-update-tag', {
    successMessage: messages.tagSaved,
    invalidates: [tagsQuery.queryKey],
  });

/** The soft delete: the same call with `filed: true`. */
export const useDeleteTag = () =>
  useCallMutation((tag: Tag) => api('create-or-update-tag', { _id: tag._id, filed: true }), {
    successMessage: messages.tagDeleted,
    invalidates: [tagsQuery.queryKey],
    toastError: true,
  });
