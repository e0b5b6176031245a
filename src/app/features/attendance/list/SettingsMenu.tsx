import { ActionIcon, Popover, Stack, Switch, Tooltip } from '@mantine/core';
import { IconSettings } from '@tabler/icons-react';
import { useCurrentUser, useUpdateUserConfig } from '@/app/lib/user';
import { PushSwitch } from '@/app/offline/PushSwitch';
import { messages } from '@/shared/messages';

/** The gear of the service screen: the user's own notification sound and signature (spec 2 §6). */
export function SettingsMenu({ defaultOpened }: { defaultOpened?: boolean }) {
  const { config } = useCurrentUser();
  const update = useUpdateUserConfig();
  return (
    <Popover position="bottom-end" shadow="md" withArrow trapFocus defaultOpened={defaultOpened}>
      <Popover.Target>
        <Tooltip label={messages.listSettings}>
          <ActionIcon variant="default" size="lg" aria-label={messages.listSettings}>
            <IconSettings size={20} aria-hidden />
          </ActionIcon>
        </Tooltip>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="sm">
          <Switch
            label={messages.listNotificationSound}
            checked={!config.disable_notification_sound}
            disabled={update.isPending}
            onChange={(e) => update.mutate({ disable_notification_sound: !e.currentTarget.checked })}
          />
          <Switch
            label={messages.listSignature}
            checked={config.user_signature}
            disabled={update.isPending}
            onChange={(e) => update.mutate({ user_signature: e.currentTarget.checked })}
          />
          <PushSwitch />
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
