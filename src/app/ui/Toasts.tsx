import { Notifications } from '@mantine/notifications';
import './toasts.css';
import { useIsMobile } from './use-is-mobile';

/**
 * Where the toasts appear, on every screen: at the top centre, just below the top bars (the shell's, a
 * full-screen pane's or dialog's, the flow editor's), so they cover neither those bars' buttons (back, menu,
 * close, Salvar, Exportar, Restaurar) nor what sits at the bottom (the composer and its send button, a
 * list's last item, a drawer's Salvar). Taps and the pointer pass through them (./toasts.css): a toast never
 * blocks a click, nor stays while the pointer rests on it. At most two at a time on a phone, three on desktop.
 */
export function Toasts() {
  const mobile = useIsMobile();
  return <Notifications position="top-center" limit={mobile ? 2 : 3} className="toasts" />;
}
