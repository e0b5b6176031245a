import { appendFile, cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { messages } from '@/shared/messages';
import { calm } from './app';
import { expect, startServer, test } from './fixtures';

test.use({ seed: 'demo', ...calm, serviceWorkers: 'allow' });

/** Width and height from a PNG's IHDR chunk, or null when the bytes are not a PNG. */
function pngSize(bytes: Buffer) {
  if (bytes.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a') return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Waits until the service worker is active and controls the page (the precache is then complete). */
async function serviceWorkerReady(page: import('@playwright/test').Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve));
    }
  });
}

test('the manifest has what Chromium needs to offer installation', async ({ page, request }) => {
  const res = await request.get('/manifest.webmanifest');
  expect(res.ok()).toBe(true);
  const manifest = await res.json();
  expect(manifest).toMatchObject({
    name: 'Painel de Atendimento',
    short_name: 'Atendimento',
    lang: 'pt-BR',
    display: 'standalone',
    start_url: '/atendimento',
    theme_color: '#2f9e44',
  });
  const icons = manifest.icons as { src: string; sizes: string; type: string; purpose: string }[];
  for (const [size, purpose] of [
    [192, 'any'],
    [512, 'any'],
    [512, 'maskable'],
  ] as const) {
    const icon = icons.find((i) => i.sizes === `${size}x${size}` && i.purpose === purpose);
    expect(icon, `${size} ${purpose}`).toBeTruthy();
    const bytes = await (await request.get(icon?.src as string)).body();
    expect(pngSize(bytes)).toEqual({ width: size, height: size });
  }

  await page.goto('/login');
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
});

test("Chromium's installability check passes (a real profile, as a person's browser)", async ({ server }) => {
  // Test contexts are incognito-like, where Chromium never offers installation: use a profile on disk.
  const profile = await mkdtemp(path.join(tmpdir(), 'painel-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    ...test.info().project.use.launchOptions,
    viewport: test.info().project.use.viewport ?? null,
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${server.url}/login`);
    await serviceWorkerReady(page);
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);
    const manifest = await cdp.send('Page.getAppManifest');
    expect(manifest.errors).toEqual([]);
    expect(manifest.url).toBe(`${server.url}/manifest.webmanifest`);
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
});

test('after one visit, a reload with the context offline still renders the shell', async ({
  page,
  context,
  signIn,
}) => {
  await signIn(page, 'atendente@demo.com');
  await page.goto('/atendimento');
  await expect(page.getByRole('heading', { level: 1, name: 'Atendimento' })).toBeVisible();
  await serviceWorkerReady(page);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Atendimento' })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('button', { name: 'Menu do usuário' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: messages.offline })).toBeVisible();
  // A full navigation to another screen is answered by the service worker too.
  await page.goto('/meu-perfil');
  await expect(page.getByRole('heading', { level: 1, name: 'Meu perfil' })).toBeVisible();
  await expect(page.getByLabel('Nome', { exact: true })).toHaveValue('Ana Atendente');
  // The socket did not count failures while offline: no connection error was shown.
  await expect(page.getByText(messages.socketFailed)).toHaveCount(0);

  await context.setOffline(false);
  await expect(page.getByRole('status').filter({ hasText: messages.offline })).toHaveCount(0);
});

test('the navigation fallback leaves /api and /media to the server', async ({ page }) => {
  await page.goto('/login');
  await serviceWorkerReady(page);
  for (const path of ['/api/get-user', '/media/nao-existe.png']) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(404);
    expect(await page.content()).not.toContain('<div id="root">');
  }
  const app = await page.goto('/qualquer/rota');
  expect(app?.fromServiceWorker()).toBe(true);
});

test("a new version offers 'Nova versão disponível' and reloads into it", async ({ page }) => {
  // A server of its own, on a copy of the build, so this test can deploy a new version without touching
  // what the other tests are served.
  const dir = await mkdtemp(path.join(tmpdir(), 'painel-deploy-'));
  await cp('dist', path.join(dir, 'dist'), { recursive: true });
  const app = await startServer({ cwd: dir });
  try {
    await page.goto(`${app.server.url}/login`);
    await serviceWorkerReady(page);
    // The deploy: a service worker that differs by one line.
    await appendFile(path.join(dir, 'dist', 'sw.js'), '\n// nova versão\n');
    // What the app's hourly check does, now.
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
    const prompt = page.getByRole('alert').filter({ hasText: messages.newVersionAvailable });
    await expect(prompt).toBeVisible({ timeout: 15_000 });
    const reloaded = page.waitForEvent('load');
    await prompt.getByRole('button', { name: 'Atualizar' }).click();
    await reloaded;
    await expect(page.getByRole('heading', { name: 'Entrar' })).toBeVisible();
    await expect(prompt).toHaveCount(0);
    const state = await page.evaluate(async () => {
      const reg = await navigator.serviceWorker.getRegistration();
      const text = await (await fetch(reg?.active?.scriptURL ?? '', { cache: 'no-store' })).text();
      return { waiting: Boolean(reg?.waiting), newest: text.trim().endsWith('// nova versão') };
    });
    expect(state).toEqual({ waiting: false, newest: true });
  } finally {
    await app.stop();
    await rm(dir, { recursive: true, force: true });
  }
});
