import { Box, Center, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconMessageChatbot } from '@tabler/icons-react';
import { Outlet } from '@tanstack/react-router';
import { labels } from '@/shared/messages';

/** The 'fullscreen' layout (spec 1 §2): one centred card, no menu. */
export function FullscreenLayout() {
  return (
    <Box bg="var(--mantine-color-gray-0)" mih="100dvh">
      <Center mih="100dvh" p="md">
        <Stack w="100%" maw={420} gap="lg">
          <Group justify="center" gap="xs">
            <ThemeIcon size={40} radius="md" aria-hidden>
              <IconMessageChatbot size={24} />
            </ThemeIcon>
            <Text fw={700} fz="xl">
              {labels.common.servicePanel}
            </Text>
          </Group>
          <Outlet />
        </Stack>
      </Center>
    </Box>
  );
}
