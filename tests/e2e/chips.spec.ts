// Meus chips (spec 3 §2.6, §4, §5) as a manager uses it: the dialog's rules, the name as stored, the plan's
// limits, a QR connection through the built-in simulator with its live status in the row and the top bar,
// disconnect and reset, the support dialog of an official number; and an attendant kept out.
// Every chip name carries the project's name; each test removes the chips it made.
import { mkdir } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { messages } from '@/shared/messages';
import { chipMessages } from '@/shared/messages-chips';
import { calm, createChip, isPhone, mainMenu } from './app';
import { type AppServer, expect, test } from './fixtures';

test.use({ seed: 'demo', ...calm });

const project = () => test.info().project.name;
const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });

const SHOTS = '/tmp/shots';
/** What the person sees (a full-screen dialog is cut by a full-page screenshot): /tmp/shots/<name>-<project>.png */
async function look(page: Page, name: string, fullPage = false) {
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/chips-${name}-${project()}.png`, fullPage });
}

/** The chips: table rows on desktop, cards on phones. */
const rows = (page: Page) =>
  isPhone()
    ? page.getByRole('list', { name: 'Chips' }).getByRole('listitem')
    : page.getByRole('table', { name: 'Chips' }).getByRole('row');
const rowOf = (page: Page, name: string) => rows(page).filter({ hasText: name });
const action = (row: Locator, name: string) => row.getByRole('button', { name, exact: true });

async function closeToasts(page: Page) {
  const close = page.getByRole('alert').getByRole('button', { name: 'Fechar' });
  while ((await close.count()) > 0)
    await close
      .first()
      .click({ timeout: 2000 })
      .catch(() => undefined);
}

async function confirmDialog(page: Page, title: string) {
  const dialog = page.getByRole('dialog', { name: title });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Confirmar' }).click();
  await expect(dialog).toBeHidden();
}

/** Salvar, then the message the dialog shows (it stays open). */
async function saveExpecting(dialog: Locator, message: string) {
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(dialog.getByText(message, { exact: true })).toBeVisible();
  await expect(dialog).toBeVisible();
}

async function choose(page: Page, dialog: Locator, field: string, option: string) {
  await dialog.getByRole('combobox', { name: field }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function openChips(page: Page) {
  await page.goto('/atendimento');
  const menu = await mainMenu(page);
  await menu.getByRole('link', { name: 'Meus chips' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Meus chips' })).toBeVisible();
}

/** Removes the chips a test made, whatever happened to it. */
async function removeChips(server: AppServer, token: string, ids: string[]) {
  for (const _id of ids) await server.call('create-or-update-chip', { _id, filed: true }, token);
}

test('a manager creates a chip through each rule, the name stored without accents; edits and deletes it', {
  tag: '@phone',
}, async ({ page, signIn, server }) => {
  const token = await signIn(page, 'gerente@demo.com');
  await openChips(page);
  await expect(page.getByText(messages.noChips)).toBeVisible();
  await page.getByRole('button', { name: 'Saiba mais' }).click();
  const help = page.getByRole('dialog', { name: 'Chips (números conectados)' });
  await expect(help).toBeVisible();
  await help.getByRole('button', { name: 'Fechar' }).click();
  await expect(help).toBeHidden();

  await page.getByRole('button', { name: 'Novo chip' }).click();
  const dialog = page.getByRole('dialog', { name: 'Novo chip' });
  await expect(dialog.getByRole('combobox', { name: 'Tipo do primeiro atendimento' })).toHaveValue(
    'Chatbot IA',
  );
  await expect(dialog.getByRole('switch', { name: 'Número da API Oficial' })).not.toBeChecked();
  await saveExpecting(dialog, messages.chipNameRequired);
  await dialog.getByLabel('Nome').fill('  !!! ');
  await saveExpecting(dialog, messages.chipNameRequired);

  // The name as it will be stored: no accents, only letters, digits and spaces.
  const typed = `Recepção São João — ${project()}!`;
  const stored = `Recepcao Sao Joao ${project()}`;
  await dialog.getByLabel('Nome').fill(typed);
  await expect(dialog.getByText(chipMessages.chipNameStoredAs(stored))).toBeVisible();

  // Chatbot IA (the default) needs a chatbot; there are none yet.
  await saveExpecting(dialog, messages.chipChatbotRequired);
  await dialog.getByRole('combobox', { name: 'Chatbot', exact: true }).click();
  await expect(page.getByText('Nenhum chatbot cadastrado')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  await look(page, 'dialog-error');
  // Picking the chosen 'Chatbot IA' again keeps it (it used to clear the field).
  await choose(page, dialog, 'Tipo do primeiro atendimento', 'Chatbot IA');
  await expect(dialog.getByRole('combobox', { name: 'Tipo do primeiro atendimento' })).toHaveValue(
    'Chatbot IA',
  );

  // Chatbot de fluxo needs a flow.
  await choose(page, dialog, 'Tipo do primeiro atendimento', 'Chatbot de fluxo');
  await expect(dialog.getByRole('combobox', { name: 'Chatbot', exact: true })).toHaveCount(0);
  await expect(dialog.getByRole('combobox', { name: 'Fluxo', exact: true })).toBeVisible();
  await saveExpecting(dialog, messages.chipFlowRequired);

  // Atendimento humano: only the department is missing.
  await choose(page, dialog, 'Tipo do primeiro atendimento', 'Atendimento humano');
  await expect(dialog.getByRole('combobox', { name: 'Fluxo', exact: true })).toHaveCount(0);
  await saveExpecting(dialog, messages.chipDepartmentRequired);
  await choose(page, dialog, 'Departamento de entrada', 'Suporte');
  await expect(dialog.getByText(messages.chipDepartmentRequired)).toHaveCount(0);
  await look(page, 'dialog');
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(toast(page, chipMessages.chipCreated)).toBeVisible();
  await expect(dialog).toBeHidden();

  const row = rowOf(page, stored);
  await expect(row).toBeVisible();
  for (const text of ['Desconectado', 'QR code', 'Atendimento humano', 'Suporte', '—'])
    await expect(row).toContainText(text);
  const saved = (await server.call<{ name: string }[]>('get-chip-numbers-by-user', {}, token)).map(
    (c) => c.name,
  );
  expect(saved).toContain(stored);
  await closeToasts(page);
  await look(page, 'page', true);

  // Edit: the values come back; a new department and name.
  await action(row, 'Editar').click();
  const edit = page.getByRole('dialog', { name: 'Editar chip' });
  await expect(edit.getByLabel('Nome')).toHaveValue(stored);
  await expect(edit.getByRole('combobox', { name: 'Tipo do primeiro atendimento' })).toHaveValue(
    'Atendimento humano',
  );
  await expect(edit.getByRole('combobox', { name: 'Departamento de entrada' })).toHaveValue('Suporte');
  // The official flag is chosen only on creation.
  await expect(edit.getByRole('switch', { name: 'Número da API Oficial' })).toHaveCount(0);
  await edit.getByLabel('Nome').fill(`${stored} Vendas`);
  await choose(page, edit, 'Departamento de entrada', 'Vendas');
  await edit.getByRole('button', { name: 'Salvar' }).click();
  await expect(toast(page, chipMessages.chipUpdated)).toBeVisible();
  await expect(edit).toBeHidden();
  const edited = rowOf(page, `${stored} Vendas`);
  await expect(edited).toContainText('Vendas');

  // Delete asks first.
  await action(edited, 'Apagar').click();
  await expect(page.getByRole('dialog', { name: 'Apagar chip' })).toContainText(
    chipMessages.chipDeleteConfirm(`${stored} Vendas`),
  );
  await confirmDialog(page, 'Apagar chip');
  await expect(toast(page, messages.numberDeleted)).toBeVisible();
  await expect(rowOf(page, stored)).toHaveCount(0);
});

test('connect by QR code: the simulator link, the scan, Conectado in the row and the top bar; disconnect; reset', {
  tag: '@phone',
}, async ({ page, signIn, server }) => {
  const token = await signIn(page, 'gerente@demo.com');
  const name = `Loja QR ${project()}`;
  const chip = await createChip(server, token, { name, department: 'Vendas' });
  try {
    await page.goto('/chips');
    const row = rowOf(page, name);
    await expect(row).toContainText('Desconectado');
    const topBarChip = (state: string) =>
      page
        .getByRole('group', { name: 'Chips' })
        .getByRole('button', { name: `${name}: ${state}`, exact: true });
    await expect(topBarChip('desconectado')).toBeVisible();

    // Conectar: the QR code arrives (answer and socket) and its dialog opens.
    await action(row, 'Conectar').click();
    const dialog = page.getByRole('dialog', { name: 'Conectar número' });
    await expect(dialog).toBeVisible();
    const qr = dialog.getByRole('img', { name: 'QR code de conexão' });
    await expect(qr).toBeVisible();
    expect(await qr.evaluate((el) => el.tagName)).toBe('CANVAS');
    await expect(dialog).toContainText(name);
    await expect(dialog).toContainText(chipMessages.simulatorQrInstructions);
    const link = dialog.getByRole('link', { name: 'Abrir o simulador' });
    await expect(link).toHaveAttribute('target', '_blank');
    const href = (await link.getAttribute('href')) ?? '';
    expect(href).toContain('/simulador/');
    const url = new URL(href);
    expect(url.origin).toBe(new URL(page.url()).origin);
    await look(page, 'qr-dialog');

    // Closed, the code still waits: Conectar is hidden and the row offers the code again.
    await dialog.getByRole('button', { name: 'Fechar' }).click();
    await expect(dialog).toBeHidden();
    await expect(row).toContainText('Conectando');
    await expect(action(row, 'Conectar')).toHaveCount(0);
    await action(row, 'Mostrar QR code').click();
    await expect(dialog.getByRole('img', { name: 'QR code de conexão' })).toBeVisible();

    // The scan: the simulator page opened with the code's pairing link.
    const simulatorToken = url.pathname.split('/')[2] ?? '';
    const pair = url.searchParams.get('pair') ?? '';
    expect(pair).not.toBe('');
    const opened = await server.call<{ connected: boolean }>('simulator-open', {
      token: simulatorToken,
      pair,
    });
    expect(opened.connected).toBe(true);
    await expect(dialog).toBeHidden();
    await expect(row).toContainText('Conectado');
    await expect(action(row, 'Conectar')).toHaveCount(0);
    await expect(topBarChip('conectado')).toBeVisible();
    await look(page, 'connected', true);
    // The top bar's chip opens the drawer, which reads the same live status.
    await topBarChip('conectado').click();
    const drawer = page.getByRole('dialog', { name: 'Status dos chips' });
    await expect(drawer.getByRole('listitem').filter({ hasText: name })).toContainText('Conectado');
    await look(page, 'drawer');
    await drawer.getByRole('button', { name: 'Fechar' }).click();
    await expect(drawer).toBeHidden();

    // Desconectar asks first.
    await action(row, 'Desconectar').click();
    await expect(page.getByRole('dialog', { name: 'Desconectar' })).toContainText(
      chipMessages.chipDisconnectConfirm(name),
    );
    await confirmDialog(page, 'Desconectar');
    await expect(row).toContainText('Desconectado');
    await expect(topBarChip('desconectado')).toBeVisible();

    // Resetar conexão: first among the actions, away from Editar; the old link no longer works.
    const names = await row
      .getByRole('button')
      .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label') ?? b.textContent ?? ''));
    const reset = names.findIndex((n) => n.includes('Resetar conexão'));
    const edit = names.findIndex((n) => n.includes('Editar'));
    expect(reset).toBeGreaterThanOrEqual(0);
    expect(edit - reset).toBeGreaterThan(1);
    await action(row, 'Resetar conexão').click();
    await expect(page.getByRole('dialog', { name: 'Resetar conexão' })).toContainText(
      chipMessages.chipResetConfirm(name),
    );
    await look(page, 'reset-dialog');
    await confirmDialog(page, 'Resetar conexão');
    await expect(toast(page, chipMessages.operationSucceeded)).toBeVisible();
    await expect(server.call('simulator-open', { token: simulatorToken })).rejects.toThrow(
      messages.simulatorLinkInvalid,
    );
    await expect(action(row, 'Conectar')).toBeVisible();
  } finally {
    await removeChips(server, token, [chip._id]);
  }
});

test('an official number is created in the new state (Desconectado, spec 3 §4); its connect opens the support dialog', async ({
  page,
  signIn,
  server,
}) => {
  const token = await signIn(page, 'gerente@demo.com');
  const name = `Oficial ${project()}`;
  await page.goto('/chips');
  await page.getByRole('button', { name: 'Novo chip' }).click();
  const dialog = page.getByRole('dialog', { name: 'Novo chip' });
  await dialog.getByLabel('Nome').fill(name);
  await choose(page, dialog, 'Tipo do primeiro atendimento', 'Atendimento humano');
  await choose(page, dialog, 'Departamento de entrada', 'Vendas');
  await dialog.getByRole('switch', { name: 'Número da API Oficial' }).click();
  await expect(dialog.getByText(chipMessages.officialChipHint)).toBeVisible();
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(toast(page, messages.numberCreated)).toBeVisible();
  await expect(dialog).toBeHidden();
  const row = rowOf(page, name);
  await expect(row).toContainText('Desconectado');
  await expect(row).toContainText('API Oficial');
  // No QR code: no reset for an official number.
  await expect(action(row, 'Resetar conexão')).toHaveCount(0);
  const official = (
    await server.call<{ _id: string; name: string }[]>('get-chip-numbers-by-user', {}, token)
  ).find((c) => c.name === name);
  try {
    await action(row, 'Conectar').click();
    const support = page.getByRole('dialog', { name: 'Número da API Oficial' });
    await expect(support).toContainText(messages.officialChipSupport);
    await closeToasts(page);
    await look(page, 'support-dialog');
    await support.getByRole('button', { name: 'Entendi' }).click();
    await expect(support).toBeHidden();
    // Nothing was asked of the server: the row is as it was, the page did not reload.
    await expect(row).toContainText('Desconectado');

    // The plan has one official number.
    await page.getByRole('button', { name: 'Novo chip' }).click();
    await dialog.getByLabel('Nome').fill(`${name} 2`);
    await choose(page, dialog, 'Tipo do primeiro atendimento', 'Atendimento humano');
    await choose(page, dialog, 'Departamento de entrada', 'Vendas');
    await dialog.getByRole('switch', { name: 'Número da API Oficial' }).click();
    await saveExpecting(dialog, messages.officialChannelLimitReached(1));
  } finally {
    if (official) await removeChips(server, token, [official._id]);
  }
});

test('beyond the plan’s 5 numbers the dialog says so and stays open', async ({ page, signIn, server }) => {
  const token = await signIn(page, 'gerente@demo.com');
  const existing = (await server.call<{ official: boolean }[]>('get-chip-numbers-by-user', {}, token)).filter(
    (c) => !c.official,
  ).length;
  const made: string[] = [];
  try {
    for (let i = existing; i < 5; i++)
      made.push(
        (await createChip(server, token, { name: `Limite ${i} ${project()}`, department: 'Suporte' }))._id,
      );
    await page.goto('/chips');
    await expect(rows(page).filter({ hasText: 'Limite' })).toHaveCount(5 - existing);
    await page.getByRole('button', { name: 'Novo chip' }).click();
    const dialog = page.getByRole('dialog', { name: 'Novo chip' });
    await dialog.getByLabel('Nome').fill(`Sexto ${project()}`);
    await choose(page, dialog, 'Tipo do primeiro atendimento', 'Atendimento humano');
    await choose(page, dialog, 'Departamento de entrada', 'Suporte');
    await saveExpecting(dialog, messages.channelLimitReached(5));
    await look(page, 'limit');
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await expect(dialog).toBeHidden();
    await expect(rowOf(page, `Sexto ${project()}`)).toHaveCount(0);
  } finally {
    await removeChips(server, token, made);
  }
});

test("an attendant opening /chips gets 'Permissões insuficientes.' and has no menu entry", async ({
  page,
  signIn,
}) => {
  await signIn(page, 'atendente@demo.com');
  await page.goto('/chips');
  await expect(toast(page, messages.insufficientPermissions)).toBeVisible();
  await expect(page).toHaveURL(/\/atendimento$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Atendimento' })).toBeVisible();
  const menu = await mainMenu(page);
  await expect(menu.getByRole('link', { name: 'Meus chips' })).toHaveCount(0);
});
