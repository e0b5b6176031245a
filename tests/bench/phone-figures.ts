// Prints the attendant's phone figures (issue 37): the built app in Debian's Chromium at 360×640 under a
// mid-range phone on mobile data, as Lighthouse's mobile emulation has it: the page's CPU slowed 4×, and a
// 150 ms round trip with 1.6 Mbps down and 750 kbps up. The network is a throttling TCP relay between the
// browser and the server, so every request pays it (the page's, the service worker's, the socket's), which
// DevTools' per-page throttling does not do for a service worker's fetches.
// With 60 customers' conversations on a simulator chip in the attendant's department, each run (3, medians):
// - cold: a fresh browser on /login, the form submitted → the real conversation list shows a customer;
// - warm: the installed app reopened (service worker and caches warm) → the real list;
// - offline: reopened with no network → the saved first picture of the list; → the real list.
// Beside them, the ceiling of each in the same run: a static file (/manifest.webmanifest) opened through the
// same relay by the fresh browser (cold), and the same file fetched from the service worker (warm, offline).
// Builds dist/ first unless it already is the build of today's sources.  Run: npm run bench:phone
import net from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { BrowserContext, Page } from 'playwright-core';
import { DEMO_PASSWORD } from '@/server/seed/demo';
import { labels } from '@/shared/messages';
import { ensureBuilt } from '../build.mjs';
import { startTestServer } from '../server/helpers';
import { launchChromium } from './browser';
import { customersWrite } from './customers';

const CUSTOMERS = 60;
const RUNS = Number(process.env.PHONE_RUNS ?? 3);
const RTT_MS = 150;
const DOWN_BPS = 1_600_000;
const UP_BPS = 750_000;
const CPU_SLOWDOWN = 4;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/**
 * A TCP relay to `port` that delays each direction by half the round trip and paces it to its bandwidth (one
 * link per direction, shared by all connections, as a phone's radio is).
 */
function throttledRelay(port: number): Promise<{ port: number; close: () => void }> {
  const linkFree = { up: 0, down: 0 };
  const forward = (from: net.Socket, to: net.Socket, way: 'up' | 'down', bps: number) => {
    let lastAt = 0;
    let pending = 0;
    let ended = false;
    from.on('data', (chunk: Buffer) => {
      const now = performance.now();
      linkFree[way] = Math.max(linkFree[way], now) + ((chunk.length * 8) / bps) * 1000;
      const at = Math.max(linkFree[way] + RTT_MS / 2, lastAt);
      lastAt = at;
      pending++;
      setTimeout(
        () => {
          if (!to.destroyed) to.write(chunk);
          if (--pending === 0 && ended) to.end();
        },
        Math.max(0, at - now),
      );
    });
    from.on('end', () => {
      ended = true;
      if (pending === 0) to.end();
    });
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(port, '127.0.0.1');
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop);
    upstream.on('error', drop);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    forward(client, upstream, 'up', UP_BPS);
    forward(upstream, client, 'down', DOWN_BPS);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as net.AddressInfo).port,
        close: () => server.close(),
      }),
    ),
  );
}

/** A page with the phone's CPU (and, offline, no network as the page itself sees it: navigator.onLine). */
async function phonePage(context: BrowserContext, offline = false) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  // context.setOffline alone left a page opened after it with navigator.onLine true.
  if (offline)
    await cdp.send('Network.emulateNetworkConditions', {
      offline: true,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
  return page;
}

/** The app's own list (not the offline picture, which is outside #root) showing a customer. */
const realList = (page: Page) =>
  page
    .locator('#root')
    .getByRole('list', { name: labels.common.conversations })
    .getByRole('listitem')
    .filter({ hasText: 'Cliente' })
    .first();

/** A static file's fetch from the page, and whether the service worker answered it. */
const staticFetch = (page: Page) =>
  page.evaluate(async () => {
    const t0 = performance.now();
    const res = await fetch('/manifest.webmanifest', { cache: 'no-store' });
    await res.text();
    return performance.now() - t0;
  });

/** PHONE_PROFILE=1: where the first warm reopen's time went, by script (self time) and by request. */
async function printProfile(
  page: Page,
  profile: {
    nodes: { id: number; callFrame: { url: string; functionName: string } }[];
    samples?: number[];
    timeDeltas?: number[];
  },
) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const perUrl = new Map<string, number>();
  const perFn = new Map<string, number>();
  (profile.samples ?? []).forEach((id, i) => {
    const frame = byId.get(id)?.callFrame;
    const ms = (profile.timeDeltas?.[i] ?? 0) / 1000;
    const url = frame?.url.replace(/^https?:\/\/[^/]+/, '') || `(${frame?.functionName || 'native'})`;
    perUrl.set(url, (perUrl.get(url) ?? 0) + ms);
    const fn = `${frame?.functionName || '(anonymous)'} ${url}`;
    perFn.set(fn, (perFn.get(fn) ?? 0) + ms);
  });
  const top = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `  ${v.toFixed(0).padStart(6)} ms  ${k}`);
  console.log(
    'warm reopen, main thread by script (self time, 4× CPU):',
    ...top(perUrl, 12).map((l) => `\n${l}`),
  );
  console.log('by function:', ...top(perFn, 15).map((l) => `\n${l}`));
  const timings = await page.evaluate(() =>
    performance.getEntriesByType('resource').map((e) => {
      const r = e as PerformanceResourceTiming;
      return `${r.startTime.toFixed(0).padStart(6)} → ${r.responseEnd.toFixed(0).padStart(6)} ms  ${r.name.replace(location.origin, '')} ${(r as { deliveryType?: string }).deliveryType ?? ''}`;
    }),
  );
  console.log('requests (start → end, from navigation):', ...timings.map((l) => `\n  ${l}`));
  const moments = await page.evaluate(() => (window as unknown as { moments?: string[] }).moments ?? []);
  console.log('moments (from navigation):', ...moments.map((l) => `\n  ${l}`));
}

/**
 * In the page: when #root first shows something, and the list its first customer (PHONE_PROFILE). A string,
 * not a function: tsx would wrap a function's inner functions in a helper the page does not have.
 */
const markMoments = `(() => {
  const moments = (window.moments = []);
  const seen = new Set();
  const mark = (what) => {
    if (seen.has(what)) return;
    seen.add(what);
    moments.push(performance.now().toFixed(0).padStart(6) + ' ms  ' + what);
  };
  new MutationObserver(() => {
    const root = document.getElementById('root');
    if (root?.childElementCount) mark('#root shows something');
    if (root?.querySelector('[aria-busy="true"], .mantine-Skeleton-root')) mark('#root shows a skeleton');
    if (root?.textContent?.includes('Cliente')) mark('#root shows a customer');
  }).observe(document, { childList: true, subtree: true, characterData: true });
})()`;

async function main() {
  ensureBuilt({ quiet: true });
  const t = await startTestServer({ LOG_LEVEL: 'error' });
  const relay = await throttledRelay(Number(new URL(t.url).port));
  const browser = await launchChromium();
  try {
    await customersWrite(t, CUSTOMERS, 7100_0000);
    const baseURL = `http://127.0.0.1:${relay.port}`;
    const rows = {
      cold: [],
      coldCeiling: [],
      warm: [],
      warmCeiling: [],
      picture: [],
      offline: [],
      offlineCeiling: [],
    } as Record<string, number[]>;
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext({
        baseURL,
        viewport: { width: 360, height: 640 },
        deviceScaleFactor: 2,
        isMobile: true,
        hasTouch: true,
        locale: 'pt-BR',
        timezoneId: 'America/Sao_Paulo',
      });
      // Cold: a browser that never saw the app.
      let page = await phonePage(context);
      // Its ceiling: a static file through the same network, before the service worker fills the link.
      let t0 = performance.now();
      await page.goto('/manifest.webmanifest');
      rows.coldCeiling?.push(performance.now() - t0);
      await page.goto('/login');
      await page.getByLabel('E-mail').fill('atendente@demo.com');
      await page.getByLabel('Senha', { exact: true }).fill(DEMO_PASSWORD);
      t0 = performance.now();
      await page.getByRole('button', { name: 'Entrar' }).click();
      await realList(page).waitFor({ state: 'visible', timeout: 60_000 });
      rows.cold?.push(performance.now() - t0);
      // The service worker takes over and the device's copy is written; leaving the page saves the picture.
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready;
        if (!navigator.serviceWorker.controller)
          await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r));
      });
      await page.waitForTimeout(3000);
      await page.goto('about:blank');
      await page.close();

      // Warm: the installed app opened again.
      page = await phonePage(context);
      const profiler = process.env.PHONE_PROFILE && run === 0 ? await context.newCDPSession(page) : null;
      if (profiler) {
        await page.addInitScript(markMoments);
        await profiler.send('Profiler.enable');
        await profiler.send('Profiler.setSamplingInterval', { interval: 200 });
        await profiler.send('Profiler.start');
      }
      t0 = performance.now();
      await page.goto('/atendimento', { waitUntil: 'commit' });
      await realList(page).waitFor({ state: 'visible', timeout: 60_000 });
      rows.warm?.push(performance.now() - t0);
      if (profiler) await printProfile(page, (await profiler.send('Profiler.stop')).profile);
      rows.warmCeiling?.push(await staticFetch(page));
      await page.waitForTimeout(2000);
      await page.goto('about:blank');
      await page.close();

      // Offline: opened again with no network. When the picture is painted is recorded by the page itself
      // (it is there from the document's parse until the app's list takes its place).
      await context.setOffline(true);
      page = await phonePage(context, true);
      await page.addInitScript(() => {
        const w = window as unknown as { pictureAt?: number };
        new MutationObserver(() => {
          if (document.getElementById('first-paint'))
            w.pictureAt ??= performance.timeOrigin + performance.now();
        }).observe(document, { childList: true, subtree: true });
      });
      const wall = Date.now();
      await page.goto('/atendimento', { waitUntil: 'commit' });
      await realList(page).waitFor({ state: 'visible', timeout: 60_000 });
      rows.offline?.push(Date.now() - wall);
      const pictureAt = await page.evaluate(() => (window as unknown as { pictureAt?: number }).pictureAt);
      rows.picture?.push(pictureAt ? pictureAt - wall : Number.NaN);
      rows.offlineCeiling?.push(await staticFetch(page));
      await context.close();
      console.log(
        `run ${run + 1}: cold ${s(rows.cold?.at(-1) ?? 0)}, warm ${s(rows.warm?.at(-1) ?? 0)}, offline picture ${s(rows.picture?.at(-1) ?? 0)}, offline list ${s(rows.offline?.at(-1) ?? 0)}`,
      );
    }
    const line = (what: string, key: string, ceiling: string) => {
      const xs = rows[key] ?? [];
      const c = median(rows[ceiling] ?? []);
      console.log(
        `${what.padEnd(44)} ${s(median(xs))} (${s(Math.min(...xs))}–${s(Math.max(...xs))}); ceiling ${Math.round(c)} ms, ${(median(xs) / c).toFixed(1)}×`,
      );
    };
    console.log(
      `\nmachine: ${availableParallelism()} cores, load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}; ${CUSTOMERS} conversations; CPU ${CPU_SLOWDOWN}× slower, ${RTT_MS} ms round trip, ` +
        `${DOWN_BPS / 1e6} Mbps down / ${UP_BPS / 1e3} kbps up; ${RUNS} runs, medians (range)`,
    );
    line('cold sign-in → real list', 'cold', 'coldCeiling');
    line('warm reopen → real list', 'warm', 'warmCeiling');
    line('offline reopen → first picture', 'picture', 'offlineCeiling');
    line('offline reopen → real list', 'offline', 'offlineCeiling');
  } finally {
    await browser.close();
    relay.close();
    await t.close();
  }
}

void main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
