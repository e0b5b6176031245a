// Prints the offline figures (issue 7):
// 1. Offline warm start: Chromium with the service worker installed and the device cache filled by one online
//    visit goes offline; the time from navigation to the cached conversation list being visible on
//    /atendimento (the picture public/first-paint.js paints, or the app's list), and to the app's own list, against the time to load a static file (/manifest.webmanifest) served by the same service
//    worker's precache in the same run (median of 7 each, and their ratio).
// 2. Dexie write time for 10,000 messages, in Node with fake-indexeddb (the app's own cache code:
//    saveMessages), as one conversation and as 200 conversations of 50.
// The server serves the built app from dist/, so build first:  npx vite build && npm run bench:offline
import 'fake-indexeddb/auto';
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { saveMessages } from '@/app/offline/cache';
import { openOfflineDb } from '@/app/offline/db';
import type { Message } from '@/shared/contract/conversations';
import { labels } from '@/shared/messages';
import { startTestServer } from '../server/helpers';
import { launchChromium } from './browser';
import { customersWrite } from './customers';

const CONVERSATIONS = 30;
const RUNS = 7;
const ms = (n: number) => `${n.toFixed(1)} ms`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function offlineStart() {
  const t = await startTestServer({ LOG_LEVEL: 'error' });
  const browser = await launchChromium();
  try {
    await customersWrite(t, CONVERSATIONS, 7000_0000);
    const token = await t.login('atendente@demo.com');
    const context = await browser.newContext({ baseURL: t.url, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto('/login');
    await page.evaluate((tok) => localStorage.setItem('token', tok), token);
    await page.goto('/atendimento');
    const list = page.getByRole('list', { name: labels.common.conversations });
    const first = list.getByRole('listitem').first();
    await first.waitFor({ state: 'visible', timeout: 30_000 });
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller)
        await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r));
    });
    // The cache mirror writes in batches: give it a moment, then go offline.
    await page.waitForTimeout(1500);
    await context.setOffline(true);

    const appRun = async () => {
      const t0 = Date.now();
      await page.goto('/atendimento', { waitUntil: 'commit' });
      await first.waitFor({ state: 'visible', timeout: 30_000 });
      const ready = Date.now() - t0;
      // When a row's name was first painted on screen (Element Timing, the browser's own clock), whether by
      // the offline picture or by the app.
      const painted = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            new PerformanceObserver((list) => {
              const times = list
                .getEntries()
                .map((e) => (e as PerformanceEntry & { renderTime: number }).renderTime);
              resolve(performance.timeOrigin + Math.min(...times));
            }).observe({ type: 'element', buffered: true });
          }),
      );
      return { seen: painted - t0, ready };
    };
    const staticRun = async () => {
      const t0 = performance.now();
      const res = await page.goto('/manifest.webmanifest', { waitUntil: 'load' });
      if (!res?.fromServiceWorker()) throw new Error('the static file did not come from the service worker');
      return performance.now() - t0;
    };
    // Warm-up of both (the first offline start reads the caches from disk).
    await appRun();
    await staticRun();
    const app: number[] = [];
    const ready: number[] = [];
    const stat: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      stat.push(await staticRun());
      const run = await appRun();
      app.push(run.seen);
      ready.push(run.ready);
    }
    const items = await list.getByRole('listitem').count();
    await context.close();
    return { app: median(app), ready: median(ready), stat: median(stat), items };
  } finally {
    await browser.close();
    await t.close();
  }
}

function message(conversation: string, i: number, base: number): Message {
  return {
    _id: `M${String(i).padStart(27, '0')}`,
    conversation_id: conversation,
    message: `Mensagem ${i}: olá, tudo bem? Gostaria de saber do pedido.`,
    origin: i % 2 ? 'customer' : 'user',
    type: 'text',
    media_url: null,
    file_name: null,
    ptt: false,
    canonical_url: null,
    deleted: false,
    status: 2,
    failure: null,
    created: new Date(base + i * 1000).toISOString(),
    user: null,
    message_id: null,
    platform_message_id: null,
    event: null,
    reply_message: null,
    location: null,
  };
}

async function dexieWrite() {
  const base = Date.UTC(2026, 0, 1);
  const one = openOfflineDb('bench-one');
  const list = Array.from({ length: 10_000 }, (_, i) => message('C'.repeat(28), i, base));
  let t0 = performance.now();
  await saveMessages(one, list, 10_000);
  const oneMs = performance.now() - t0;
  const count = await one.messages.count();
  await one.delete();

  const many = openOfflineDb('bench-many');
  const spread = Array.from({ length: 10_000 }, (_, i) =>
    message(`C${String(i % 200).padStart(27, '0')}`, i, base),
  );
  t0 = performance.now();
  await saveMessages(many, spread);
  const manyMs = performance.now() - t0;
  const manyCount = await many.messages.count();
  await many.delete();
  return { oneMs, count, manyMs, manyCount };
}

if (!existsSync(path.resolve('dist', 'index.html')))
  throw new Error('dist/ missing: run npx vite build first');
console.log(`machine: ${availableParallelism()} cores, load average ${(loadavg()[0] ?? 0).toFixed(2)}`);
const start = await offlineStart();
console.log(
  `offline warm start (Chromium, service worker + Dexie, ${start.items} list rows rendered): ` +
    `navigation → cached list visible ${ms(start.app)} (median of ${RUNS}; the app's own list usable ${ms(start.ready)}); ` +
    `static /manifest.webmanifest from the same service worker ${ms(start.stat)}; ratio ${(start.app / start.stat).toFixed(1)}×`,
);
const write = await dexieWrite();
console.log(
  `Dexie write of 10,000 messages (Node + fake-indexeddb, saveMessages): one conversation ${ms(write.oneMs)} ` +
    `(${write.count} stored); 200 conversations × 50 ${ms(write.manyMs)} (${write.manyCount} stored)`,
);
process.exit(0);
