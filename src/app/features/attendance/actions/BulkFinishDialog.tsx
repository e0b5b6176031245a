import { Button, Group, NumberInput, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '@/app/lib/api';
import { useFormMutation } from '@/app/lib/mutation';
import { notifySuccess } from '@/app/lib/notify';
import { Dialog } from '@/app/ui/Dialog';
import { FormError } from '@/app/ui/FormParts';
import { labels, messages } from '@/shared/messages';
import { LIST_KEY } from '../data/conversations';

export const DEFAULT_INACTIVE_HOURS = 48;
const MAX_HOURS = 24 * 365;

interface Props {
  opened: boolean;
  onClose(): void;
}

/** Finalizar conversas inativas (spec 2 §4, §9): every open conversation without a message for N hours. */
export function BulkFinishDialog({ opened, onClose }: Props) {
  return (
    <Dialog opened={opened} onClose={onClose} title={messages.paneBulkFinish}>
      <BulkFinishForm onDone={onClose} />
    </Dialog>
  );
}

function BulkFinishForm({ onDone }: { onDone(): void }) {
  const client = useQueryClient();
  const [hours, setHours] = useState<number | string>(DEFAULT_INACTIVE_HOURS);
  const { saving, error, setError, save } = useFormMutation();
  const valid = typeof hours === 'number' && Number.isInteger(hours) && hours >= 1 && hours <= MAX_HOURS;

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (!valid) return setError(messages.paneBulkFinishHoursInvalid);
    await save(async () => {
      await api('finish-inactive-conversations', { hours });
      notifySuccess(messages.conversationsFinished);
      // Each finished conversation also comes as an event; a refetch settles the lists at once.
      void client.invalidateQueries({ queryKey: LIST_KEY });
      onDone();
    });
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <NumberInput
          label={messages.paneBulkFinishHours}
          value={hours}
          onChange={(v) => {
            setHours(v);
            setError(null);
          }}
          min={1}
          max={MAX_HOURS}
          allowDecimal={false}
          allowNegative={false}
          thousandSeparator=""
          data-autofocus
        />
        {valid && (
          <Text size="sm" c="dimmed">
            {messages.paneBulkFinishHint(hours)}
          </Text>
        )}
        <FormError message={error} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone}>
            {labels.common.cancel}
          </Button>
          <Button type="submit" color="red" loading={saving}>
            {messages.finish}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
