import { List, Stack, Text, Title } from '@mantine/core';
import { Dialog } from '@/app/ui/Dialog';
import { labels } from '@/shared/messages';
import { CHANGELOG } from './changelog';

/** The changelog dialog: our versions, newest first. */
export function ChangelogDialog({ opened, onClose }: { opened: boolean; onClose(): void }) {
  return (
    <Dialog opened={opened} onClose={onClose} title={labels.shell.news} size="lg">
      <Stack gap="lg">
        {CHANGELOG.map((release) => (
          <Stack gap={4} key={release.version} component="section">
            <Title order={2} fz="h4">
              {labels.shell.version} {release.version}
            </Title>
            <Text fz="sm" c="dimmed">
              {release.date}
            </Text>
            <List spacing={4} fz="sm">
              {release.changes.map((change) => (
                <List.Item key={change}>{change}</List.Item>
              ))}
            </List>
          </Stack>
        ))}
      </Stack>
    </Dialog>
  );
}
