/// <reference lib="webworker" />
// The service worker (vite-plugin-pwa, injectManifest): the app shell is precached, every page navigation
// is answered with index.html (so the app opens offline after one visit), uploaded media are cached.
// /api/… (the app's calls, the public API and its OpenAPI document), /sock/ and /media navigations are left to
// the network; /api itself is the API page of the app.
import { ExpirationPlugin } from 'workbox-expiration';
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  type PrecacheEntry,
  precacheAndRoute,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import { classifyFailure, createApiClient } from '@/app/lib/api-client';
import { offlineDb, SESSION_KEY } from '@/app/offline/db';
import { createOutbox } from '@/app/offline/outbox';
import type { PushPayload } from '@/shared/contract/push';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (PrecacheEntry | string)[] };

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), {
    // /meta-login comes from the server: only its own answer carries the CSP that lets the Facebook SDK in.
    denylist: [/^\/api\//, /^\/sock\//, /^\/media\//, /^\/meta-login\/?$/],
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

// ---- Background Sync of the outbox (issue 7) ---------------------------------------------------------
// A message typed offline registers the 'outbox' sync. When the connection comes back, an open page sends its
// outbox itself (it is told to); with no page open, the worker sends it from the same Dexie outbox, with the
// session the page left there. A try that leaves messages waiting fails the event, so the browser tries again.
interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
}

async function sendOutboxFromWorker() {
  const db = offlineDb();
  const token = (await db.meta.get(SESSION_KEY))?.value;
  if (typeof token !== 'string' || !token) return;
  // The app's own client and failure classes, with the token the page left on the device.
  const client = createApiClient({ token: () => token });
  const outbox = createOutbox({
    db,
    transport: {
      upload: (file, type, fileName) =>
        client.upload('upload-file', file, fileName, { type, filename: fileName }),
      send: (payload) => client.call('send-conversation-message', payload),
      classify: classifyFailure,
    },
    // No waiting inside the worker: the browser schedules the next sync.
    setTimer: () => null,
    clearTimer: () => undefined,
  });
  await outbox.drain();
  if ((await outbox.waiting()) > 0) throw new Error('outbox: messages still waiting');
}

self.addEventListener('sync', (event) => {
  const sync = event as SyncEvent;
  if (sync.tag !== 'outbox') return;
  sync.waitUntil(
    (async () => {
      const pages = await self.clients.matchAll({ type: 'window' });
      if (pages.length > 0) {
        for (const page of pages) page.postMessage({ type: 'outbox-sync' });
        return;
      }
      await sendOutboxFromWorker();
    })(),
  );
});

// ---- Web Push (issue 7) ----------------------------------------------------------------------------------
// 'Nova conversa' from the server. When a page of the app is visible, its own in-app notification is enough:
// no system notification on top of it. A click focuses an open page (or opens one) on that conversation.
const conversationUrl = (id: string) => `/atendimento?c=${encodeURIComponent(id)}`;

self.addEventListener('push', (event) => {
  let payload: PushPayload | null = null;
  try {
    payload = (event.data?.json() as PushPayload | undefined) ?? null;
  } catch {
    payload = null;
  }
  if (!payload || typeof payload.title !== 'string') return;
  const { title, body, conversation_id, silent } = payload;
  event.waitUntil(
    (async () => {
      const pages = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      if (pages.some((p) => p.visibilityState === 'visible')) return;
      await self.registration.showNotification(title, {
        body,
        tag: `conversation-${conversation_id}`,
        icon: '/icons/icon-192.png',
        badge: '/icons/icon-192.png',
        silent: Boolean(silent),
        data: { url: conversationUrl(conversation_id) },
      });
    })(),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(
    (event.notification.data as { url?: string } | null)?.url ?? '/atendimento',
    self.location.origin,
  ).href;
  event.waitUntil(
    (async () => {
      const pages = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = pages.find((p) => new URL(p.url).origin === self.location.origin);
      if (open) {
        await open.focus();
        await open.navigate(url).catch(() => undefined);
        return;
      }
      await self.clients.openWindow(url);
    })(),
  );
});
