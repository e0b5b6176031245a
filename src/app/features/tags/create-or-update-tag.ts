import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/app/lib/api';
import { notifyError, notifySuccess } from '@/app/lib/notify';
import type { Payload } from '@/shared/contract';
import type { Tag } from '@/shared/contract/configuration';
import { messages } from '@/shared/messages';
import { tagsQuery } from './get-tags-by-user';

const save = (payload: Payload<'create-or-update-tag'>) => api('create-or-update-tag', payload);

/** Creates or edits a tag; an error answer is left to the dialog, which stays open and shows it. */
export function useSaveTag() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: save,
    onSuccess: () => {
      notifySuccess(messages.tagSaved);
      return client.invalidateQueries({ queryKey: tagsQuery.queryKey });
    },
  });
}

/** The soft delete: the same call with `filed: true`. */
export function useDeleteTag() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (tag: Tag) => save({ _id: tag._id, filed: true }),
    onSuccess: () => {
      notifySuccess(messages.tagDeleted);
      return client.invalidateQueries({ queryKey: tagsQuery.queryKey });
    },
    onError: notifyError,
  });
}
