// The outbox's promise under a bad network (issue 7): an attendant types 200 messages to a simulator customer
// while the test toggles the browser offline and online at random (at least 20 times) and kills the server
// (SIGKILL) and starts it again on the same data 3 times. At the end the database has each of the 200 exactly
// once, in the order typed, each sent, and the device's outbox is empty. The test owns its server process.
import { rm } from 'node:fs/promises';
import type { Locator } from '@playwright/test';
import { labels, messages } from '@/shared/messages';
import { calm, connectedChip, conversationOf, signedIn, tokenOf } from './app';
import { expect, startServer, test } from './fixtures';
import { allMessages, deviceCount } from './offline-helpers';

test.use({ ...calm, serviceWorkers: 'allow' });
test.setTimeout(600_000);

const TOTAL = 200;
const TOGGLES = 24;
const KILLS = 3;

/** mulberry32: the same run again from the printed seed. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const label = (i: number) => `R-${String(i).padStart(3, '0')}`;

test('200 messages through 20+ network drops and 3 server kills: each once, in order, none left', async ({
  browser,
}) => {
  const seed = Number(process.env.RELIABILITY_SEED ?? Date.now() % 1_000_000);
  const random = prng(seed);
  let running = await startServer({ seed: 'demo' });
  const { port } = running;
  const dataDir = running.server.dataDir;
  const server = running.server;
  const context = await browser.newContext({ baseURL: server.url, reducedMotion: 'reduce' });
  const page = await context.newPage();
  try {
    const manager = await tokenOf(server, 'gerente@demo.com');
    const chip = await connectedChip(server, manager, 'Confiabilidade');
    const digits = `5511966${String(Date.now()).slice(-6)}`;
    await chip.write(digits, 'Cliente Confiável', 'Olá, vou receber muitas mensagens.');
    const conversation = await conversationOf(server, manager, digits);

    await signedIn(page, server, 'atendente@demo.com');
    await page.goto(`/atendimento?c=${conversation._id}`);
    const pane = page.getByRole('region', { name: 'Cliente Confiável' });
    const box: Locator = pane.getByRole('textbox', { name: labels.common.message, exact: true });
    await expect(box).toBeVisible();

    // When each disturbance happens: toggles spread at random over the typing, kills at random thirds.
    const toggleAt = new Set<number>();
    while (toggleAt.size < TOGGLES) toggleAt.add(1 + Math.floor(random() * (TOTAL - 1)));
    const killAt = [0, 1, 2].map((k) => Math.floor(((k + random()) * TOTAL) / KILLS) + 1);
    let offline = false;
    let toggles = 0;
    let kills = 0;
    // A kill due while the server is still down from the last one waits for the restart (two random points
    // may fall within one down time: CI once saw 2 kills instead of 3).
    let killsDue = 0;
    let serverDown = false;
    let restartAt = -1;

    for (let i = 1; i <= TOTAL; i++) {
      if (toggleAt.has(i)) {
        offline = !offline;
        toggles += 1;
        await context.setOffline(offline);
      }
      killsDue += killAt.filter((at) => at === i).length;
      if (killsDue > 0 && !serverDown) {
        await running.kill();
        kills += 1;
        killsDue -= 1;
        serverDown = true;
        // Down for the next 5-15 messages.
        restartAt = i + 5 + Math.floor(random() * 10);
      }
      if (serverDown && i >= restartAt) {
        running = await startServer({ port, dataDir });
        serverDown = false;
      }
      await box.fill(label(i));
      await box.press('Enter');
      await expect(box).toHaveValue('');
      // A person's pace, with bursts.
      if (random() < 0.3) await page.waitForTimeout(Math.floor(random() * 150));
    }
    if (serverDown) running = await startServer({ port, dataDir });
    if (offline) {
      await context.setOffline(false);
      toggles += 1;
    }
    expect(toggles).toBeGreaterThanOrEqual(20);
    expect(kills).toBe(KILLS);

    // Everything leaves the device.
    await expect.poll(() => deviceCount(page, 'outbox'), { timeout: 180_000, intervals: [1000] }).toBe(0);
    await expect(page.getByTestId('offline-indicator')).toHaveCount(0);

    const token = await tokenOf(running.server, 'atendente@demo.com');
    const stored = await allMessages(running.server, token, conversation._id);
    const typed = stored
      .filter((m) => m.origin === 'user')
      .map((m) => /R-\d{3}$/.exec(m.message)?.[0])
      .filter((t): t is string => Boolean(t));
    const counts = new Map<string, number>();
    for (const t of typed) counts.set(t, (counts.get(t) ?? 0) + 1);
    const duplicated = [...counts].filter(([, n]) => n > 1).length;
    const missing = Array.from({ length: TOTAL }, (_, k) => label(k + 1)).filter((t) => !counts.has(t));
    console.log(
      `[reliability] seed ${seed}: typed ${TOTAL}, stored ${typed.length}, distinct ${counts.size}, ` +
        `duplicated ${duplicated}, missing ${missing.length}, network toggles ${toggles}, server kills ${kills}, ` +
        `pending on device ${await deviceCount(page, 'outbox')}`,
    );
    expect(missing).toEqual([]);
    expect(duplicated).toBe(0);
    // The outbox let each one go only once the server had it sent: none left pending or failed.
    const unsent = stored
      .filter((m) => m.origin === 'user' && m.status < 1)
      .map((m) => [m.message, m.status]);
    expect(unsent).toEqual([]);
    expect(typed).toEqual(Array.from({ length: TOTAL }, (_, k) => label(k + 1)));
    // The pane shows the last one once too (the list may have stopped following the end during the bursts).
    const toEnd = pane.getByRole('button', { name: messages.paneToEnd });
    if (await toEnd.isVisible()) await toEnd.click();
    await page.screenshot({ path: '/tmp/shots/reliability-end-desktop.png' });
    const lastBubbles = pane
      .getByRole('list', { name: messages.messagesTitle })
      .getByRole('listitem')
      .filter({ hasText: label(TOTAL) });
    await expect(lastBubbles).toHaveCount(1);
  } finally {
    await context.close();
    await running.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
});
