import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/app/lib/api';
import { notifyError, notifySuccess } from '@/app/lib/notify';
import type { Payload } from '@/shared/contract';
import type { QuickMessage } from '@/shared/contract/configuration';
import { messages } from '@/shared/messages';
import { quickMessagesQuery } from './get-quick-messages-by-user';

const save = (payload: Payload<'create-or-update-quick-message'>) =>
  api('create-or-update-quick-message', payload);

/** Creates or edits a quick message; an error answer is left to the dialog, which stays open and shows it. */
export function useSaveQuickMessage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: save,
    onSuccess: () => {
      notifySuccess(messages.quickMessageSaved);
      return client.invalidateQueries({ queryKey: quickMessagesQuery.queryKey });
    },
  });
}

/** The soft delete: the same call with `filed: true`. */
export function useDeleteQuickMessage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (quickMessage: QuickMessage) => save({ _id: quickMessage._id, filed: true }),
    onSuccess: () => {
      notifySuccess(messages.quickMessageDeleted);
      return client.invalidateQueries({ queryKey: quickMessagesQuery.queryKey });
    },
    onError: notifyError,
  });
}
