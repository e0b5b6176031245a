import { Button, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconHeadset } from '@tabler/icons-react';
import { Dialog } from '@/app/ui/Dialog';
import { labels, messages } from '@/shared/messages';

/**
 * The support dialog (spec 3 §2.6, §4): official numbers are set up by support. Meus chips opens it for a number
 * not yet registered; the official campaigns' plan notice for an account without one (and no support link).
 */
export function SupportDialog({
  opened,
  onClose,
  title = labels.chips.officialApiNumber,
}: {
  opened: boolean;
  onClose(): void;
  title?: string;
}) {
  return (
    <Dialog opened={opened} onClose={onClose} title={title}>
      <Stack gap="md">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <ThemeIcon variant="light" size={40} radius="xl" aria-hidden>
            <IconHeadset size={22} />
          </ThemeIcon>
          <Text fz="sm">{messages.officialChipSupport}</Text>
        </Group>
        <Group justify="flex-end">
          <Button onClick={onClose}>{labels.common.gotIt}</Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
