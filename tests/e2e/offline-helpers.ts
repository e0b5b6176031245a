// What the offline files share beyond ./app: a conversation's messages, the service worker's readiness and
// the device's tables.
import type { BrowserContext, Page } from '@playwright/test';
import type { Message } from '@/shared/contract/conversations';

type Caller = { url: string; call<T>(call: string, body?: unknown, token?: string): Promise<T> };

/** Every message of a conversation, oldest first (pages of 100 back from now). */
export async function allMessages(server: Caller, token: string, conversationId: string) {
  const all: Message[] = [];
  let before: string | undefined;
  for (;;) {
    const page = await server.call<Message[]>(
      'get-messages-by-conversation',
      { conversation_id: conversationId, limit: 100, before },
      token,
    );
    const known = new Set(all.map((m) => m._id));
    const fresh = page.filter((m) => !known.has(m._id));
    all.unshift(...fresh);
    if (page.length < 100 || fresh.length === 0) return all;
    before = new Date(Date.parse(page[0]?.created as string) + 1).toISOString();
  }
}

/** Waits until the service worker is active and controls the page (the precache is then complete). */
export async function serviceWorkerReady(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve));
    }
  });
}

/** Rows of the device's Dexie table (read in the page). */
export const deviceCount = (page: Page, table: string) =>
  page.evaluate(
    (t) =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('painel-offline');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains(t)) {
            db.close();
            resolve(0);
            return;
          }
          const req = db.transaction(t).objectStore(t).count();
          req.onsuccess = () => {
            db.close();
            resolve(req.result);
          };
          req.onerror = () => reject(req.error);
        };
      }),
    table,
  );

/** The keys of a Dexie table, or a meta entry's value (read in the page). */
export const deviceKeys = (page: Page, table: string) =>
  page.evaluate(
    (t) =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open('painel-offline');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const req = db.transaction(t).objectStore(t).getAllKeys();
          req.onsuccess = () => {
            db.close();
            resolve(req.result.map(String));
          };
          req.onerror = () => reject(req.error);
        };
      }),
    table,
  );

/** Moves every outbox entry's typing time `ms` back, as if the attendant had typed it that long ago. */
export const ageOutbox = (page: Page, ms: number) =>
  page.evaluate(
    (back) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('painel-offline');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction('outbox', 'readwrite');
          const store = tx.objectStore('outbox');
          const all = store.getAll();
          all.onsuccess = () => {
            for (const e of all.result as { created: string }[])
              store.put({ ...e, created: new Date(Date.parse(e.created) - back).toISOString() });
          };
          tx.oncomplete = () => {
            db.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    ms,
  );

/** A DevTools session on `page` with the app's service worker registration, to deliver it push and sync events. */
export async function serviceWorkerDevTools(context: BrowserContext, page: Page, origin: string) {
  const cdp = await context.newCDPSession(page);
  const registrations = new Promise<{ registrationId: string; scopeURL: string }[]>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => {
      if (e.registrations.some((r) => r.scopeURL.startsWith(origin))) resolve(e.registrations);
    });
  });
  await cdp.send('ServiceWorker.enable');
  const registration = (await registrations).find((r) => r.scopeURL.startsWith(origin));
  if (!registration) throw new Error('no service worker registration');
  return { cdp, registrationId: registration.registrationId };
}
