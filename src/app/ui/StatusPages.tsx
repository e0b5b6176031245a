import { Button, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { type ErrorComponentProps, useRouter } from '@tanstack/react-router';
import { errorMessage } from '@/app/lib/api';
import { labels, messages } from '@/shared/messages';

export function PendingPage() {
  return (
    <Center mih="50dvh">
      <Loader aria-label={labels.common.loading} />
    </Center>
  );
}

/** A screen that could not load (offline without cache, server error): say why and offer a retry. */
export function ErrorPage({ error }: ErrorComponentProps) {
  const router = useRouter();
  return (
    <Center mih="50dvh" p="md">
      <Stack align="center" maw={420} ta="center">
        <Title order={1} fz="h3">
          {messages.screenLoadFailed}
        </Title>
        <Text c="dimmed">{errorMessage(error)}</Text>
        <Button onClick={() => void router.invalidate()}>{labels.common.tryAgain}</Button>
      </Stack>
    </Center>
  );
}
