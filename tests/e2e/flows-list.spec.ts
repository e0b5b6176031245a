// The flow list (/flows, spec 3 §2.8, §4, §8) as a manager uses it: create (then the editor opens), duplicate
// under a new name, export to a file and import that file back, the import's refusals, delete; and the flow
// offered where flows are picked (the chips dialog). Phone and desktop share a server: names carry the project.
import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { messages } from '@/shared/messages';
import { calm, isPhone, mainMenu, shot } from './app';
import { expect, test } from './fixtures';

test.use({ seed: 'demo', ...calm });

const project = () => test.info().project.name;
const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });
const look = (page: Page, name: string) =>
  page.screenshot({ path: `test-results/screens/flows-${name}-${project()}.png` });

/** The rows of the list: table rows on desktop, cards on phones. */
const rows = (page: Page) =>
  isPhone()
    ? page.getByRole('list', { name: 'Fluxos' }).getByRole('listitem')
    : page.getByRole('table', { name: 'Fluxos' }).getByRole('row');
/** A flow's row by its exact name (the name is the row's link). */
const rowOf = (page: Page, name: string) =>
  rows(page).filter({ has: page.getByRole('link', { name, exact: true }) });

async function openFlows(page: Page) {
  await page.goto('/atendimento');
  const menu = await mainMenu(page);
  await menu.getByRole('link', { name: 'Fluxos' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Fluxos' })).toBeVisible();
}

async function rowAction(row: Locator, action: string) {
  await row.getByRole('button', { name: action }).click();
}

test('create, duplicate, export, import (and its refusals), delete', { tag: '@phone' }, async ({
  page,
  signIn,
}) => {
  // A long walk through every action of the list: a loaded CI machine needs more than the default minute.
  test.setTimeout(150_000);
  await signIn(page, 'gerente@demo.com');
  const name = `Boas-vindas ${project()} ${Date.now().toString(36)}`;
  const copy = `${name} cópia`;
  await openFlows(page);
  await expect(page.getByRole('button', { name: 'Saiba mais' })).toBeVisible();
  await shot(page, 'flows-list');

  // Novo fluxo: the name is required; then the editor opens on the new flow.
  await page.getByRole('button', { name: 'Novo fluxo' }).click();
  const create = page.getByRole('dialog', { name: 'Novo fluxo' });
  await create.getByRole('button', { name: 'Criar' }).click();
  await expect(create.getByText(messages.nameRequired)).toBeVisible();
  await look(page, 'create-error');
  await create.getByLabel('Nome').fill(name);
  await create.getByRole('button', { name: 'Criar' }).click();
  await expect(toast(page, messages.flowCreated)).toBeVisible();
  await expect(page).toHaveURL(/\/flows\/[0-9A-Z]{28}$/);
  const id = new URL(page.url()).pathname.split('/').pop();

  await page.goto('/flows');
  const row = rowOf(page, name);
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Sem gatilho');
  await expect(row.getByRole('link', { name })).toHaveAttribute('href', `/flows/${id}`);
  // Editar opens the editor of that flow.
  await rowAction(row, 'Editar');
  await expect(page).toHaveURL(new RegExp(`/flows/${id}$`));
  await page.goto('/flows');

  // Duplicar asks for the new name, required.
  await rowAction(rowOf(page, name), 'Duplicar');
  const duplicate = page.getByRole('dialog', { name: 'Duplicar fluxo' });
  const newName = duplicate.getByLabel('Nome do novo fluxo');
  await expect(newName).toHaveValue(`${name} (cópia)`);
  await newName.fill('');
  await duplicate.getByRole('button', { name: 'Duplicar' }).click();
  await expect(duplicate.getByText(messages.nameRequired)).toBeVisible();
  await newName.fill(copy);
  await look(page, 'duplicate');
  await duplicate.getByRole('button', { name: 'Duplicar' }).click();
  await expect(toast(page, messages.flowDuplicated)).toBeVisible();
  await expect(duplicate).toBeHidden();
  await expect(rowOf(page, copy)).toHaveCount(1);

  // Exportar downloads <name>.json: the flow with its account, 'Início' first.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    rowAction(rowOf(page, name), 'Exportar'),
  ]);
  expect(download.suggestedFilename()).toBe(`${name}.json`);
  const exportedPath = test.info().outputPath('exported.json');
  await download.saveAs(exportedPath);
  const exported = JSON.parse(await readFile(exportedPath, 'utf8'));
  expect(exported).toMatchObject({
    name,
    account: expect.stringMatching(/^[0-9A-Z]{28}$/),
    nodes: [expect.objectContaining({ type: 'start' })],
    connections: [],
    trigger: false,
  });

  // Importar: no file, a file that is not a flow, then the exported file.
  await page.getByRole('button', { name: 'Importar', exact: true }).click();
  const importing = page.getByRole('dialog', { name: 'Importar fluxo' });
  const submit = importing.getByRole('button', { name: 'Importar', exact: true });
  await submit.click();
  await expect(importing.getByText('Nenhum arquivo selecionado')).toBeVisible();
  const input = importing.locator('input[type="file"]');
  await input.setInputFiles({
    name: 'lista.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"a":1}'),
  });
  await submit.click();
  await expect(importing.getByText('Arquivo de fluxo inválido')).toBeVisible();
  await input.setInputFiles({
    name: 'foto.json',
    mimeType: 'application/json',
    buffer: Buffer.from('não é json'),
  });
  await submit.click();
  await expect(importing.getByText('Arquivo de fluxo inválido')).toBeVisible();
  await look(page, 'import-error');
  await input.setInputFiles(exportedPath);
  await submit.click();
  await expect(toast(page, messages.flowImported)).toBeVisible();
  await expect(importing).toBeHidden();
  // The import of its own export is named as a duplicate is.
  await expect(rowOf(page, name)).toHaveCount(1);
  await expect(rowOf(page, `${name} (cópia)`)).toHaveCount(1);

  // Apagar asks first; Cancelar keeps it, Confirmar deletes it.
  await rowAction(rowOf(page, copy), 'Apagar');
  const ask = page.getByRole('dialog', { name: 'Apagar fluxo' });
  await expect(ask).toContainText(copy);
  await ask.getByRole('button', { name: 'Cancelar' }).click();
  await expect(rowOf(page, copy)).toHaveCount(1);
  await rowAction(rowOf(page, copy), 'Apagar');
  await page.getByRole('dialog', { name: 'Apagar fluxo' }).getByRole('button', { name: 'Confirmar' }).click();
  await expect(toast(page, messages.flowDeleted)).toBeVisible();
  await expect(rowOf(page, copy)).toHaveCount(0);
  await page.reload();
  await expect(rowOf(page, name)).toHaveCount(1);
  await expect(rowOf(page, `${name} (cópia)`)).toHaveCount(1);
  await expect(rowOf(page, copy)).toHaveCount(0);

  // Saiba mais explains flows.
  await page.getByRole('button', { name: 'Saiba mais' }).click();
  const help = page.getByRole('dialog', { name: 'Fluxos (chatbot de fluxo)' });
  await expect(help).toBeVisible();
  await look(page, 'help');
  await help.getByRole('button').first().click();
  await expect(help).toBeHidden();
  await shot(page, 'flows-list-after');
});

test('the chips dialog offers the account flows for a flow chatbot', async ({ page, signIn, server }) => {
  const token = await signIn(page, 'gerente@demo.com');
  const name = `Triagem ${project()} ${Date.now().toString(36)}`;
  await server.call('create-or-update-flow', { name }, token);
  await page.goto('/chips');
  await page.getByRole('button', { name: 'Novo chip' }).click();
  const dialog = page.getByRole('dialog', { name: 'Novo chip' });
  await dialog.getByRole('combobox', { name: 'Tipo do primeiro atendimento' }).click();
  await page.getByRole('option', { name: 'Chatbot de fluxo', exact: true }).click();
  await dialog.getByRole('combobox', { name: 'Fluxo', exact: true }).click();
  await expect(page.getByRole('option', { name, exact: true })).toBeVisible();
  await look(page, 'chip-dialog-flows');
  await page.getByRole('option', { name, exact: true }).click();
  await expect(dialog.getByRole('combobox', { name: 'Fluxo', exact: true })).toHaveValue(name);
});
