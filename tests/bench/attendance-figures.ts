// Prints the service screen's figures (issue 6): the real server in-process on a fresh PGlite data dir
// (PostgreSQL with DATABASE_URL) with 10,000 open conversations on one chip in Suporte and 5,000 messages in
// one of them; Chromium opens /atendimento at 1280×800 as the manager, clicks the big conversation, scrolls
// the list to its end (loading every page) and the message pane through its whole history, while a
// PerformanceObserver('longtask') records long tasks. Figures: DOM nodes (budget ≤ 1,400), the longest task
// while scrolling (budget ≤ 50 ms), click → last message visible, and the JS heap.
// The server serves the built app from dist/, so build first:  npx vite build && npm run bench:attendance
// BENCH_LIST_PAGES=n stops the list after n pages (default: every page).
// BENCH_TRACE=1 records a Chromium trace while scrolling the messages and prints what the long tasks spent
// their time on (tracing slows the page: use it to find a cause, not for the figures).
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Locator, Page } from 'playwright-core';
import { chips, contacts, conversations, messages, tags } from '@/server/db/schema';
import { OVERLAP_MS } from '@/server/domains/conversations/changes';
import { newId } from '@/shared/ids';
import { labels, messages as texts } from '@/shared/messages';
import { startTestServer, type TestServer } from '../server/helpers';
import { launchChromium } from './browser';

const CONVERSATIONS = 10_000;
const BIG_MESSAGES = 5_000;
const BATCH = 1_000;
const BIG_NAME = 'Conversa Grande';
const LAST_TEXT = `Mensagem ${BIG_MESSAGES} de ${BIG_MESSAGES}: a última`;
const FIRST_TEXT = `Mensagem 1 de ${BIG_MESSAGES}`;
const OLDEST_NAME = `Cliente ${String(CONVERSATIONS - 1).padStart(5, '0')}`;
const NODE_BUDGET = 1_400;
const TASK_BUDGET = 50;
const listPagesLimit = Number(process.env.BENCH_LIST_PAGES ?? Number.POSITIVE_INFINITY);

const ms = (n: number) => `${n.toFixed(0)} ms`;
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
const verdict = (ok: boolean) => (ok ? 'within budget' : 'OVER BUDGET');

/** Varied customer and team texts, some with WhatsApp formatting, so bubbles are not all one line. */
const sample = [
  'Olá! Gostaria de saber o prazo de entrega do meu pedido.',
  'Claro, vou verificar para você. Um momento, por favor.',
  '*Pedido 4521*: saiu para entrega hoje pela manhã, deve chegar até as 18h.',
  'Perfeito, obrigado! E se eu não estiver em casa?',
  'O entregador tenta de novo no próximo dia útil. Se preferir, posso _reagendar_ agora mesmo para um horário melhor, é só me dizer qual período fica bom para você (manhã, tarde ou noite).',
  'ok',
  'Pode ser à tarde, depois das 14h. Meu endereço continua o mesmo: Rua das Flores, 123, apto 45, Centro.',
  '~Cancelado~ Reagendado para amanhã à tarde. ```protocolo 20261121-4521```',
];

/** Contacts, conversations (each with one last message) and the big conversation's history, in batches. */
async function seedScreen(t: TestServer, accountId: string, supportId: string) {
  const db = t.server.services.db;
  const chipId = newId();
  await db.insert(chips).values({
    id: chipId,
    accountId,
    name: 'Loja Principal',
    status: 'open',
    provider: 'simulator',
    redirect: 'human',
    departmentId: supportId,
  });
  const tagIds = [newId(), newId(), newId(), newId(), newId()];
  await db.insert(tags).values(
    ['VIP', 'Entrega', 'Troca', 'Atacado', 'Reclamação'].map((name, i) => ({
      id: tagIds[i] as string,
      accountId,
      name,
      color: ['red', 'blue', 'green', 'grape', 'orange'][i] as string,
    })),
  );
  const now = Date.now();
  // Conversation i's last message is i minutes old: the big one (i = 0) is on top, distinct times.
  for (let start = 0; start < CONVERSATIONS; start += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, CONVERSATIONS - start) }, (_, k) => {
      const i = start + k;
      return {
        i,
        contactId: newId(),
        conversationId: newId(),
        messageId: newId(),
        at: new Date(now - i * 60_000),
      };
    });
    await db.insert(contacts).values(
      rows.map((r) => ({
        id: r.contactId,
        accountId,
        name: r.i === 0 ? BIG_NAME : `Cliente ${String(r.i).padStart(5, '0')}`,
        phone: `55119${String(r.i).padStart(8, '0')}`,
        channelContactId: `55119${String(r.i).padStart(8, '0')}`,
        tags: tagIds.slice(0, r.i % 6),
      })),
    );
    await db.insert(conversations).values(
      rows.map((r) => ({
        id: r.conversationId,
        accountId,
        chipId,
        contactId: r.contactId,
        departmentId: supportId,
        isManual: true,
        isNew: r.i % 7 === 0,
        waitingResponse: r.i % 3 === 0,
        lastMessageId: r.messageId,
        lastMessageAt: r.at,
        createdAt: new Date(r.at.getTime() - (r.i === 0 ? BIG_MESSAGES * 10_000 : 60_000)),
      })),
    );
    await db.insert(messages).values(
      rows.map((r) => ({
        id: r.messageId,
        accountId,
        conversationId: r.conversationId,
        chipId,
        origin: 'customer' as const,
        type: 'text' as const,
        message: r.i === 0 ? LAST_TEXT : (sample[r.i % sample.length] as string),
        status: 1,
        createdAt: r.at,
      })),
    );
    if (start === 0) {
      // The big conversation: 4,999 earlier messages, 10 s apart, both sides; the last one is above.
      const big = rows[0] as (typeof rows)[number];
      for (let from = 1; from < BIG_MESSAGES; from += BATCH) {
        const count = Math.min(BATCH, BIG_MESSAGES - from);
        await db.insert(messages).values(
          Array.from({ length: count }, (_, k) => {
            const n = from + k;
            const customer = n % 2 === 1;
            return {
              id: newId(),
              accountId,
              conversationId: big.conversationId,
              chipId,
              origin: customer ? ('customer' as const) : ('user' as const),
              type: 'text' as const,
              message: `Mensagem ${n} de ${BIG_MESSAGES}${n === 1 ? '' : `. ${sample[n % sample.length]}`}`,
              status: customer ? 1 : 4,
              createdAt: new Date(big.at.getTime() - (BIG_MESSAGES - n) * 10_000),
            };
          }),
        );
      }
    }
  }
}

/** Runs in the page before the app: long tasks, frame gaps per phase, and a watch for a text on screen. */
function instrument() {
  const w = window as unknown as BenchWindow;
  w.__bench = { phase: 'load', pages: 0, tasks: [], gaps: {}, clickAt: null, shownAt: null };
  new PerformanceObserver((list) => {
    const b = w.__bench;
    for (const e of list.getEntries()) b.tasks.push({ phase: b.phase, pages: b.pages, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  let last = performance.now();
  const frame = (now: number) => {
    const gap = now - last;
    last = now;
    const b = w.__bench;
    if (gap > (b.gaps[b.phase] ?? 0)) b.gaps[b.phase] = gap;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  // On screen: rendered, in the window, and inside every clipping ancestor (a scrolled-away item is not).
  w.__benchVisible = (text, exclude) => {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || !n.textContent?.includes(text)) continue;
      if (exclude && el.closest(exclude)) continue;
      if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
      const r = el.getBoundingClientRect();
      let shown = r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < innerHeight;
      for (let a = el.parentElement; a && shown; a = a.parentElement) {
        if (getComputedStyle(a).overflowY === 'visible') continue;
        const c = a.getBoundingClientRect();
        shown = r.bottom > c.top && r.top < c.bottom;
      }
      if (shown) return true;
    }
    return false;
  };
  // From the next click's event time to the first frame that shows `text`.
  w.__benchWatch = (text, exclude) => {
    w.__bench.clickAt = null;
    w.__bench.shownAt = null;
    document.addEventListener('click', (e) => (w.__bench.clickAt = e.timeStamp), {
      capture: true,
      once: true,
    });
    const check = () => {
      if (w.__bench.clickAt !== null && w.__benchVisible(text, exclude))
        w.__bench.shownAt = performance.now();
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  };
}

/** Long tasks and frame gaps are filed under the phase, with the pages loaded so far. */
const setPhase = (page: Page, phase: string, pages = 0) =>
  page.evaluate(
    ({ phase, pages }) => {
      const b = (window as unknown as BenchWindow).__bench;
      b.phase = phase;
      b.pages = pages;
    },
    { phase, pages },
  );

const nodeCount = (page: Page) => page.evaluate(() => document.getElementsByTagName('*').length);

const frames = (page: Page, n = 2) =>
  page.evaluate(
    (count) =>
      new Promise<void>((resolve) => {
        let left = count;
        const step = () => (--left <= 0 ? resolve() : requestAnimationFrame(step));
        requestAnimationFrame(step);
      }),
    n,
  );

/**
 * Marks the nearest scrollable ancestor of the element showing `text` (outside `exclude`) as `mark`: the
 * list or the message area, found as a user sees them rather than by the UI's class names.
 */
async function markScroller(page: Page, text: string, mark: string, exclude?: string) {
  const found = await page.evaluate(
    ({ text, mark, exclude }) => {
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (!n.textContent?.includes(text)) continue;
        if (exclude && n.parentElement?.closest(exclude)) continue;
        for (let el = n.parentElement; el; el = el.parentElement) {
          const style = getComputedStyle(el);
          if (/(auto|scroll)/.test(style.overflowY) && el.scrollHeight > el.clientHeight) {
            el.setAttribute('data-bench', mark);
            return true;
          }
        }
      }
      return false;
    },
    { text, mark, exclude },
  );
  if (!found) throw new Error(`no scrollable area holds "${text}"`);
  return page.locator(`[data-bench="${mark}"]`);
}

type BenchWindow = {
  __bench: {
    phase: string;
    pages: number;
    tasks: { phase: string; pages: number; duration: number }[];
    gaps: Record<string, number>;
    clickAt: number | null;
    shownAt: number | null;
  };
  __benchVisible(text: string, exclude?: string): boolean;
  __benchWatch(text: string, exclude?: string): void;
};

/** True when an element showing `text` (outside `exclude`) is on screen. */
const textVisible = (page: Page, text: string, exclude?: string) =>
  page.evaluate(({ text, exclude }) => (window as unknown as BenchWindow).__benchVisible(text, exclude), {
    text,
    exclude,
  });

async function waitFor(check: () => Promise<boolean>, ms: number, what: string) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Scrolls the area marked `name` toward `direction` with the mouse wheel until `done()`; a 'Carregar mais'
 * button that comes into view is clicked and its page awaited. Long tasks go under `<name>:wheel` or
 * `<name>:load`. Answers the pages loaded and the largest DOM seen. Everything read in the page is one cheap
 * evaluate: Playwright's role locators compute accessible names in the page's main thread, and their cost
 * would be counted as the app's long tasks.
 */
async function scrollThrough(
  page: Page,
  name: string,
  loadMoreName: string,
  direction: 'down' | 'up',
  done: () => Promise<boolean>,
  maxPages = Number.POSITIVE_INFINITY,
) {
  const state = () =>
    page.evaluate(
      ({ name, loadMoreName }) => {
        const el = document.querySelector(`[data-bench="${name}"]`);
        if (!el) throw new Error(`the ${name} area is gone`);
        const a = el.getBoundingClientRect();
        let button: { x: number; y: number } | null = null;
        for (const b of el.querySelectorAll('button')) {
          if (b.textContent?.trim() !== loadMoreName || b.disabled) continue;
          const r = b.getBoundingClientRect();
          // In view, as a person would see it before clicking.
          if (r.height > 0 && r.top >= a.top && r.bottom <= a.bottom)
            button = { x: r.left + r.width / 2, y: r.top + r.height / 2 };
        }
        return {
          top: el.scrollTop,
          height: el.scrollHeight,
          client: el.clientHeight,
          button,
          nodes: document.getElementsByTagName('*').length,
          box: { x: a.left + a.width / 2, y: a.top + a.height / 2 },
        };
      },
      { name, loadMoreName },
    );
  let before = await state();
  await page.mouse.move(before.box.x, before.box.y);
  let pages = 0;
  let maxNodes = before.nodes;
  let still = 0;
  for (;;) {
    if (await done()) break;
    if (before.button && pages < maxPages) {
      await setPhase(page, `${name}:load`, pages);
      await page.mouse.click(before.button.x, before.button.y);
      pages++;
      // The page is in when the content grew (or the end came into view).
      const height = before.height;
      await waitFor(async () => (await state()).height !== height || (await done()), 30_000, 'the next page');
      await frames(page);
      await page.mouse.move(before.box.x, before.box.y);
      still = 0;
    } else {
      await setPhase(page, `${name}:wheel`, pages);
      await page.mouse.wheel(0, direction === 'down' ? 700 : -700);
      await frames(page);
      const after = await state();
      const atEnd = direction === 'down' ? after.top + after.client >= after.height - 1 : after.top <= 0;
      // At the end with nothing to load: an infinite scroll may still be fetching; give it a moment.
      const canLoad = after.button !== null && pages < maxPages;
      if (after.top === before.top && after.height === before.height && atEnd && !canLoad) {
        if (++still > 50 || pages >= maxPages) break;
        await new Promise((r) => setTimeout(r, 100));
      } else still = 0;
    }
    before = await state();
    maxNodes = Math.max(maxNodes, before.nodes);
  }
  return { pages, maxNodes };
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
}

/** Starts a Chromium trace (timeline + V8 GC); the answer stops it and gives the events. */
async function startTrace(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown as TraceEvent[])));
  await cdp.send('Tracing.start', {
    categories:
      'toplevel,devtools.timeline,v8.execute,disabled-by-default-devtools.timeline,disabled-by-default-v8.gc,blink',
    transferMode: 'ReportEvents',
  });
  const profiling = process.env.BENCH_TRACE === 'profile';
  if (profiling) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 250 });
    await cdp.send('Profiler.start');
  }
  return async () => {
    if (profiling) printHotFunctions((await cdp.send('Profiler.stop')).profile);
    const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
    await cdp.send('Tracing.end');
    await done;
    return events;
  };
}

/** The JS functions with the most self time in a CPU profile. */
function printHotFunctions(profile: {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples?: number[];
  timeDeltas?: number[];
}) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const f = byId.get(samples[i] as number)?.callFrame;
    if (!f) continue;
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + (deltas[i + 1] ?? 0));
  }
  console.log('Profile, self time:');
  for (const [k, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(`  ${(us / 1000).toFixed(0)} ms ${k}`);
}

/** Each task over 50 ms on a thread, with the time of the named events inside it, largest first. */
function printLongTasks(events: TraceEvent[]) {
  const complete = events.filter((e) => e.ph === 'X' && e.dur !== undefined);
  const main = events.find(
    (e) =>
      e.ph === 'M' &&
      e.name === 'thread_name' &&
      (e as { args?: { name?: string } }).args?.name === 'CrRendererMain',
  );
  const all = complete.filter(
    (e) => e.name === 'ThreadControllerImpl::RunTask' && e.tid === main?.tid && e.pid === main?.pid,
  );
  const over = (limit: number) => all.filter((e) => (e.dur ?? 0) > limit * 1000).length;
  console.log(
    `Trace, main-thread tasks: ${all.length}; over 10 ms ${over(10)}, over 20 ms ${over(20)}, over 30 ms ${over(30)}, over 50 ms ${over(50)}`,
  );
  const tasks = all.filter((e) => (e.dur ?? 0) > 30_000);
  for (const task of tasks.sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0)).slice(0, 8)) {
    const end = task.ts + (task.dur ?? 0);
    const inside = new Map<string, number>();
    for (const e of complete)
      if (e.tid === task.tid && e.pid === task.pid && e !== task && e.ts >= task.ts && e.ts < end)
        inside.set(e.name, (inside.get(e.name) ?? 0) + (e.dur ?? 0));
    const top = [...inside]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 10)
      .map(([n, d]) => `${n} ${(d / 1000).toFixed(1)}`)
      .join(', ');
    console.log(`  ${((task.dur ?? 0) / 1000).toFixed(1)} ms: ${top}`);
  }
}

async function main() {
  if (!existsSync(path.resolve('dist', 'index.html')))
    throw new Error('dist/ missing: run npx vite build first');
  const loadAtStart = loadavg()[0] ?? 0;
  const t = await startTestServer({ LOG_LEVEL: 'error' });
  const browser = await launchChromium([
    // performance.memory in exact bytes rather than rounded buckets.
    '--enable-precise-memory-info',
  ]);
  try {
    const seed = await t.reset();
    let t0 = performance.now();
    await seedScreen(t, seed.accountId, seed.departments.support);
    const seedMs = performance.now() - t0;
    // A seed this fresh is a change to every catch-up (its cursor steps back OVERLAP_MS): the app's first
    // catch-ups would page through all 15,000 rows while the screen opens. An attendant's day has no such burst.
    const seeded = performance.now();

    const token = await t.login('gerente@demo.com');
    // The server's share: one list page (the first, and one 5,000 conversations down) and 25 messages.
    const median5 = async (run: () => Promise<unknown>) => {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const start = performance.now();
        await run();
        times.push(performance.now() - start);
      }
      return times.sort((a, b) => a - b)[2] as number;
    };
    const first = await t.call('get-conversations-with-last-message', {}, token);
    const bigId = first.conversations[0]?._id;
    const deep = await t.call('get-conversations-with-last-message', { limit: 100 }, token);
    let cursor = deep.conversations.at(-1);
    for (let i = 0; i < 49 && cursor; i++) {
      const page = await t.call(
        'get-conversations-with-last-message',
        {
          limit: 100,
          after: { last_message_at: cursor.last_message?.created ?? cursor.created, _id: cursor._id },
        },
        token,
      );
      cursor = page.conversations.at(-1);
    }
    const after = cursor && {
      last_message_at: cursor.last_message?.created ?? cursor.created,
      _id: cursor._id,
    };
    const firstPageMs = await median5(() => t.call('get-conversations-with-last-message', {}, token));
    const deepPageMs = await median5(() => t.call('get-conversations-with-last-message', { after }, token));
    const messagesPageMs = await median5(() =>
      t.call('get-messages-by-conversation', { conversation_id: bigId, limit: 25 }, token),
    );

    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      locale: 'pt-BR',
      timezoneId: 'America/Sao_Paulo',
      serviceWorkers: 'block',
    });
    const page = await context.newPage();
    await new Promise((r) => setTimeout(r, Math.max(0, OVERLAP_MS + 1000 - (performance.now() - seeded))));
    // tsx (esbuild keepNames) wraps named functions in __name(): the page needs it too.
    await page.addInitScript({ content: 'globalThis.__name = (fn) => fn;' });
    await page.addInitScript(instrument);
    // The catch-ups the app runs meanwhile (at start, at the socket's connect): when, from the page's opening.
    const catchUps: number[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/get-changes-since')) catchUps.push(Math.round(performance.now() - t0));
    });
    // Signed in as the app signs in: the token in localStorage (tests/e2e/fixtures.ts signIn).
    await page.goto(`${t.url}/`);
    await page.evaluate((tk) => localStorage.setItem('token', tk), token);
    t0 = performance.now();
    await page.goto(`${t.url}/atendimento`);
    const list = page.getByRole('list', { name: labels.common.conversations });
    await list.getByRole('listitem').first().waitFor({ timeout: 30_000 });
    const listShownMs = performance.now() - t0;
    const itemsInDom = await list.getByRole('listitem').count();
    const nodesList = await nodeCount(page);
    await markScroller(page, BIG_NAME, 'list');
    const outsideList = '[data-bench="list"]';

    // Click → the last message on screen, timed in the page from the click's dispatch.
    await setPhase(page, 'open');
    const big = await page.evaluate((name) => {
      for (const b of document.querySelectorAll('[data-bench="list"] button'))
        if (b.textContent?.includes(name)) {
          const r = b.getBoundingClientRect();
          return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
        }
      return null;
    }, BIG_NAME);
    if (!big) throw new Error(`no list item for ${BIG_NAME}`);
    await page.evaluate(
      ({ text, exclude }) => (window as unknown as BenchWindow).__benchWatch(text, exclude),
      { text: LAST_TEXT, exclude: outsideList },
    );
    await page.mouse.click(big.x, big.y);
    let openMs: number | null = null;
    try {
      await waitFor(
        () => page.evaluate(() => (window as unknown as BenchWindow).__bench.shownAt !== null),
        30_000,
        'the last message',
      );
      openMs = await page.evaluate(() => {
        const b = (window as unknown as BenchWindow).__bench;
        return (b.shownAt as number) - (b.clickAt as number);
      });
    } catch {
      console.warn('The open conversation never showed its last message: the message pane is skipped.');
    }
    await frames(page, 5);
    const nodesOpen = await nodeCount(page);

    // The list, to its end.
    t0 = performance.now();
    const listScroll = await scrollThrough(
      page,
      'list',
      texts.listLoadMore,
      'down',
      () => textVisible(page, OLDEST_NAME),
      listPagesLimit,
    );
    const listScrollMs = performance.now() - t0;
    await setPhase(page, 'between');
    const listReachedEnd = await textVisible(page, OLDEST_NAME);
    const listItems = await list.getByRole('listitem').count();
    const nodesPerItem = await list
      .getByRole('listitem')
      .first()
      .evaluate((li) => li.getElementsByTagName('*').length + 1);

    // The message pane, up through its history.
    t0 = performance.now();
    let messageScroll = { pages: 0, maxNodes: 0 };
    let messageArea: Locator | null = null;
    if (openMs !== null) {
      messageArea = await markScroller(page, LAST_TEXT, 'messages', outsideList);
      const trace = process.env.BENCH_TRACE ? await startTrace(page) : null;
      messageScroll = await scrollThrough(page, 'messages', texts.listLoadMore, 'up', () =>
        textVisible(page, FIRST_TEXT),
      );
      if (trace) printLongTasks(await trace());
    }
    const messageScrollMs = performance.now() - t0;
    await setPhase(page, 'end');
    const messagesReachedStart = await textVisible(page, FIRST_TEXT);
    // Messages in the DOM (each seeded text starts 'Mensagem N de'), and the nodes per message.
    const messagesInDom = messageArea
      ? await messageArea.evaluate((el) => {
          const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
          let n = 0;
          for (let t = walker.nextNode(); t; t = walker.nextNode())
            if (/^Mensagem \d+ de/.test(t.textContent ?? '')) n++;
          return { messages: n, nodes: el.getElementsByTagName('*').length };
        })
      : { messages: 0, nodes: 0 };
    await setPhase(page, 'end');
    await frames(page, 5);
    const nodesEnd = await nodeCount(page);

    const bench = await page.evaluate(() => (window as unknown as BenchWindow).__bench);
    const heap = () =>
      page.evaluate(
        () => (performance as unknown as { memory: { usedJSHeapSize: number } }).memory.usedJSHeapSize,
      );
    const heapBefore = await heap();
    const cdp = await context.newCDPSession(page);
    await cdp.send('HeapProfiler.collectGarbage');
    const heapAfter = await heap();

    type Task = (typeof bench.tasks)[number];
    const longestOf = (tasks: Task[]) => Math.max(0, ...tasks.map((x) => x.duration));
    const inPhase = (phase: string) => bench.tasks.filter((x) => x.phase === phase);
    const taskLine = (tasks: Task[]) => {
      const l = longestOf(tasks);
      return l ? `${ms(l)} (${tasks.length} over 50 ms)` : 'none over 50 ms';
    };
    /** Long tasks by where the scroll was: the first pages against the last ones show growth with the data. */
    const growth = (name: string, pages: number) => {
      if (pages < 40) return '';
      const load = inPhase(`${name}:load`);
      return `; loading pages 1–20 ${taskLine(load.filter((x) => x.pages < 20))}, pages ${pages - 19}–${pages} ${taskLine(load.filter((x) => x.pages >= pages - 20))}`;
    };
    const maxNodes = Math.max(nodesList, nodesOpen, nodesEnd, listScroll.maxNodes, messageScroll.maxNodes);
    const scrollTasks = bench.tasks.filter((x) => /^(list|messages):/.test(x.phase));
    const scrollLongest = longestOf(scrollTasks);

    console.log(`Database: ${t.server.database.kind}`);
    // Long tasks are wall-clock: other work on the machine lengthens them.
    console.log(
      `Machine: ${availableParallelism()} cores, load average ${loadAtStart.toFixed(1)} at the start, ${(loadavg()[0] ?? 0).toFixed(1)} at the end`,
    );
    console.log(
      `Seed: ${CONVERSATIONS.toLocaleString('en')} conversations (contacts, one last message each) + ${BIG_MESSAGES.toLocaleString('en')} messages in one: ${ms(seedMs)}`,
    );
    console.log(
      `Server (median of 5): first list page ${ms(firstPageMs)}, a page 5,000 conversations down ${ms(deepPageMs)}, last 25 messages ${ms(messagesPageMs)}`,
    );
    console.log(`/atendimento → first list item: ${ms(listShownMs)} (${itemsInDom} items in the DOM)`);
    console.log(
      `DOM nodes: list ${nodesList}, with the conversation open ${nodesOpen}, after scrolling both ${nodesEnd}; largest seen ${maxNodes} (budget ≤ ${NODE_BUDGET}: ${verdict(maxNodes <= NODE_BUDGET)})`,
    );
    console.log(
      `  list: ${listItems} items in the DOM at the end, ${nodesPerItem} nodes per item; messages: ${messagesInDom.messages} in the DOM, ${messagesInDom.nodes} nodes in the message area${messagesInDom.messages ? ` (${(messagesInDom.nodes / messagesInDom.messages).toFixed(0)} per message)` : ''}`,
    );
    console.log(
      `Click on the conversation → its last message visible: ${openMs === null ? 'NEVER (no message pane)' : ms(openMs)}; long tasks while opening: ${taskLine(inPhase('open'))}`,
    );
    console.log(
      `List: ${listScroll.pages} pages loaded with '${texts.listLoadMore}', end ${listReachedEnd ? 'reached' : 'NOT reached'} in ${(listScrollMs / 1000).toFixed(1)} s; longest task while wheel-scrolling ${taskLine(inPhase('list:wheel'))}, while loading a page ${taskLine(inPhase('list:load'))}${growth('list', listScroll.pages)}; longest frame gap ${ms(Math.max(bench.gaps['list:wheel'] ?? 0, bench.gaps['list:load'] ?? 0))}`,
    );
    console.log(
      `Messages: ${messageScroll.pages} pages loaded, first message ${messagesReachedStart ? 'reached' : 'NOT reached'} in ${(messageScrollMs / 1000).toFixed(1)} s; longest task while wheel-scrolling ${taskLine(inPhase('messages:wheel'))}, while loading a page ${taskLine(inPhase('messages:load'))}${growth('messages', messageScroll.pages)}; longest frame gap ${ms(Math.max(bench.gaps['messages:wheel'] ?? 0, bench.gaps['messages:load'] ?? 0))}`,
    );
    console.log(
      `Longest task while scrolling: ${scrollLongest ? ms(scrollLongest) : 'none over 50 ms'} (budget ≤ ${TASK_BUDGET} ms: ${verdict(scrollLongest <= TASK_BUDGET)})`,
    );
    console.log(
      `JS heap (performance.memory.usedJSHeapSize): ${mb(heapBefore)}, after a GC ${mb(heapAfter)}`,
    );
    console.log(
      `Catch-up calls (get-changes-since): ${catchUps.length}, at ${catchUps.slice(0, 12).join(', ')}${catchUps.length > 12 ? ', …' : ''} ms after opening /atendimento`,
    );
    await context.close();
  } finally {
    await browser.close();
    await t.close();
  }
}

await main();
process.exit(0);
