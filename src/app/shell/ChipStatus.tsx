import { ActionIcon, Badge, type DrawerProps, Group, Loader, Stack, Text } from '@mantine/core';
import { IconDeviceMobile, IconDeviceMobileCheck, IconDeviceMobileOff, IconDots } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { drawerChipsQuery, isConnected, topBarChips, topBarChipsQuery } from '@/app/lib/chips';
import { useBackClose } from '@/app/ui/back-stack';
import { lazyDialog } from '@/app/ui/lazy-dialog';
import { Tip } from '@/app/ui/Tip';
import { useIsMobile } from '@/app/ui/use-is-mobile';
import type { Chip } from '@/shared/contract';
import { labels, messages } from '@/shared/messages';

// The drawer (Mantine's modal machinery) loads when first opened.
const Drawer = lazyDialog<DrawerProps>(() => import('@/app/ui/overlay-parts').then((m) => m.Drawer));

const stateLabel = (chip: Chip) => (isConnected(chip) ? 'conectado' : 'desconectado');

/** The top bar's chip states; any click opens the chip-status drawer. Polled every 2 min. */
export function TopBarChips({ onOpen }: { onOpen(): void }) {
  const { data: chips = [] } = useQuery(topBarChipsQuery);
  const { shown, hidden } = topBarChips(chips);

  if (chips.length === 0) {
    return (
      <Tip label={labels.shell.chipsStatus}>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="lg"
          aria-label={labels.shell.chipsStatus}
          onClick={onOpen}
        >
          <IconDeviceMobile size={20} aria-hidden />
        </ActionIcon>
      </Tip>
    );
  }
  return (
    <Group gap={2} wrap="nowrap" role="group" aria-label={labels.common.chips} className="touch-row">
      {shown.map((chip) => {
        const label = `${chip.name}: ${stateLabel(chip)}`;
        const Icon = isConnected(chip) ? IconDeviceMobileCheck : IconDeviceMobileOff;
        return (
          <Tip key={chip._id} label={label}>
            <ActionIcon
              variant="light"
              color={isConnected(chip) ? 'green' : 'red'}
              size="lg"
              aria-label={label}
              onClick={onOpen}
            >
              <Icon size={20} aria-hidden />
            </ActionIcon>
          </Tip>
        );
      })}
      {hidden > 0 && (
        <Tip label={labels.chips.moreChips(hidden)}>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={labels.chips.moreChips(hidden)}
            onClick={onOpen}
          >
            <IconDots size={20} aria-hidden />
          </ActionIcon>
        </Tip>
      )}
    </Group>
  );
}

/** The chip-status drawer: every chip the user can see, polled every 30 s while open. */
export function ChipDrawer({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const mobile = useIsMobile();
  const top = useBackClose(opened, onClose);
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      closeOnEscape={top}
      position="right"
      title={labels.shell.chipsStatus}
      size={mobile ? '100%' : 'sm'}
    >
      <ChipList />
    </Drawer>
  );
}

function ChipList() {
  const { data: chips, isPending } = useQuery(drawerChipsQuery);
  if (isPending) return <Loader size="sm" aria-label={labels.common.loading} />;
  if (!chips?.length) return <Text c="dimmed">{messages.noChips}</Text>;
  return (
    <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
      {chips.map((chip) => (
        <Group key={chip._id} component="li" justify="space-between" wrap="nowrap" py={6}>
          <Stack gap={0} miw={0}>
            <Text fw={500} truncate>
              {chip.name}
            </Text>
            {chip.official && (
              <Text fz="xs" c="dimmed">
                {labels.shell.officialApi}
              </Text>
            )}
          </Stack>
          <Badge color={isConnected(chip) ? 'green' : 'red'} variant="light">
            {isConnected(chip) ? messages.chipStatusLabels.open : messages.chipStatusLabels.new}
          </Badge>
        </Group>
      ))}
    </Stack>
  );
}
