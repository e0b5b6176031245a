import { Avatar, Badge, Menu, UnstyledButton } from '@mantine/core';
import { IconLogout, IconSparkles, IconUser } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { api, session } from '@/app/lib/api';
import { outbox } from '@/app/offline/app-offline';
import { confirm } from '@/app/ui/confirm';
import type { User } from '@/shared/contract';
import { labels, messages } from '@/shared/messages';

async function signOut() {
  // Messages still waiting in the outbox leave with the session (the device keeps nothing of it): say so.
  const waiting = await outbox.waiting().catch(() => 0);
  const message = waiting
    ? `${messages.confirmLogout} ${messages.outboxDiscarded(waiting)}`
    : messages.confirmLogout;
  if (!(await confirm({ title: labels.shell.logout, message }))) return;
  // This device stops receiving the user's notifications (issue 7), then the session ends here whatever the
  // server answers (it may be unreachable).
  await import('@/app/offline/push').then((m) => m.disablePush()).catch(() => undefined);
  await api('logout').catch(() => undefined);
  session.end();
}

export interface UserMenuProps {
  user: User;
  onChangelog(): void;
  /** Opened at once: the click came while the menu was loading (TopBar's fallback). */
  defaultOpened?: boolean;
}

export function UserMenu({ user, onChangelog, defaultOpened }: UserMenuProps) {
  return (
    <Menu position="bottom-end" width={240} withinPortal defaultOpened={defaultOpened}>
      <Menu.Target>
        <UnstyledButton
          className="touch-target"
          aria-label={labels.shell.userMenu}
          style={{ borderRadius: '50%' }}
        >
          <Avatar src={user.profile_picture} alt="" name={user.name} color="initials" size={34} />
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          {user.name}
          <br />
          {messages.roleLabels[user.user_role]}
          {user.acting_admin && (
            <Badge ml={6} size="xs" color="orange">
              {labels.shell.admin}
            </Badge>
          )}
        </Menu.Label>
        <Menu.Item component={Link} to="/meu-perfil" leftSection={<IconUser size={16} aria-hidden />}>
          {labels.common.myProfile}
        </Menu.Item>
        <Menu.Item leftSection={<IconSparkles size={16} aria-hidden />} onClick={onChangelog}>
          {labels.shell.news}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item
          color="red"
          leftSection={<IconLogout size={16} aria-hidden />}
          onClick={() => void signOut()}
        >
          {labels.shell.logout}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
