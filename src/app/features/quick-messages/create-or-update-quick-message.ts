import { api } from '@/app/lib/api';
import { quickMessagesQuery } from '@/app/lib/lists';
import { useCallMutation } from '@/app/lib/mutation';
import type { QuickMessage } from '@/shared/contract/configuration';
import { messages } from '@/shared/messages';

/** Creates or edits a quick message; an error answer is left to the dialog, which stays open and shows it. */
export const useSaveQuickMessage = () =>
  useCallMutation('create-or-update-quick-message', {
    successMessage: messages.quickMessageSaved,
    invalidates: [quickMessagesQuery.queryKey],
  });

/** The soft delete: the same call with `filed: true`. */
export const useDeleteQuickMessage = () =>
  useCallMutation(
    (quickMessage: QuickMessage) =>
      api('create-or-update-quick-message', { _id: quickMessage._id, filed: true }),
    {
      successMessage: messages.quickMessageDeleted,
      invalidates: [quickMessagesQuery.queryKey],
      toastError: true,
    },
  );
