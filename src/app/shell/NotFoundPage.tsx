import { Button, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { homePath } from '@/app/lib/access';
import { useCurrentUser } from '@/app/lib/user';
import { labels, messages } from '@/shared/messages';

/** Any path outside the route table. */
export function NotFoundPage() {
  const user = useCurrentUser();
  return (
    <Stack align="flex-start" gap="md">
      <Title order={1} fz="h2">
        {messages.pageNotFound}
      </Title>
      <Text c="dimmed">{messages.pageNotFoundHint}</Text>
      <Button component={Link} to={homePath(user)}>
        {labels.shell.backToStart}
      </Button>
    </Stack>
  );
}
