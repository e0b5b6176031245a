// The /api page (spec 3 §2.15; issue 20) as a manager uses it: reached from the menu, the key updated
// ('Chave atualizada com sucesso!'), shown and copied; a request copied from the page ('Requisição copiada
// para a área de transferência') and run from the test as a person would paste it in a terminal: the
// customer's phone on the simulator receives the message. Direct load and reload of /api open the page, also
// from the service worker, which leaves /api/v1/* to the server.
import type { Page } from '@playwright/test';
import { messages } from '@/shared/messages';
import { apiExamples, apiLabels, apiMessages } from '@/shared/messages-api';
import { calm, connectedChip, mainMenu, phoneOf, realtimeReady, shot, signedIn, tokenOf } from './app';
import { expect, test } from './fixtures';
import { serviceWorkerReady } from './offline-helpers';

test.use({
  seed: 'demo',
  ...calm,
  serviceWorkers: 'allow',
  permissions: ['clipboard-read', 'clipboard-write'],
});

/** The URL and body of a copied curl command (as curlOf writes it: single-quoted URL and -d). */
function parseCurl(curl: string) {
  const unquote = (s: string) => s.replaceAll("'\\''", "'");
  const url = /^curl -X POST '((?:[^']|'\\'')*)'/.exec(curl)?.[1];
  const body = /-d '((?:[^']|'\\'')*)'\s*$/.exec(curl)?.[1];
  if (!url || body === undefined) throw new Error(`not a curl of the page: ${curl}`);
  return { url: unquote(url), body: unquote(body) };
}

async function clipboard(page: Page) {
  return page.evaluate(() => navigator.clipboard.readText());
}

async function chooseCustomer(page: Page, number: string, name: string) {
  await expect(page.getByRole('heading', { name: 'Quem é você?' })).toBeVisible();
  await page.getByLabel('DDD e número').fill(number);
  await page.getByLabel('Nome').fill(name);
  await page.getByRole('button', { name: 'Abrir conversa' }).click();
  await expect(page.getByRole('list', { name: 'Mensagens' })).toBeVisible();
}

test('a request copied from /api, run as pasted, reaches the customer’s phone', { tag: '@phone' }, async ({
  page,
  server,
}) => {
  // The page, a customer's phone and the service worker's whole precache: more than the default minute when the
  // PostgreSQL suite runs beside the browsers on CI's 2 cores (the precache alone once took the rest of it).
  test.setTimeout(120_000);
  const token = await tokenOf(server, 'gerente@demo.com');
  const chip = await connectedChip(server, token, 'API');
  const phone = phoneOf(3, Date.now() % 1_000_000);
  try {
    await signedIn(page, server, 'gerente@demo.com');
    await page.goto('/');
    await realtimeReady(page);
    const menu = await mainMenu(page);
    await menu.getByRole('link', { name: apiLabels.title, exact: true }).click();
    await expect(page).toHaveURL(/\/api$/);
    await expect(page.getByRole('heading', { level: 1, name: apiLabels.title })).toBeVisible();

    // A new key: the old one stops working, the page shows and copies the new one.
    await page.getByRole('button', { name: apiLabels.updateKey }).click();
    const dialog = page.getByRole('dialog', { name: apiLabels.updateTitle });
    await expect(dialog).toContainText(apiLabels.updateText);
    await dialog.getByRole('button', { name: 'Confirmar' }).click();
    await expect(page.getByText(messages.keyUpdated)).toBeVisible();
    const { account } = await server.call<{ account: { api_key: string } }>('get-user', {}, token);
    const keyInput = page.getByRole('textbox', { name: apiLabels.apiKey });
    await expect(keyInput).not.toHaveValue(account.api_key);
    await page.getByRole('button', { name: apiLabels.showKey }).click();
    await expect(keyInput).toHaveValue(account.api_key);
    await page.getByRole('button', { name: apiLabels.copyKey }).click();
    await expect.poll(() => clipboard(page)).toBe(account.api_key);

    // The examples use this chip and the customer's phone.
    await page.getByRole('combobox', { name: apiLabels.examplesChip }).click();
    await page.getByRole('option', { name: chip.name }).click();
    await page.getByRole('textbox', { name: apiLabels.examplesPhone }).fill(phone);
    await expect(page.getByRole('link', { name: apiLabels.documentOpenApi })).toHaveAttribute(
      'href',
      '/api/v1/openapi.json',
    );
    await shot(page, 'api');
    // Nothing wider than the screen: long requests scroll inside their block.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      page.viewportSize()?.width ?? 0,
    );
    await page.screenshot({ path: `test-results/screens/api-top-${test.info().project.name}.png` });
    await page.getByTestId('curl-sendText').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/screens/api-curl-${test.info().project.name}.png` });

    await page.getByRole('button', { name: apiLabels.copyRequest }).first().click();
    await expect(page.getByText(apiMessages.requestCopied)).toBeVisible();
    const curl = await clipboard(page);
    expect(curl).toContain(`chip=${chip._id}`);
    expect(curl).toContain(`api_key=${account.api_key}`);
    expect(curl).toContain(new URL(server.url).origin);

    // The customer's phone on the simulator, then the request as pasted.
    const phonePage = await page.context().newPage();
    await phonePage.goto(`/simulador/${chip.simulator}`);
    await chooseCustomer(phonePage, phone, 'Cliente da API');
    const { url, body } = parseCurl(curl);
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ error: false, message: { status: 'sent' } });
    await expect(
      phonePage
        .getByRole('list', { name: 'Mensagens' })
        .getByRole('listitem')
        .filter({ hasText: apiExamples.message }),
    ).toBeVisible();
    await shot(phonePage, 'api-simulator');
    await phonePage.close();

    // Direct load and reload of /api open the page (the server and the service worker leave it to the app).
    await page.goto('/api');
    await expect(page.getByRole('heading', { level: 1, name: apiLabels.title })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: apiLabels.title })).toBeVisible();
    // With the service worker in control: /api is the app's page from it, /api/v1/* goes to the server.
    await serviceWorkerReady(page);
    const fromWorker = await page.goto('/api');
    expect(fromWorker?.fromServiceWorker()).toBe(true);
    await expect(page.getByRole('heading', { level: 1, name: apiLabels.title })).toBeVisible();
    const doc = await page.goto('/api/v1/openapi.json');
    if (!doc) throw new Error('no answer for the OpenAPI document');
    expect(doc.fromServiceWorker()).toBe(false);
    expect(((await doc.json()) as { openapi: string }).openapi).toBe('3.1.0');
  } finally {
    await chip.file();
  }
});
