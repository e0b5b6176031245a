// Prints the flow editor's figures (issue 16): a 300-node flow in Chromium at 1280×800:
// 1. time to open the editor: navigation to /flows/:id → every node drawn (median of 5 loads);
// 2. the longest task (PerformanceObserver 'longtask', which reports tasks over 50 ms) and the longest frame
//    (requestAnimationFrame gaps) while dragging a node and while panning the canvas. Budget: 50 ms.
// The server serves the built app from dist/, so build first:  npx vite build && npm run bench:editor
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { FlowConnection } from '@/shared/contract/flows';
import { startTestServer } from '../server/helpers';
import { launchChromium } from './browser';

const NODES = 300;
const RUNS = 5;
const BUDGET_MS = 50;
const ms = (n: number) => `${n.toFixed(1)} ms`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** 'Início' and 299 messages in a 20-column grid, each linked to the next: a valid flow of 300 nodes. */
function bigFlow() {
  const nodes = [{ id: 'start', type: 'start', position: { x: 0, y: 0 }, data: {} }];
  const connections: FlowConnection[] = [];
  for (let i = 1; i < NODES; i++) {
    nodes.push({
      id: `m${i}`,
      type: 'message',
      position: { x: (i % 20) * 320, y: Math.floor(i / 20) * 200 },
      data: { kind: 'text', text: `Mensagem ${i}: olá {nome:first}, tudo bem?`, typing_seconds: 0 } as never,
    });
    connections.push({
      id: `e${i}`,
      source: i === 1 ? 'start' : `m${i - 1}`,
      sourceHandle: 'next',
      target: `m${i}`,
    });
  }
  return { nodes, connections };
}

/** Collects long tasks and frame gaps from now until `stop()`. */
async function watch(page: Page) {
  // A string, not a function: tsx's helpers (__name) do not exist in the page.
  await page.evaluate(`(() => {
    const bench = { tasks: [], frames: [], on: true };
    window.__bench = bench;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) bench.tasks.push(e.duration);
    }).observe({ type: 'longtask' });
    let last = performance.now();
    const tick = (t) => {
      bench.frames.push(t - last);
      last = t;
      if (bench.on) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })()`);
  return async () => {
    await page.waitForTimeout(300);
    return page.evaluate<{ longestTask: number; tasks: number; longestFrame: number }>(`(() => {
      const bench = window.__bench;
      bench.on = false;
      return {
        longestTask: Math.max(0, ...bench.tasks),
        tasks: bench.tasks.length,
        longestFrame: Math.max(0, ...bench.frames.slice(1)),
      };
    })()`);
  };
}

async function dragFrom(page: Page, from: { x: number; y: number }, by: { x: number; y: number }) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 4, from.y + 4);
  await page.mouse.move(from.x + by.x, from.y + by.y, { steps: 40 });
  await page.mouse.up();
}

async function main() {
  if (!existsSync(path.resolve('dist', 'index.html'))) {
    console.error('dist/ não encontrado: rode `npx vite build` antes.');
    process.exit(1);
  }
  const t = await startTestServer({ LOG_LEVEL: 'error' });
  const browser = await launchChromium();
  try {
    await t.reset();
    const token = await t.login('gerente@demo.com');
    const created = await t.call('create-or-update-flow', { name: 'Fluxo de 300 componentes' }, token);
    await t.call('create-or-update-flow', { _id: created._id, ...bigFlow() }, token);

    const context = await browser.newContext({ baseURL: t.url, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto('/login');
    await page.evaluate((tok) => localStorage.setItem('token', tok), token);
    // A first visit fills the HTTP cache and the query cache, as a manager's second opening would.
    const open = async () => {
      const t0 = Date.now();
      await page.goto(`/flows/${created._id}`, { waitUntil: 'commit' });
      await page.waitForFunction((n) => document.querySelectorAll('.react-flow__node').length === n, NODES, {
        polling: 'raf',
        timeout: 60_000,
      });
      return Date.now() - t0;
    };
    const cold = await open();
    const opens: number[] = [];
    for (let i = 0; i < RUNS; i++) opens.push(await open());

    // Drag: a node in the middle of the canvas, by its header.
    const header = page.locator('.react-flow__node[data-id="m150"] .flow-node-header');
    const box = await header.boundingBox();
    if (!box) throw new Error('node m150 not on screen');
    let stop = await watch(page);
    await dragFrom(page, { x: box.x + 10, y: box.y + box.height / 2 }, { x: 200, y: 120 });
    const drag = await stop();

    // Pan: a drag on the empty pane (found by asking the page what is under the point).
    const spot = await page.evaluate(() => {
      for (let y = 130; y < 780; y += 10)
        for (let x = 300; x < 1200; x += 10) {
          const el = document.elementFromPoint(x, y);
          if (el?.classList.contains('react-flow__pane')) return { x, y };
        }
      return null;
    });
    if (!spot) throw new Error('no empty spot of the pane');
    stop = await watch(page);
    await dragFrom(page, spot, { x: -300, y: -200 });
    const pan = await stop();

    const verdict = (x: number) => (x <= BUDGET_MS ? 'OK' : 'OVER BUDGET');
    console.log(`Flow editor, ${NODES} nodes, Chromium 1280×800 (${RUNS} loads, median):\n`);
    console.log(
      `open (navigation → ${NODES} nodes drawn): first ${ms(cold)}, then median ${ms(median(opens))}`,
    );
    console.log(
      `drag a node:  longest task ${drag.tasks ? ms(drag.longestTask) : `< ${BUDGET_MS} ms (no long task)`}` +
        `, longest frame ${ms(drag.longestFrame)}  ${verdict(drag.longestTask)}`,
    );
    console.log(
      `pan:          longest task ${pan.tasks ? ms(pan.longestTask) : `< ${BUDGET_MS} ms (no long task)`}` +
        `, longest frame ${ms(pan.longestFrame)}  ${verdict(pan.longestTask)}`,
    );
    await context.close();
  } finally {
    await browser.close();
    await t.close();
  }
}

await main();
