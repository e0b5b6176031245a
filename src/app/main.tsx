import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@/app/ui/touch-targets.css';
import '@/app/shell/shell.css';
import { MantineProvider } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { session } from '@/app/lib/api';
import { firstPaintDone, keepFirstPaint } from '@/app/lib/first-paint';
import { clearServerState, queryClient, startPersistence } from '@/app/lib/query';
import { preloadWhenIdle } from '@/app/ui/lazy-dialog';
import { Toasts } from '@/app/ui/Toasts';
import { preloadSignedInStart, router } from './router';
import { theme } from './theme';

// A 401 that says logout (or a sign-out) ends the session: forget the cached data, back to /login.
session.onEnd((reason) => {
  // Keyed by its text, as notifyError keys it: the call that found out may show it too.
  if (reason) notifications.show({ id: reason, color: 'red', message: reason });
  clearServerState();
  // The device's offline copy (Dexie) goes too; loaded only now, so /login stays small.
  void import('@/app/offline/app-offline').then((m) => m.wipeOffline()).catch(() => undefined);
  void router.navigate({ to: '/login' });
});

function App() {
  return (
    <StrictMode>
      <MantineProvider theme={theme}>
        <Toasts />
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </MantineProvider>
    </StrictMode>
  );
}

const root = document.getElementById('root');
if (root) {
  // The persisted user and lists are restored first (synchronously), so the guards see them offline.
  startPersistence();
  preloadSignedInStart(window.location.pathname);
  keepFirstPaint();
  // The offline picture of Atendimento (public/first-paint.js) goes as soon as another screen is shown.
  router.subscribe('onResolved', ({ toLocation }) => {
    if (toLocation.pathname !== '/atendimento') firstPaintDone();
  });
  createRoot(root).render(<App />);
}

/**
 * The service worker's install downloads the whole app (about 1 MB): on a phone's link it must not compete
 * with what the user waits for. It starts when the browser is idle after a signed-in screen has shown, or
 * after 5 s on a public screen (the sign-in form being filled). A signed-in start has its worker already:
 * it only looks for an update, after the first screen.
 */
function whenFirstScreenShown(start: () => void) {
  let started = false;
  const go = () => {
    if (started) return;
    started = true;
    clearTimeout(timer);
    unsubscribe();
    preloadWhenIdle({ preload: async () => start() });
  };
  const timer = setTimeout(go, 5000);
  const unsubscribe = router.subscribe('onResolved', () => {
    if (router.state.matches.some((m) => m.routeId.startsWith('/menu'))) go();
  });
}

if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  whenFirstScreenShown(() => void import('./pwa').then((m) => m.registerServiceWorker()));
}
