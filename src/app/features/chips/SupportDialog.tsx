import { Button, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconHeadset } from '@tabler/icons-react';
import { Dialog } from '@/app/ui/Dialog';
import { labels, messages } from '@/shared/messages';

/** The support dialog (spec 3 §2.6, §4): an official number not yet registered cannot be connected. */
export function SupportDialog({ opened, onClose }: { opened: boolean; onClose(): void }) {
  return (
    <Dialog opened={opened} onClose={onClose} title={labels.chips.numeroDaApiOficial}>
      <Stack gap="md">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <ThemeIcon variant="light" size={40} radius="xl" aria-hidden>
            <IconHeadset size={22} />
          </ThemeIcon>
          <Text fz="sm">{messages.officialChipSupport}</Text>
        </Group>
        <Group justify="flex-end">
          <Button onClick={onClose}>{labels.common.entendi}</Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
