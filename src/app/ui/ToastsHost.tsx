import { Notifications } from '@mantine/notifications';
import { useIsMobile } from './use-is-mobile';

/** Mantine's toasts, with their transitions: loaded by Toasts (./Toasts.tsx) when a first toast is near. */
export function ToastsHost() {
  const mobile = useIsMobile();
  return <Notifications position="top-center" limit={mobile ? 2 : 3} className="toasts" />;
}
