import { useNotifications } from '@mantine/notifications';
import { lazy, Suspense, useEffect, useState } from 'react';
import './toasts.css';
import { preloadWhenIdle } from './lazy-dialog';

const loadHost = () => import('./ToastsHost');
const ToastsHost = lazy(() => loadHost().then((m) => ({ default: m.ToastsHost })));

/**
 * Where the toasts appear, on every screen: at the top centre, just below the top bars (the shell's, a
 * full-screen pane's or dialog's, the flow editor's), so they cover neither those bars' buttons (back, menu,
 * close, Salvar, Exportar, Restaurar) nor what sits at the bottom (the composer and its send button, a
 * list's last item, a drawer's Salvar). Taps and the pointer pass through them (./toasts.css): a toast never
 * blocks a click, nor stays while the pointer rests on it. At most two at a time on a phone, three on desktop.
 *
 * The host (Mantine's Notifications, its transitions and scroll lock: some 10 KiB gzipped) is not part of the
 * first screen: it loads when the browser is idle after it, or at the first toast, whichever comes first; the
 * toasts shown meanwhile wait in Mantine's store and appear with it.
 */
export function Toasts() {
  const { notifications, queue } = useNotifications();
  const [mounted, setMounted] = useState(false);
  const wanted = mounted || notifications.length + queue.length > 0;
  useEffect(() => {
    if (wanted) return;
    return preloadWhenIdle({ preload: () => loadHost().then(() => setMounted(true)) });
  }, [wanted]);
  return wanted ? (
    <Suspense fallback={null}>
      <ToastsHost />
    </Suspense>
  ) : null;
}
