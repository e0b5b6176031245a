import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/app/lib/api';
import { notifyError, notifySuccess } from '@/app/lib/notify';
import type { Chip, Payload } from '@/shared/contract';
import { messages } from '@/shared/messages';
import { chipsQuery } from './get-chip-numbers-by-user';

const save = (payload: Payload<'create-or-update-chip'>) => api('create-or-update-chip', payload);

const savedMessage = (chip: Chip, created: boolean) => {
  if (!created) return messages.chipUpdated;
  return chip.official ? messages.officialChipCreated : messages.chipCreated;
};

/**
 * Creates (`created`: true) or edits a chip; an error answer (a rule, the plan's limit) is left to the
 * dialog, which stays open and shows it.
 */
export function useSaveChip() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ chip }: { chip: Payload<'create-or-update-chip'>; created: boolean }) => save(chip),
    onSuccess: (chip, { created }) => {
      notifySuccess(savedMessage(chip, created));
      return client.invalidateQueries({ queryKey: chipsQuery.queryKey });
    },
  });
}

/** The soft delete: the same call with `filed: true` (spec 3 §4). */
export function useDeleteChip() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (chip: Chip) => save({ _id: chip._id, filed: true }),
    onSuccess: () => {
      notifySuccess(messages.chipDeleted);
      return client.invalidateQueries({ queryKey: chipsQuery.queryKey });
    },
    onError: notifyError,
  });
}
