import { api } from '@/app/lib/api';
import { chipsQuery } from '@/app/lib/lists';
import { useCallMutation } from '@/app/lib/mutation';
import type { Chip, Payload } from '@/shared/contract';
import { messages } from '@/shared/messages';
import { chipMessages } from '@/shared/messages-chips';

const savedMessage = (chip: Chip, created: boolean) => {
  if (!created) return chipMessages.chipUpdated;
  return chip.official ? messages.numberCreated : chipMessages.chipCreated;
};

/**
 * Creates (`created`: true) or edits a chip; an error answer (a rule, the plan's limit) is left to the
 * dialog, which stays open and shows it.
 */
export const useSaveChip = () =>
  useCallMutation(
    ({ chip }: { chip: Payload<'create-or-update-chip'>; created: boolean }) =>
      api('create-or-update-chip', chip),
    {
      successMessage: (chip, { created }) => savedMessage(chip, created),
      invalidates: [chipsQuery.queryKey],
    },
  );

/** The soft delete: the same call with `filed: true` (spec 3 §4). */
export const useDeleteChip = () =>
  useCallMutation((chip: Chip) => api('create-or-update-chip', { _id: chip._id, filed: true }), {
    successMessage: messages.numberDeleted,
    invalidates: [chipsQuery.queryKey],
    toastError: true,
  });
