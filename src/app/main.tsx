import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@/app/ui/touch-targets.css';
import { MantineProvider } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { session } from '@/app/lib/api';
import { firstPaintDone, keepFirstPaint } from '@/app/lib/first-paint';
import { clearServerState, queryClient, startPersistence } from '@/app/lib/query';
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

if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  void import('./pwa').then((m) => m.registerServiceWorker());
}
