import { Notifications } from '@mantine/notifications';
import { useIsMobile } from './use-is-mobile';

/**
 * Where the toasts appear: at the bottom on phones, where they cover no full-screen pane's back and menu
 * buttons and no dialog's title and close button (all at the top); at the top right on desktop, clear of
 * the centred dialogs. At most two at a time on a phone, three on desktop (the rest wait their turn).
 */
export function Toasts() {
  const mobile = useIsMobile();
  return <Notifications position={mobile ? 'bottom-center' : 'top-right'} limit={mobile ? 2 : 3} />;
}
