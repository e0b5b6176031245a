// /admin-clientes (issue 22 item 1) as platform staff use it, at both sizes: the menu line, the search (1 s
// debounce, accents aside) and paging, account creation (admin flag only), a customer's password, an owner
// row's limits and official numbers against a fake Graph API, with every validation message of spec 3 §5.
// A server of its own: the demo plus a manager made customer_admin without the admin flag.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { openDatabase } from '@/server/db';
import { users } from '@/server/db/schema';
import { seedDemo } from '@/server/seed/demo';
import { labels, messages } from '@/shared/messages';
import { adminMessages, adminLabels as L } from '@/shared/messages-admin';
import { type FakeGraph, graphEnv, startFakeGraph } from '../fakes/graph-api';
import { calm, DEMO_PASSWORD, isPhone, mainMenu, shot, signedIn } from './app';
import { type AppServer, expect, startServer, test } from './fixtures';

test.use(calm);

let app: { server: AppServer; stop(): Promise<void> };
let graph: FakeGraph;
let dataDir = '';

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await mkdir('test-results/screens', { recursive: true });
  graph = await startFakeGraph();
  dataDir = await mkdtemp(path.join(tmpdir(), 'painel-e2e-admin-'));
  const database = await openDatabase({ dataDir });
  try {
    await seedDemo(database.db);
    await database.db
      .update(users)
      .set({ systemUserRoles: ['customer_admin'] })
      .where(eq(users.email, 'gerente@demo.com'));
  } finally {
    await database.close();
  }
  app = await startServer({ dataDir, env: graphEnv(graph) });
});
test.afterAll(async () => {
  await app?.stop();
  await graph?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const project = () => test.info().project.name;
const unique = () => `${project()}-${Date.now().toString(36)}`;
const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });

async function adminToken() {
  return (
    await app.server.call<{ token: string }>('auth', { email: 'admin@demo.com', password: DEMO_PASSWORD })
  ).token;
}

/** A new customer account (its owner), made through the API. */
async function newAccount(name: string) {
  const email = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}@cliente.test`;
  const owner = await app.server.call<{ _id: string; account: { _id: string } }>(
    'create-user',
    { name, email, password: 'senha123', account_name: `Conta ${name}` },
    await adminToken(),
  );
  return { email, id: owner._id, account: owner.account._id, accountName: `Conta ${name}` };
}

/** The customers' table on desktop, its cards on phones. */
function rowOf(page: Page, text: string): Locator {
  return isPhone()
    ? page.getByRole('list', { name: messages.customers }).getByRole('listitem').filter({ hasText: text })
    : page.getByRole('table', { name: messages.customers }).getByRole('row').filter({ hasText: text });
}

async function openCustomers(page: Page, email = 'admin@demo.com') {
  await signedIn(page, app.server, email);
  await page.goto(`${app.server.url}/atendimento`);
  const menu = await mainMenu(page);
  await menu.getByRole('link', { name: messages.customers }).click();
  await expect(page).toHaveURL(/\/admin-clientes$/);
  await expect(page.getByRole('heading', { level: 1, name: messages.customers })).toBeVisible();
}

async function search(page: Page, text: string, total: string) {
  await page.getByRole('textbox', { name: L.searchLabel }).fill(text);
  await expect(page.getByText(total, { exact: true })).toBeVisible();
}

test('the table: search by name or e-mail after 1 s, accents aside, 10 a page, the role labels', {
  tag: '@phone',
}, async ({ page }) => {
  const tag = unique();
  const names = Array.from({ length: 11 }, (_, i) => `Página ${tag} ${String(i + 1).padStart(2, '0')}`);
  for (const name of names) await newAccount(name);
  await newAccount(`Conceição ${tag}`);

  await openCustomers(page);
  await search(page, `pagina ${tag}`, L.total(11));
  await expect(rowOf(page, names[10] ?? '')).toBeVisible();
  await expect(rowOf(page, `Página ${tag}`)).toHaveCount(10);
  await expect(rowOf(page, 'Proprietário(a)').first()).toBeVisible();
  await page.getByRole('button', { name: 'Página 2' }).click();
  await expect(rowOf(page, `Página ${tag}`)).toHaveCount(1);
  await shot(page, 'admin-customers-page2');

  // The search waits for a pause of 1 s in typing: right after the last key the list is the old one.
  const box = page.getByRole('textbox', { name: L.searchLabel });
  await box.fill(`CONCEICAO ${tag}`);
  await expect(page.getByText(L.total(11), { exact: true })).toBeVisible();
  await expect(page.getByText(L.total(1), { exact: true })).toBeVisible();
  await expect(rowOf(page, `Conceição ${tag}`)).toBeVisible();

  await search(page, 'demo.com', L.total(5));
  await expect(rowOf(page, 'gerente@demo.com')).toContainText('Gerente');
  await expect(rowOf(page, 'atendente@demo.com')).toContainText('Atendente');
  await expect(rowOf(page, 'dono@demo.com')).toContainText('Proprietário(a)');
  await expect(rowOf(page, 'dono@demo.com')).toContainText('Ativa');
  // Only owner rows edit the account and its numbers; every row changes a password.
  const manager = rowOf(page, 'gerente@demo.com');
  await expect(manager.getByRole('button', { name: labels.profile.changePassword })).toBeVisible();
  await expect(manager.getByRole('button', { name: L.editAccount })).toHaveCount(0);
  await expect(manager.getByRole('button', { name: L.configureNumbers })).toHaveCount(0);
  await expect(rowOf(page, 'dono@demo.com').getByRole('button', { name: L.editAccount })).toBeVisible();
  await search(page, 'ninguém-com-esse-nome', L.total(0));
  await expect(page.getByText(L.empty)).toBeVisible();
  await search(page, 'demo.com', L.total(5));
  await shot(page, 'admin-customers');
});

test('create account: the admin flag only, with its messages', async ({ page }) => {
  const tag = unique();
  await openCustomers(page);
  await page.getByRole('button', { name: L.createAccount }).click();
  const dialog = page.getByRole('dialog', { name: L.createAccount });
  const save = dialog.getByRole('button', { name: 'Salvar' });
  await save.click();
  await expect(dialog.getByText(messages.teamAllFieldsRequired)).toBeVisible();
  await dialog.getByRole('textbox', { name: L.ownerName }).fill(`Nova Dona ${tag}`);
  await dialog.getByRole('textbox', { name: L.accountName }).fill(`Loja Nova ${tag}`);
  await dialog.getByRole('textbox', { name: labels.common.email }).fill(`nova-${tag}@cliente.test`);
  await dialog.getByLabel(labels.common.password, { exact: true }).fill('123');
  await save.click();
  await expect(dialog.getByText(adminMessages.passwordTooShort)).toBeVisible();
  await dialog.getByLabel(labels.common.password, { exact: true }).fill('senha123');
  await dialog.getByLabel(L.confirmPassword, { exact: true }).fill('senha124');
  await save.click();
  await expect(dialog.getByText(adminMessages.passwordsDontMatch)).toBeVisible();
  await shot(page, 'admin-create-account-error');
  await dialog.getByLabel(L.confirmPassword, { exact: true }).fill('senha123');
  await save.click();
  await expect(toast(page, adminMessages.accountCreated)).toBeVisible();
  await expect(dialog).toBeHidden();
  await search(page, `nova-${tag}`, L.total(1));
  await expect(rowOf(page, `Nova Dona ${tag}`)).toContainText('Proprietário(a)');
  // The new owner signs in with that password.
  await app.server.call('auth', { email: `nova-${tag}@cliente.test`, password: 'senha123' });

  // The same e-mail again: the server's message, the dialog stays open.
  await page.getByRole('button', { name: L.createAccount }).click();
  await dialog.getByRole('textbox', { name: L.ownerName }).fill('Outra');
  await dialog.getByRole('textbox', { name: labels.common.email }).fill(`nova-${tag}@cliente.test`);
  await dialog.getByLabel(labels.common.password, { exact: true }).fill('senha123');
  await dialog.getByLabel(L.confirmPassword, { exact: true }).fill('senha123');
  await save.click();
  await expect(dialog.getByText(messages.emailInUse)).toBeVisible();
});

test('customer_admin without the admin flag has the table but no account creation; others none of it', async ({
  page,
}) => {
  await openCustomers(page, 'gerente@demo.com');
  await search(page, 'demo.com', L.total(5));
  await expect(page.getByRole('button', { name: L.createAccount })).toHaveCount(0);

  await signedIn(page, app.server, 'dono@demo.com');
  await page.goto(`${app.server.url}/atendimento`);
  const menu = await mainMenu(page);
  await expect(menu.getByRole('link', { name: messages.customers })).toHaveCount(0);
  await page.goto(`${app.server.url}/admin-clientes`);
  await expect(page).toHaveURL(/\/atendimento$/);
  await expect(toast(page, messages.insufficientPermissions)).toBeVisible();
});

test('change a customer’s password: its messages, then the new password works', async ({ page }) => {
  const tag = unique();
  const customer = await newAccount(`Senha ${tag}`);
  await openCustomers(page);
  await search(page, customer.email, L.total(1));
  await rowOf(page, customer.email).getByRole('button', { name: labels.profile.changePassword }).click();
  const dialog = page.getByRole('dialog', { name: L.changePasswordTitle(`Senha ${tag}`) });
  const save = dialog.getByRole('button', { name: 'Salvar' });
  await dialog.getByLabel(labels.common.newPassword, { exact: true }).fill('12345');
  await save.click();
  await expect(dialog.getByText(adminMessages.passwordTooShort)).toBeVisible();
  await dialog.getByLabel(labels.common.newPassword, { exact: true }).fill('123456');
  await dialog.getByLabel(labels.common.confirmNewPassword, { exact: true }).fill('1234567');
  await save.click();
  await expect(dialog.getByText(adminMessages.passwordsDontMatch)).toBeVisible();
  await shot(page, 'admin-change-password');
  await dialog.getByLabel(labels.common.confirmNewPassword, { exact: true }).fill('123456');
  await save.click();
  await expect(toast(page, adminMessages.passwordChanged)).toBeVisible();
  await expect(dialog).toBeHidden();
  await app.server.call('auth', { email: customer.email, password: '123456' });
  await expect(app.server.call('auth', { email: customer.email, password: 'senha123' })).rejects.toThrow();
});

test('edit an owner row’s account: each limit’s message, a limit below usage, saved', async ({ page }) => {
  const tag = unique();
  const customer = await newAccount(`Limites ${tag}`);
  await openCustomers(page);
  await search(page, customer.email, L.total(1));
  await rowOf(page, customer.email).getByRole('button', { name: L.editAccount }).click();
  const dialog = page.getByRole('dialog', { name: L.editAccountTitle(customer.accountName) });
  const field = (label: string) => dialog.getByRole('textbox', { name: label });
  const save = dialog.getByRole('button', { name: 'Salvar' });
  await expect(dialog.getByText(L.inUse(1))).toBeVisible();

  const cases: [string, string, string][] = [
    [L.maxChannels, '-1', messages.maxChannelsInvalid],
    [L.maxOfficialChannels, 'abc', messages.maxOfficialChannelsInvalid],
    [L.maxUsers, '', messages.maxUsersInvalid],
    [L.maxFlows, '1.5', messages.maxFlowsInvalid],
  ];
  for (const [label, bad, message] of cases) {
    const before = await field(label).inputValue();
    await field(label).fill(bad);
    await save.click();
    await expect(dialog.getByText(message)).toBeVisible();
    await field(label).fill(before);
    await expect(dialog.getByText(message)).toHaveCount(0);
  }
  // The account has its owner: no fewer than one user.
  await field(L.maxUsers).fill('0');
  await save.click();
  await expect(dialog.getByText(adminMessages.limitBelowUsage(adminMessages.usageUsers, 1))).toBeVisible();
  await shot(page, 'admin-edit-account-error');
  await field(L.maxUsers).fill('7');
  await field(L.maxChannels).fill('4');
  await dialog.getByRole('switch', { name: L.customNegotiation }).check({ force: true });
  await save.click();
  await expect(toast(page, adminMessages.accountUpdated)).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(rowOf(page, customer.email)).toContainText(messages.yes);
  await rowOf(page, customer.email).getByRole('button', { name: L.editAccount }).click();
  await expect(field(L.maxUsers)).toHaveValue('7');
  await expect(field(L.maxChannels)).toHaveValue('4');
});

test('official numbers: WABA, its numbers from the provider, create, register with the PIN, delete', async ({
  page,
}) => {
  const tag = unique();
  const waba = String(Date.now()).slice(-9) + (project() === 'phone' ? '1' : '2');
  const first = `${waba}01`;
  graph.wabas[waba] = {
    name: `WABA ${tag}`,
    phone_numbers: [
      {
        id: first,
        display_phone_number: '+55 11 4000-1001',
        verified_name: 'Loja Um',
        quality_rating: 'GREEN',
      },
      {
        id: `${waba}02`,
        display_phone_number: '+55 11 4000-1002',
        verified_name: 'Loja Dois',
        quality_rating: 'RED',
      },
    ],
  };
  const customer = await newAccount(`Numeros ${tag}`);
  await app.server.call(
    'update-account',
    { _id: customer.account, max_channels: 1, max_official_channels: 1, max_users: 3, max_flows: 1 },
    await adminToken(),
  );
  await openCustomers(page);
  await search(page, customer.email, L.total(1));
  await rowOf(page, customer.email).getByRole('button', { name: L.configureNumbers }).click();
  const dialog = page.getByRole('dialog', { name: L.numbersTitle(customer.accountName) });
  await expect(dialog.getByText(L.noWabas)).toBeVisible();
  await expect(dialog.getByText(L.noChips)).toBeVisible();

  const wabaField = dialog.getByRole('textbox', { name: L.wabaId });
  await wabaField.fill('abc');
  await dialog.getByRole('button', { name: L.addWaba }).click();
  await expect(dialog.getByText(adminMessages.wabaInvalid)).toBeVisible();
  await wabaField.fill(waba);
  await dialog.getByRole('button', { name: L.addWaba }).click();
  await expect(dialog.getByRole('combobox', { name: L.waba })).toHaveValue(`WABA ${tag} (${waba})`);
  const provider = dialog.getByRole('list', { name: L.providerNumbers });
  await expect(provider.getByRole('listitem')).toHaveCount(2);
  await expect(provider.getByRole('listitem', { name: '+55 11 4000-1002' })).toContainText(
    L.qualityLabel('RED'),
  );
  await shot(page, 'admin-numbers');

  await provider
    .getByRole('listitem', { name: '+55 11 4000-1001' })
    .getByRole('button', { name: L.createChip })
    .click();
  await expect(toast(page, messages.numberCreated)).toBeVisible();
  const chip = dialog
    .getByRole('list', { name: L.chips })
    .getByRole('listitem', { name: '+55 11 4000-1001' });
  await expect(chip).toContainText(L.notRegistered);
  await expect(provider.getByRole('listitem', { name: '+55 11 4000-1001' }).getByRole('button')).toHaveCount(
    0,
  );

  const pin = chip.getByRole('textbox', { name: L.pin });
  await pin.fill('12');
  await chip.getByRole('button', { name: L.register }).click();
  await expect(chip.getByText(adminMessages.pinInvalid)).toBeVisible();
  await pin.fill('123456');
  await chip.getByRole('button', { name: L.register }).click();
  await expect(toast(page, messages.numberUpdated)).toBeVisible();
  await expect(chip).toContainText(L.registered);
  expect(graph.registered[first]).toBe(true);
  await chip.getByRole('button', { name: L.unregister }).click();
  await expect(chip).toContainText(L.notRegistered);
  expect(graph.registered[first]).toBe(false);
  // Another PIN than the number's two-step verification one: refused by Meta, said in pt-BR.
  await chip.getByRole('textbox', { name: L.pin }).fill('654321');
  await chip.getByRole('button', { name: L.register }).click();
  await expect(chip.getByText(adminMessages.pinMismatch)).toBeVisible();
  await expect(chip).toContainText(L.notRegistered);
  await shot(page, 'admin-numbers-pin');

  // Issue 34 item 2 (spec 3 §4): the status by hand; the customer's /chips follows live.
  const owner = await page.context().browser()?.newContext({ locale: 'pt-BR', serviceWorkers: 'block' });
  if (!owner) throw new Error('no browser');
  const ownerPage = await owner.newPage();
  await signedIn(ownerPage, app.server, customer.email, 'senha123');
  await ownerPage.goto(`${app.server.url}/chips`);
  const ownerRow = ownerPage.getByRole('row').filter({ hasText: '+55 11 4000-1001' });
  await expect(ownerRow).toContainText(messages.chipStatusLabels.configuring);
  await chip.getByRole('combobox', { name: L.chipStatus }).click();
  await page.getByRole('option', { name: messages.chipStatusLabels.close }).click();
  await expect(toast(page, messages.numberUpdated)).toBeVisible();
  await expect(ownerRow).toContainText(messages.chipStatusLabels.close);
  await shot(page, 'admin-numbers-status');
  await owner.close();

  await chip.getByRole('button', { name: L.deleteNumber }).click();
  const confirmDialog = page.getByRole('dialog', { name: L.deleteNumber });
  await expect(confirmDialog).toContainText(L.deleteNumberQuestion('+55 11 4000-1001'));
  await confirmDialog.getByRole('button', { name: 'Confirmar' }).click();
  await expect(toast(page, messages.numberDeleted)).toBeVisible();
  await expect(dialog.getByText(L.noChips)).toBeVisible();
});
