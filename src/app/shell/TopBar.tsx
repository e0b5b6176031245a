import { Avatar, Burger, Group, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { IconMessageChatbot } from '@tabler/icons-react';
import { deferredPart } from '@/app/ui/lazy-dialog';
import type { User } from '@/shared/contract';
import { labels } from '@/shared/messages';
import { Bell } from './Bell';
import { TopBarChips } from './ChipStatus';
import type { UserMenuProps } from './UserMenu';

// The connection badge counts the outbox, kept in the device's database (Dexie): it loads after the first
// paint (the shell's offline notice shows at once meanwhile).
const OfflineIndicator = deferredPart(
  () => import('@/app/offline/OfflineIndicator').then((m) => m.OfflineIndicator),
  () => null,
);

// The user's menu (Mantine's Menu, with @floating-ui) loads after the first paint; its avatar paints at once.
const UserMenu = deferredPart<UserMenuProps>(
  () => import('./UserMenu').then((m) => m.UserMenu),
  ({ user, onIntent, onOpen }) => (
    <UnstyledButton
      className="touch-target"
      aria-label={labels.shell.userMenu}
      style={{ borderRadius: '50%' }}
      onPointerEnter={onIntent}
      onFocus={onIntent}
      // A press already asks for the menu: if the menu's code arrives between the press and the release,
      // the button under the finger is replaced and the click never reaches it (the menu would stay shut).
      onPointerDown={onOpen}
      onClick={onOpen}
    >
      <Avatar src={user.profile_picture} alt="" name={user.name} color="initials" size={34} />
    </UnstyledButton>
  ),
);

interface TopBarProps {
  user: User;
  menuOpened: boolean;
  onMenu(): void;
  onChips(): void;
  onChangelog(): void;
}

/** The top bar: burger (phones), chip states, the bell and the user's menu. */
export function TopBar({ user, menuOpened, onMenu, onChips, onChangelog }: TopBarProps) {
  return (
    <Group h="100%" px={{ base: 'xs', sm: 'md' }} justify="space-between" wrap="nowrap" gap="xs">
      <Group gap="xs" wrap="nowrap" miw={0}>
        <Burger
          hiddenFrom="sm"
          size="sm"
          opened={menuOpened}
          onClick={onMenu}
          aria-label={labels.shell.openMenu}
        />
        <ThemeIcon size={32} radius="md" visibleFrom="sm" aria-hidden>
          <IconMessageChatbot size={20} />
        </ThemeIcon>
        <Text fw={700} visibleFrom="sm" truncate>
          {labels.common.servicePanel}
        </Text>
      </Group>
      <Group gap={6} wrap="nowrap" className="touch-row">
        <OfflineIndicator />
        <TopBarChips onOpen={onChips} />
        <Bell />
        <UserMenu user={user} onChangelog={onChangelog} />
      </Group>
    </Group>
  );
}
