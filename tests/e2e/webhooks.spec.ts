// Webhooks (/webhooks, issue 20; spec 3 §2.13, §4 Webhook status, §5 Webhook save, §8) as a manager builds one:
// 'Novo webhook' opens its page; the URL copied (a check mark for 1.5 s); 'Receber evento teste' waits while a
// third party posts its JSON to the URL, and the event fills 'Dados do webhook'; telefone and a joined name
// mapped from its paths with their example values; JSON typed wrong is flagged after the pause and clears the
// examples; saving without telefone mapped, and waiting outside status test, give the spec's messages.
import { mkdir } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { newId } from '@/shared/ids';
import { labels, messages } from '@/shared/messages';
import { webhookLabels as L, webhookMessages as M } from '@/shared/messages-webhooks';
import { calm, DEMO_PASSWORD, mainMenu, shot, signedIn } from './app';
import { expect, test } from './fixtures';

test.use(calm);

test.beforeAll(async () => {
  await mkdir('test-results/screens', { recursive: true });
});

const EVENT = {
  evento: 'pedido_pago',
  pedido: { numero: 1042, itens: [{ produto: 'Camiseta' }, { produto: 'Boné' }] },
  cliente: { nome: 'Joana', sobrenome: 'Prado', telefone: '+55 11 97777-1234' },
};

const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });

/** Picks a JSON path in the field's 'Campos de origem' (its option shows the example value). */
async function choosePath(page: Page, field: string, path: string) {
  const group = page.getByRole('group', { name: field });
  await group.getByRole('combobox', { name: L.sourceFields }).click();
  await page
    .getByRole('option', { name: new RegExp(`^${path.replace(/[.[\]]/g, '\\$&')}`) })
    .first()
    .click();
  await page.keyboard.press('Escape');
}

test('build a webhook from a received test event and map its fields', async ({ page, server, context }) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await signedIn(page, server, 'gerente@demo.com');
  await page.goto('/');
  await (await mainMenu(page)).getByRole('link', { name: L.webhooks }).click();
  await expect(page).toHaveURL(/\/webhooks$/);
  await page.getByRole('button', { name: L.newWebhook }).click();
  await expect(toast(page, M.created)).toBeVisible();
  await expect(page).toHaveURL(/\/webhooks\/[0-9A-Z]{28}$/);
  const id = page.url().split('/').at(-1) as string;
  await expect(page.getByRole('heading', { level: 1, name: L.webhook })).toBeVisible();

  // The URL and its copy button's check mark, gone after 1.5 s.
  const url = `${server.url}/api/v1/webhooks/${id}`;
  await expect(page.getByLabel(L.webhookUrl)).toHaveValue(url);
  await page.getByRole('button', { name: L.copy }).click();
  await expect(page.getByRole('button', { name: L.copied })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  await expect(page.getByRole('button', { name: L.copy })).toBeVisible({ timeout: 3000 });

  const name = `Loja ${test.info().project.name} ${Date.now().toString(36)}`;
  await page.getByLabel(L.webhookName).fill(name);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();

  // Saving with telefone not mapped: the spec's message.
  await page.getByRole('button', { name: labels.common.save }).click();
  await expect(page.getByText(M.phoneNotMapped)).toBeVisible();

  // Waiting for a test event, then stopping; then waiting again while the store posts.
  await page.getByRole('button', { name: L.receiveTestEvent }).click();
  await expect(page.getByText(L.waitingEvent)).toBeVisible();
  await page.getByRole('button', { name: messages.stop }).click();
  await expect(page.getByText(L.waitingEvent)).toBeHidden();
  await page.getByRole('button', { name: L.receiveTestEvent }).click();
  await expect(page.getByText(L.waitingEvent)).toBeVisible();
  await shot(page, 'webhook-waiting');
  const json = page.getByLabel(L.jsonReceived);
  // The page joins the room on its own socket: the store posts until the event shows.
  await expect
    .poll(
      async () => {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(EVENT),
        });
        expect(res.status).toBe(200);
        return json.inputValue();
      },
      { timeout: 20_000, intervals: [300] },
    )
    .toContain('pedido_pago');
  await expect(page.getByText(L.waitingEvent)).toBeHidden();
  expect(JSON.parse(await json.inputValue())).toEqual(EVENT);

  // telefone from its path; a second field joining two paths.
  await choosePath(page, 'telefone', 'cliente.telefone');
  const phone = page.getByRole('group', { name: 'telefone' });
  await expect(phone.getByLabel(L.exampleValue)).toHaveValue('+55 11 97777-1234');
  await page.getByRole('button', { name: messages.addField }).click();
  const added = page.getByRole('group', { name: L.fieldName });
  await added.getByLabel(L.fieldName).fill('nome');
  await choosePath(page, 'nome', 'cliente.nome');
  await choosePath(page, 'nome', 'cliente.sobrenome');
  const joined = page.getByRole('group', { name: 'nome' }).getByLabel(L.exampleValue);
  await expect(joined).toHaveValue('Joana Prado');
  // An array item's path.
  await page.getByRole('button', { name: messages.addField }).click();
  await page.getByRole('group', { name: L.fieldName }).getByLabel(L.fieldName).fill('produto');
  await choosePath(page, 'produto', 'pedido.itens[1].produto');
  await expect(page.getByRole('group', { name: 'produto' }).getByLabel(L.exampleValue)).toHaveValue('Boné');
  // telefone cannot be renamed or removed; the others can be removed.
  await expect(phone.getByLabel(L.fieldName)).toBeDisabled();
  await expect(phone.getByRole('button', { name: /Remover/ })).toHaveCount(0);
  await page.getByRole('button', { name: L.removeField('produto') }).click();
  await expect(page.getByRole('group', { name: 'produto' })).toHaveCount(0);

  // JSON typed wrong: flagged after the pause, the examples cleared; typed right again, they come back.
  const text = await json.inputValue();
  await json.fill(`${text}}`);
  await expect(page.getByText(M.typedNotJson)).toBeVisible();
  await expect(joined).toHaveValue('');
  await json.fill(text);
  await expect(page.getByText(M.typedNotJson)).toBeHidden();
  await expect(joined).toHaveValue('Joana Prado');
  await shot(page, 'webhook-mapped');

  await page.getByRole('button', { name: labels.common.save }).click();
  await expect(toast(page, M.updated)).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByRole('group', { name: 'nome' }).getByLabel(L.exampleValue)).toHaveValue(
    'Joana Prado',
  );

  // Cancelar reloads what is saved.
  await page.getByLabel(L.webhookName).fill('Outro nome');
  await page.getByRole('button', { name: labels.common.cancel }).click();
  await expect(page.getByLabel(L.webhookName)).toHaveValue(name);

  // Outside status test, no waiting for an event.
  await page.getByRole('combobox', { name: labels.common.status, exact: true }).click();
  await page.getByRole('option', { name: L.statusLabels.inactive }).click();
  await page.getByRole('button', { name: labels.common.save }).click();
  await expect(toast(page, M.updated)).toBeVisible();
  await page.getByRole('button', { name: L.receiveTestEvent }).click();
  await expect(page.getByText(M.mustBeTest)).toBeVisible();
  // The refusal is about the status: the (valid) JSON box does not turn red.
  await expect(page.getByRole('combobox', { name: labels.common.status, exact: true })).toHaveAttribute(
    'aria-invalid',
    'true',
  );
  await expect(page.getByLabel(L.jsonReceived)).not.toHaveAttribute('aria-invalid', 'true');

  // The list: name, chip, status; back from the page.
  await page.getByRole('button', { name: messages.back }).click();
  await expect(page).toHaveURL(/\/webhooks$/);
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText(L.statusLabels.inactive);
  await expect(row).toContainText(L.noChip);
  await shot(page, 'webhooks-list');

  // Apagar asks first; the URL then answers 404.
  await row.getByRole('button', { name: 'Apagar' }).click();
  const confirm = page.getByRole('dialog', { name: L.deleteWebhook });
  await expect(confirm).toContainText(L.confirmDelete(name));
  await confirm.getByRole('button', { name: 'Confirmar' }).click();
  await expect(toast(page, M.deleted)).toBeVisible();
  await expect(row).toHaveCount(0);
  expect((await fetch(url, { method: 'POST', body: '{}' })).status).toBe(404);
});

test('waiting for a test event gives up after 60 s', async ({ page, server }) => {
  const token = await signedIn(page, server, 'gerente@demo.com');
  const made = await server.call<{ _id: string }>('create-or-update-webhook', { _id: newId() }, token);
  // The page's clock is ours: a minute passes at once.
  await page.clock.install();
  await page.goto(`/webhooks/${made._id}`);
  await page.getByRole('button', { name: L.receiveTestEvent }).click();
  await expect(page.getByText(L.waitingEvent)).toBeVisible();
  await page.clock.fastForward(59_000);
  await expect(page.getByText(L.waitingEvent)).toBeVisible();
  await page.clock.fastForward(1_500);
  await expect(page.getByText(M.testTimeout)).toBeVisible();
  await expect(page.getByText(L.waitingEvent)).toBeHidden();
  await expect(page.getByRole('button', { name: L.receiveTestEvent })).toBeVisible();
  await server.call('create-or-update-webhook', { _id: made._id, filed: true }, token);
});

// Issue 34 item 3 (spec 3 §6): webhooks need the account's API key. A new account has none: the page says why,
// links to /api and offers no 'Novo webhook' until the key exists (the server refuses it too).
test("without the account's API key: the notice, a link to /api, no 'Novo webhook'", {
  tag: '@phone',
}, async ({ page, server }) => {
  const admin = await server.call<{ token: string }>('auth', {
    email: 'admin@demo.com',
    password: DEMO_PASSWORD,
  });
  const email = `sem-chave-${test.info().project.name}-${Date.now().toString(36)}@cliente.test`;
  const owner = await server.call<{ account: { _id: string } }>(
    'create-user',
    { name: 'Dona Sem Chave', email, password: 'senha123', account_name: 'Conta Sem Chave' },
    admin.token,
  );
  await server.call(
    'update-account',
    { _id: owner.account._id, max_channels: 2, max_official_channels: 0, max_users: 3, max_flows: 1 },
    admin.token,
  );
  await signedIn(page, server, email, 'senha123');
  await page.goto('/webhooks');
  const notice = page.getByRole('status').filter({ hasText: L.apiKeyRequired });
  await expect(notice).toContainText(M.apiKeyRequired);
  await expect(page.getByRole('button', { name: L.newWebhook })).toBeDisabled();
  await shot(page, 'webhooks-no-api-key');
  await notice.getByRole('link', { name: L.goToApi }).click();
  await expect(page).toHaveURL(/\/api$/);
});
