// Issue 4's screens as a manager uses them: tags, departments, quick messages and the team, with every
// validation message, the confirmations, the success texts and the owner row that cannot be touched.
// Phone and desktop share one server per worker, so every name carries the project's name.
import type { Locator, Page } from '@playwright/test';
import { messages } from '@/shared/messages';
import { calm, isPhone, mainMenu, shot } from './app';
import { expect, test } from './fixtures';

test.use({ seed: 'demo', ...calm });

const project = () => test.info().project.name;
const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });

/** The rows of a list screen: table rows on desktop, cards on phones. */
const rows = (page: Page, label: string) =>
  isPhone()
    ? page.getByRole('list', { name: label }).getByRole('listitem')
    : page.getByRole('table', { name: label }).getByRole('row');

/** A dialog as the person sees it (a full-screen dialog is cut by a full-page screenshot). */
const shotDialog = (page: Page, name: string) =>
  page.screenshot({ path: `test-results/screens/${name}-${project()}.png` });

/** Closes the toasts still on screen, so a screenshot shows what is under them. */
async function dismissToasts(page: Page) {
  const close = page.getByRole('alert').getByRole('button', { name: 'Fechar' });
  // A toast may close by itself meanwhile.
  while ((await close.count()) > 0)
    await close
      .first()
      .click({ timeout: 2000 })
      .catch(() => undefined);
}

const rowOf = (page: Page, label: string, text: string) => rows(page, label).filter({ hasText: text });

async function confirmDialog(page: Page, title: string, answer: 'Cancelar' | 'Confirmar') {
  const dialog = page.getByRole('dialog', { name: title });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: answer }).click();
  await expect(dialog).toBeHidden();
}

/** Salvar, then the message the dialog shows (it stays open). */
async function saveExpecting(dialog: Locator, message: string) {
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(dialog.getByText(message, { exact: true })).toBeVisible();
  await expect(dialog).toBeVisible();
}

async function openFromMenu(page: Page, link: string, title: string) {
  await page.goto('/atendimento');
  const menu = await mainMenu(page);
  await menu.getByRole('link', { name: link }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
}

test('tags: create with auto keywords, each validation message, edit, switch off, delete', {
  tag: '@phone',
}, async ({ page, signIn, server }) => {
  const token = await signIn(page, 'gerente@demo.com');
  const name = `Orçamento ${project()}`;
  await openFromMenu(page, 'Tags', 'Tags ou rótulos');

  await page.getByRole('button', { name: 'Nova tag' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nova tag' });
  await expect(dialog.getByLabel('Cor')).toHaveValue('#00FF00');
  await saveExpecting(dialog, messages.nameRequired);
  await dialog.getByLabel('Nome').fill(name);
  await dialog.getByLabel('Cor').fill('');
  await saveExpecting(dialog, messages.tagColorRequired);
  await dialog.getByLabel('Cor').fill('#1c7ed6');
  await dialog.getByLabel('Nome').click(); // closes the colour picker

  // The keyword input appears with the switch.
  const keyword = dialog.getByPlaceholder('Digite a aperte ENTER');
  await expect(keyword).toBeHidden();
  await dialog.getByRole('switch', { name: 'Associar automaticamente com palavras-chave' }).click();
  await expect(
    dialog.getByRole('switch', { name: 'Associar automaticamente com palavras-chave' }),
  ).toBeChecked();
  await saveExpecting(dialog, messages.tagKeywordsRequired);
  await keyword.press('Enter');
  await expect(dialog.getByText(messages.keywordRequired)).toBeVisible();
  await keyword.fill('preço');
  await keyword.press('Enter');
  await expect(keyword).toHaveValue('');
  await keyword.fill('PREÇO');
  await keyword.press('Enter');
  await expect(dialog.getByText(messages.keywordDuplicate)).toBeVisible();
  await shotDialog(page, 'tags-dialog-error');
  await keyword.fill('frete');
  await keyword.press('Enter');
  const keywords = dialog.getByRole('list', { name: 'Palavras-chave' }).getByRole('listitem');
  await expect(keywords).toHaveText(['preço', 'frete']);
  // Typed but not added: added on save.
  await keyword.fill('orçamento');
  await shotDialog(page, 'tags-dialog');
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(toast(page, messages.tagSaved)).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(rowOf(page, 'Tags', name)).toContainText('#1C7ED6');
  const saved = await server.call<{ name: string; keywords: string[]; auto_tag: boolean }[]>(
    'get-tags-by-user',
    {},
    token,
  );
  expect(saved.find((t) => t.name === name)).toMatchObject({
    auto_tag: true,
    keywords: ['preço', 'frete', 'orçamento'],
  });
  await shot(page, 'tags');

  // Edit: the keywords come back as a list; one is removed.
  await rowOf(page, 'Tags', name).getByRole('button', { name: 'Editar' }).click();
  const edit = page.getByRole('dialog', { name: 'Editar tag' });
  await expect(edit.getByLabel('Nome')).toHaveValue(name);
  await expect(edit.getByRole('list', { name: 'Palavras-chave' }).getByRole('listitem')).toHaveText([
    'preço',
    'frete',
    'orçamento',
  ]);
  await edit.getByRole('button', { name: 'Remover palavra-chave frete' }).click();
  await edit.getByRole('button', { name: 'Salvar' }).click();
  await expect(toast(page, messages.tagSaved).first()).toBeVisible();
  await expect(edit).toBeHidden();
  await expect
    .poll(async () =>
      (await server.call<{ name: string; keywords: string[] }[]>('get-tags-by-user', {}, token)).find(
        (t) => t.name === name,
      ),
    )
    .toMatchObject({ keywords: ['preço', 'orçamento'] });

  // Switched off: the keywords are cleared on save.
  await rowOf(page, 'Tags', name).getByRole('button', { name: 'Editar' }).click();
  await edit.getByRole('switch', { name: 'Associar automaticamente com palavras-chave' }).click();
  await expect(edit.getByPlaceholder('Digite a aperte ENTER')).toBeHidden();
  await edit.getByRole('button', { name: 'Salvar' }).click();
  await expect(edit).toBeHidden();
  await expect
    .poll(async () =>
      (await server.call<{ name: string; keywords: string[] }[]>('get-tags-by-user', {}, token)).find(
        (t) => t.name === name,
      ),
    )
    .toMatchObject({ auto_tag: false, keywords: [] });
  await rowOf(page, 'Tags', name).getByRole('button', { name: 'Editar' }).click();
  await edit.getByRole('switch', { name: 'Associar automaticamente com palavras-chave' }).click();
  await expect(edit.getByText('Nenhuma palavra-chave adicionada.')).toBeVisible();
  await edit.getByRole('button', { name: 'Cancelar' }).click();
  await expect(edit).toBeHidden();

  // Delete asks first; Cancelar keeps the tag.
  await rowOf(page, 'Tags', name).getByRole('button', { name: 'Apagar' }).click();
  await expect(page.getByRole('dialog', { name: 'Apagar tag' })).toContainText(
    `Deseja apagar a tag "${name}"?`,
  );
  await dismissToasts(page);
  await shotDialog(page, 'tags-confirm');
  await confirmDialog(page, 'Apagar tag', 'Cancelar');
  await expect(rowOf(page, 'Tags', name)).toBeVisible();
  await rowOf(page, 'Tags', name).getByRole('button', { name: 'Apagar' }).click();
  await confirmDialog(page, 'Apagar tag', 'Confirmar');
  await expect(toast(page, messages.tagDeleted)).toBeVisible();
  await expect(rowOf(page, 'Tags', name)).toHaveCount(0);
});

test('departments: create with the name rule, edit, delete with confirmation', async ({ page, signIn }) => {
  await signIn(page, 'gerente@demo.com');
  const name = `Financeiro ${project()}`;
  await openFromMenu(page, 'Departamentos', 'Departamentos');
  await expect(rowOf(page, 'Departamentos', 'Suporte')).toContainText('Dúvidas e problemas com pedidos');

  await page.getByRole('button', { name: 'Novo departamento' }).click();
  const dialog = page.getByRole('dialog', { name: 'Novo departamento' });
  await dialog.getByLabel('Nome').fill('   ');
  await saveExpecting(dialog, messages.nameRequired);
  await dialog.getByLabel('Nome').fill(name);
  await dialog.getByLabel('Descrição').fill('Boletos e notas fiscais');
  await shotDialog(page, 'departments-dialog');
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(toast(page, messages.departmentSaved)).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(rowOf(page, 'Departamentos', name)).toContainText('Boletos e notas fiscais');
  await shot(page, 'departments');

  await rowOf(page, 'Departamentos', name).getByRole('button', { name: 'Editar' }).click();
  const edit = page.getByRole('dialog', { name: 'Editar departamento' });
  await expect(edit.getByLabel('Descrição')).toHaveValue('Boletos e notas fiscais');
  await edit.getByLabel('Nome').fill('');
  await saveExpecting(edit, messages.nameRequired);
  await edit.getByLabel('Nome').fill(`${name} e Cobrança`);
  await edit.getByRole('button', { name: 'Salvar' }).click();
  await expect(edit).toBeHidden();
  await expect(rowOf(page, 'Departamentos', `${name} e Cobrança`)).toBeVisible();

  await rowOf(page, 'Departamentos', name).getByRole('button', { name: 'Apagar' }).click();
  await confirmDialog(page, 'Apagar departamento', 'Confirmar');
  await expect(toast(page, messages.departmentDeleted)).toBeVisible();
  await expect(rowOf(page, 'Departamentos', name)).toHaveCount(0);
  await expect(rowOf(page, 'Departamentos', 'Vendas')).toBeVisible();

  // Suporte is Ana's only department: the confirmation says so, and the server keeps it.
  await rowOf(page, 'Departamentos', 'Suporte').getByRole('button', { name: 'Apagar' }).click();
  const warning = page.getByRole('dialog', { name: 'Apagar departamento' });
  await expect(warning).toContainText(messages.departmentOnlyOf(['Ana Atendente']));
  await page.screenshot({ path: `/tmp/shots-config/department-only-${project()}.png` });
  await warning.getByRole('button', { name: 'Confirmar' }).click();
  await expect(toast(page, messages.departmentOnlyOf(['Ana Atendente']))).toBeVisible();
  await expect(rowOf(page, 'Departamentos', 'Suporte')).toBeVisible();
});

test('quick messages: the shortcut shown with /, each rule, a taken shortcut keeps the dialog open', async ({
  page,
  signIn,
}) => {
  await signIn(page, 'gerente@demo.com');
  const shortcut = `oi-${project()}`;
  await openFromMenu(page, 'Mensagens rápidas', 'Mensagens rápidas');

  await page.getByRole('button', { name: 'Nova mensagem rápida' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nova mensagem rápida' });
  await saveExpecting(dialog, messages.quickMessageShortcutRequired);
  // The '/' is part of the field's look, not of the value.
  await dialog.getByLabel('Atalho').fill(`/${shortcut}`);
  await expect(dialog.getByLabel('Atalho')).toHaveValue(shortcut);
  await saveExpecting(dialog, messages.quickMessageMessageRequired);
  await dialog.getByLabel('Mensagem').fill('Olá! Como posso ajudar você hoje?');
  await shotDialog(page, 'quick-messages-dialog');
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(toast(page, messages.quickMessageSaved)).toBeVisible();
  await expect(dialog).toBeHidden();
  const row = rowOf(page, 'Mensagens rápidas', `/${shortcut}`);
  await expect(row).toContainText('Olá! Como posso ajudar você hoje?');

  // The server refuses a repeated shortcut: its message shows and the dialog stays open.
  await page.getByRole('button', { name: 'Nova mensagem rápida' }).click();
  await dialog.getByLabel('Atalho').fill(shortcut.toUpperCase());
  await dialog.getByLabel('Mensagem').fill('Outra');
  await saveExpecting(dialog, messages.quickMessageShortcutTaken);
  await dialog.getByRole('button', { name: 'Cancelar' }).click();
  await expect(dialog).toBeHidden();
  await shot(page, 'quick-messages');

  await row.getByRole('button', { name: 'Editar' }).click();
  const edit = page.getByRole('dialog', { name: 'Editar mensagem rápida' });
  await expect(edit.getByLabel('Atalho')).toHaveValue(shortcut);
  await edit.getByLabel('Mensagem').fill('Bom dia! Em que posso ajudar?');
  await edit.getByRole('button', { name: 'Salvar' }).click();
  await expect(edit).toBeHidden();
  await expect(row).toContainText('Bom dia! Em que posso ajudar?');

  await row.getByRole('button', { name: 'Apagar' }).click();
  await confirmDialog(page, 'Apagar mensagem rápida', 'Confirmar');
  await expect(toast(page, messages.quickMessageDeleted)).toBeVisible();
  await expect(row).toHaveCount(0);
});

test('quick messages: 10 a page, the rest on the next', async ({ page, signIn, server }) => {
  const token = await signIn(page, 'gerente@demo.com');
  const prefix = `pg-${project()}-`;
  const created = await Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      server.call<{ _id: string }>(
        'create-or-update-quick-message',
        { shortcut: `${prefix}${String(i).padStart(2, '0')}`, message: `Mensagem ${i}` },
        token,
      ),
    ),
  );
  try {
    await page.goto('/mensagens-rapidas');
    await expect(rowOf(page, 'Mensagens rápidas', prefix)).toHaveCount(10);
    await page.getByRole('button', { name: 'Página 2' }).click();
    await expect(rowOf(page, 'Mensagens rápidas', prefix)).toHaveCount(2);
    await shot(page, 'quick-messages-page-2');
  } finally {
    for (const { _id } of created)
      await server.call('create-or-update-quick-message', { _id, filed: true }, token);
  }
});

test('team: the owner row has no actions; each rule; create, edit and delete an agent', {
  tag: '@phone',
}, async ({ page, signIn }) => {
  await signIn(page, 'gerente@demo.com');
  const email = `carla-${project()}@demo.com`;
  await openFromMenu(page, 'Minha Equipe', 'Minha Equipe');

  const owner = rowOf(page, 'Equipe', 'dono@demo.com');
  await expect(owner).toContainText('Proprietário(a)');
  await expect(owner.getByRole('button', { name: 'Editar' })).toHaveCount(0);
  await expect(owner.getByRole('button', { name: 'Apagar' })).toHaveCount(0);
  await expect(rowOf(page, 'Equipe', 'atendente@demo.com')).toContainText('Suporte');
  await expect(
    rowOf(page, 'Equipe', 'atendente@demo.com').getByRole('button', { name: 'Editar' }),
  ).toBeVisible();
  await shot(page, 'team');

  await page.getByRole('button', { name: 'Novo atendente' }).click();
  const dialog = page.getByRole('dialog', { name: 'Novo atendente' });
  await expect(dialog.getByRole('radio', { name: 'Atendente' })).toBeChecked();
  // An attendant can hold only contacts (spec 1 §6); a new manager starts with every area (spec 3 §6).
  await expect(dialog.getByRole('checkbox')).toHaveCount(1);
  await expect(dialog.getByRole('checkbox', { name: 'Contatos' })).toBeChecked();
  await dialog.getByRole('radio', { name: 'Gerente' }).check();
  await expect(dialog.getByRole('checkbox')).toHaveCount(12);
  for (const box of await dialog.getByRole('checkbox').all()) await expect(box).toBeChecked();
  await dialog.getByRole('radio', { name: 'Atendente' }).check();
  await expect(dialog.getByRole('checkbox', { name: 'Tags' })).toHaveCount(0);
  await saveExpecting(dialog, messages.teamAllFieldsRequired);
  await dialog.getByLabel('Nome').fill('Carla Souza');
  await dialog.getByLabel('E-mail').fill(email);
  await dialog.getByLabel('Senha', { exact: true }).fill('123456');
  await saveExpecting(dialog, messages.teamDepartmentRequired);
  await shotDialog(page, 'team-dialog-error');
  await dialog.getByRole('combobox', { name: 'Departamentos' }).click();
  await page.getByRole('option', { name: 'Suporte' }).click();
  await dialog.getByLabel('Senha', { exact: true }).fill('12345');
  await saveExpecting(dialog, messages.teamPasswordTooShort);
  await dialog.getByLabel('Senha', { exact: true }).fill('123456');
  // The server's answer: an e-mail already in use.
  await dialog.getByLabel('E-mail').fill('dono@demo.com');
  await saveExpecting(dialog, messages.emailInUse);
  await dialog.getByLabel('E-mail').fill(email);
  await shotDialog(page, 'team-dialog');
  await dialog.getByRole('button', { name: 'Salvar' }).scrollIntoViewIfNeeded();
  await shotDialog(page, 'team-dialog-end');
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(toast(page, messages.attendantCreated)).toBeVisible();
  await expect(dialog).toBeHidden();
  const row = rowOf(page, 'Equipe', email);
  await expect(row).toContainText('Carla Souza');
  await expect(row).toContainText('Atendente');
  await expect(row).toContainText('Suporte');

  // Editing: no password; made a manager, the departments field goes away.
  await row.getByRole('button', { name: 'Editar' }).click();
  const edit = page.getByRole('dialog', { name: 'Editar atendente' });
  await expect(edit.getByLabel('Nome')).toHaveValue('Carla Souza');
  await expect(edit.getByLabel('Senha', { exact: true })).toHaveCount(0);
  await expect(edit.getByRole('checkbox', { name: 'Tags' })).toHaveCount(0);
  await expect(edit.getByRole('checkbox', { name: 'Contatos' })).toBeChecked();
  await edit.getByRole('radio', { name: 'Gerente' }).check();
  await expect(edit.getByRole('checkbox', { name: 'Tags' })).toBeChecked();
  await expect(edit.getByRole('combobox', { name: 'Departamentos' })).toHaveCount(0);
  await edit.getByLabel('Nome').fill('Carla Souza Lima');
  await edit.getByRole('button', { name: 'Salvar' }).click();
  await expect(toast(page, messages.attendantUpdated)).toBeVisible();
  await expect(edit).toBeHidden();
  await expect(row).toContainText('Carla Souza Lima');
  await expect(row).toContainText('Gerente');

  await row.getByRole('button', { name: 'Apagar' }).click();
  await confirmDialog(page, 'Apagar atendente', 'Confirmar');
  await expect(toast(page, messages.attendantDeleted)).toBeVisible();
  await expect(row).toHaveCount(0);
});

test("an attendant opening the configuration screens gets 'Permissões insuficientes.'", async ({
  page,
  signIn,
}) => {
  await signIn(page, 'atendente@demo.com');
  for (const path of ['/tags', '/departamentos', '/equipe', '/mensagens-rapidas']) {
    await page.goto(path);
    await expect(toast(page, messages.insufficientPermissions)).toBeVisible();
    await expect(page).toHaveURL(/\/atendimento$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Atendimento' })).toBeVisible();
  }
  const menu = await mainMenu(page);
  await expect(menu.getByRole('link', { name: 'Tags' })).toHaveCount(0);
});
