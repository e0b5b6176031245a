/// <reference lib="webworker" />
// The service worker (vite-plugin-pwa, injectManifest): the app shell is precached, every page navigation
// is answered with index.html (so the app opens offline after one visit), uploaded media are cached.
// /api, /sock/ and /media navigations are left to the network.
import { ExpirationPlugin } from 'workbox-expiration';
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  type PrecacheEntry,
  precacheAndRoute,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (PrecacheEntry | string)[] };

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), {
    denylist: [/^\/api(\/|$)/, /^\/sock\//, /^\/media\//],
  }),
);

// Media files have generated, immutable names: cache first, bounded.
registerRoute(
  ({ url, request }) =>
    url.origin === self.location.origin && url.pathname.startsWith('/media/') && request.method === 'GET',
  new CacheFirst({
    cacheName: 'media',
    plugins: [
      new ExpirationPlugin({ maxEntries: 300, maxAgeSeconds: 30 * 24 * 60 * 60, purgeOnQuotaError: true }),
    ],
  }),
);

// A new version waits until the user accepts 'Nova versão disponível' (the app sends SKIP_WAITING).
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

// The very first install takes the open pages at once, so they work offline without a reload.
self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});
