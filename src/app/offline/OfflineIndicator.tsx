// The top bar's connection state: offline, and how many messages wait in the outbox (also while online
// and still sending).
import { Badge } from '@mantine/core';
import { IconClock, IconWifiOff } from '@tabler/icons-react';
import { Tip } from '@/app/ui/Tip';
import { messages } from '@/shared/messages';
import { useOnline, useOutboxWaiting } from './app-offline';

export function OfflineIndicator() {
  const online = useOnline();
  const waiting = useOutboxWaiting();
  if (online && waiting === 0) return null;
  const label = [online ? null : messages.offlineShort, waiting ? messages.outboxWaiting(waiting) : null]
    .filter(Boolean)
    .join(' · ');
  return (
    <Tip label={label}>
      <Badge
        role="status"
        aria-label={label}
        data-testid="offline-indicator"
        color={online ? 'blue' : 'orange'}
        variant="light"
        size="lg"
        leftSection={online ? <IconClock size={14} aria-hidden /> : <IconWifiOff size={14} aria-hidden />}
      >
        {waiting > 0 ? waiting : messages.offlineShort}
      </Badge>
    </Tip>
  );
}
