// Service-worker registration (production only) and the 'Nova versão disponível' prompt: a new version
// waits until the user asks for it, then the page reloads into it.
import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Workbox } from 'workbox-window';
import { labels, messages } from '@/shared/messages';

const PROMPT = 'new-version';

export function registerServiceWorker() {
  const wb = new Workbox('/sw.js', { scope: '/' });

  wb.addEventListener('waiting', () => {
    // Reload once the new worker has taken over.
    wb.addEventListener('controlling', () => window.location.reload());
    notifications.show({
      id: PROMPT,
      autoClose: false,
      withCloseButton: true,
      color: 'green',
      title: messages.newVersionAvailable,
      message: (
        <Group justify="space-between" gap="xs" mt={4}>
          <Text fz="sm">{messages.newVersionHint}</Text>
          <Button size="xs" onClick={() => wb.messageSkipWaiting()}>
            {labels.app.update}
          </Button>
        </Group>
      ),
    });
  });

  void wb.register();
  // A long-open panel (attendants leave it open all day) looks for a new version every hour.
  setInterval(() => void wb.update(), 60 * 60 * 1000);
}
