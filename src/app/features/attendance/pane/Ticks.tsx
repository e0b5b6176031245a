// A sent message's ticks (WhatsApp's): the bubble's and the list's preview of our own last message.
import { IconAlertCircle, IconCheck, IconChecks, IconClock } from '@tabler/icons-react';
import { TICK_LABELS, type Tick } from './pane-view';

const READ_BLUE = '#53bdeb';

export function Ticks({ tick }: { tick: Tick }) {
  const label = TICK_LABELS[tick];
  switch (tick) {
    case 'failed':
      return <IconAlertCircle size={14} color="var(--mantine-color-red-7)" role="img" aria-label={label} />;
    case 'pending':
      return <IconClock size={12} role="img" aria-label={label} />;
    case 'sent':
      return <IconCheck size={15} role="img" aria-label={label} />;
    case 'delivered':
      return <IconChecks size={15} role="img" aria-label={label} />;
    case 'read':
      return <IconChecks size={15} style={{ color: READ_BLUE }} role="img" aria-label={label} />;
  }
}
