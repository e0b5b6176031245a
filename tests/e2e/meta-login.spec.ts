// /meta-login (issue 22 item 5, spec 3 §2.18) at both sizes: 'Login com Facebook' loads Meta's JavaScript SDK
// and starts the embedded WhatsApp signup with the configured app and configuration. No internet here: the
// SDK's address is answered by a tiny stand-in that defines window.FB and records its calls. The page's CSP lets
// that SDK in; any other page's does not. The signup's answer is sent nowhere.
import { mkdir } from 'node:fs/promises';
import { messages } from '@/shared/messages';
import { adminMessages, adminLabels as L } from '@/shared/messages-admin';
import { calm, shot, signedIn } from './app';
import { type AppServer, expect, startServer, test } from './fixtures';

test.use(calm);

const APP_ID = '1234567890';
const CONFIG_ID = '987654321';
let app: { server: AppServer; stop(): Promise<void> };

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await mkdir('test-results/screens', { recursive: true });
  app = await startServer({
    seed: 'demo',
    env: { WHATSAPP_APP_ID: APP_ID, WHATSAPP_SIGNUP_CONFIG_ID: CONFIG_ID, WHATSAPP_GRAPH_VERSION: 'v21.0' },
  });
});
test.afterAll(() => app?.stop());

/** Meta's SDK as far as the page uses it: init and login, each call recorded; login answers a code. */
const FAKE_SDK = `
  window.__fb = { calls: [] };
  window.FB = {
    init: function (o) { window.__fb.calls.push(['init', o]); },
    login: function (cb, o) {
      window.__fb.calls.push(['login', o]);
      cb({ status: 'connected', authResponse: { code: 'CODE-FROM-META' } });
    },
  };
  if (window.fbAsyncInit) window.fbAsyncInit();
`;

test('Login com Facebook starts the embedded signup with the configured ids; its answer stays in the page', async ({
  page,
}) => {
  const sdkRequests: string[] = [];
  await page.route('https://connect.facebook.net/**', (route) => {
    sdkRequests.push(route.request().url());
    return route.fulfill({ status: 200, contentType: 'text/javascript', body: FAKE_SDK });
  });
  const violations: string[] = [];
  page.on('console', (m) => {
    if (m.text().includes('Content Security Policy')) violations.push(m.text());
  });

  await signedIn(page, app.server, 'dono@demo.com');
  const res = await page.goto(`${app.server.url}/meta-login`);
  expect(res?.headers()['content-security-policy']).toContain(
    "script-src 'self' https://connect.facebook.net",
  );
  await expect(page.getByRole('heading', { level: 1, name: L.metaLoginTitle })).toBeVisible();
  const button = page.getByRole('button', { name: L.metaLoginTitle });
  await expect(button).toBeEnabled();
  expect(sdkRequests).toEqual(['https://connect.facebook.net/en_US/sdk.js']);
  expect(await page.evaluate(() => (window as unknown as { __fb: { calls: unknown[] } }).__fb.calls)).toEqual(
    [['init', { appId: APP_ID, autoLogAppEvents: true, xfbml: true, version: 'v21.0' }]],
  );
  await shot(page, 'meta-login');

  // What the signup answers (the code) never leaves the page. (The shell's own background calls go on.)
  const carried: string[] = [];
  page.on('request', (r) => {
    if (`${r.url()} ${r.postData() ?? ''}`.includes('CODE-FROM-META')) carried.push(r.url());
  });
  await button.click();
  await expect(page.getByRole('status').filter({ hasText: adminMessages.metaSignupFinished })).toBeVisible();
  const calls = await page.evaluate(() => (window as unknown as { __fb: { calls: unknown[] } }).__fb.calls);
  expect(calls[1]).toEqual([
    'login',
    {
      config_id: CONFIG_ID,
      response_type: 'code',
      override_default_response_type: true,
      extras: { setup: {}, featureType: 'only_waba_sharing', sessionInfoVersion: '2' },
    },
  ]);
  await page.waitForTimeout(500);
  expect(carried).toEqual([]);
  expect(violations).toEqual([]);
  await shot(page, 'meta-login-done');
});

test('every other page’s CSP keeps the Facebook SDK out', async ({ page }) => {
  let served = 0;
  await page.route('https://connect.facebook.net/**', (route) => {
    served++;
    return route.fulfill({ status: 200, contentType: 'text/javascript', body: FAKE_SDK });
  });
  await signedIn(page, app.server, 'dono@demo.com');
  await page.goto(`${app.server.url}/chips`);
  const blocked = await page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        document.addEventListener('securitypolicyviolation', (e) => resolve(e.violatedDirective), {
          once: true,
        });
        const s = document.createElement('script');
        s.src = 'https://connect.facebook.net/en_US/sdk.js';
        document.body.appendChild(s);
      }),
  );
  expect(blocked).toMatch(/^script-src/);
  expect(served).toBe(0);
  expect(await page.evaluate(() => 'FB' in window)).toBe(false);
});

test('without the configuration the page says so; an attendant may not open it', async ({ page, server }) => {
  await signedIn(page, server, 'dono@demo.com');
  await page.goto(`${server.url}/meta-login`);
  await expect(
    page.getByRole('alert').filter({ hasText: adminMessages.metaLoginNotConfigured }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: L.metaLoginTitle })).toBeDisabled();
  await shot(page, 'meta-login-not-configured');

  await signedIn(page, server, 'atendente@demo.com');
  await page.goto(`${server.url}/meta-login`);
  await expect(page).toHaveURL(/\/atendimento$/);
  await expect(page.getByRole('alert').filter({ hasText: messages.insufficientPermissions })).toBeVisible();
});
