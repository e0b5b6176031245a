import { Group, Text } from '@mantine/core';
import { IconClock, IconClockOff } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { messages } from '@/shared/messages';
import { replyWindowLeft } from '../contact-view';

/** The countdown refreshes once a minute (spec 2 §2.3, §9). */
export const REPLY_WINDOW_REFRESH_MS = 60_000;

/** Time left to answer the contact (context_window): hours and minutes, or the off icon once it closed. */
export function ReplyWindow({ deadline }: { deadline: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), REPLY_WINDOW_REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  const left = replyWindowLeft(deadline, now);
  if (!left)
    return (
      <IconClockOff
        size={16}
        color="var(--mantine-color-red-7)"
        role="img"
        aria-label={messages.listReplyWindowClosed}
      />
    );
  return (
    <Group gap={3} wrap="nowrap" aria-label={messages.paneReplyWindowLeft(left)} role="img">
      <IconClock size={14} color="var(--mantine-color-green-8)" aria-hidden />
      <Text size="xs" c="green.8" fw={600} aria-hidden>
        {left}
      </Text>
    </Group>
  );
}
