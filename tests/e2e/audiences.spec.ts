// The audiences screen (/audiencias, spec 3 §2.9, §5 Audience, §6) as a manager uses it: import a sheet with a
// bad line and a repeated phone (the analysis first, every message of the sheet and of the name), the row
// with its count and variables, rename, delete. An attendant is refused; an account without campaigns in
// its plan sees the upgrade notice. The worker's server is shared: names carry the project, and what a test
// makes is deleted after it.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { messages } from '@/shared/messages';
import { campaignMessages } from '@/shared/messages-campaigns';
import { makeXlsx } from '../xlsx';
import { calm, isPhone, mainMenu, newCustomer, shot, tokenOf } from './app';
import { expect, test } from './fixtures';

test.use({ seed: 'demo', ...calm });

const project = () => test.info().project.name;
const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });

/** The audiences: table rows on desktop, cards on phones. */
const rows = (page: Page) =>
  isPhone()
    ? page.getByRole('list', { name: 'Audiências' }).getByRole('listitem')
    : page.getByRole('table', { name: 'Audiências' }).getByRole('row');
const rowOf = (page: Page, name: string) => rows(page).filter({ hasText: name });

async function sheetFile(name: string, content: Buffer | string) {
  const file = path.join(test.info().outputPath(), name);
  await writeFile(file, content);
  return file;
}

const choose = (dialog: Locator, file: string) => dialog.locator('input[type="file"]').setInputFiles(file);

test('a manager imports an audience (analysis first), sees its row, renames and deletes it', {
  tag: '@phone',
}, async ({ page, server, signIn }) => {
  const name = `Clientes VIP ${project()} ${Date.now()}`;
  const renamed = `${name} renomeada`;
  const token = await signIn(page, 'gerente@demo.com');
  try {
    await page.goto('/atendimento');
    const menu = await mainMenu(page);
    await menu.getByRole('link', { name: 'Audiências' }).click();
    await expect(page).toHaveURL(/\/audiencias$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Audiências' })).toBeVisible();

    await page.getByRole('button', { name: 'Saiba mais' }).click();
    const help = page.getByRole('dialog', { name: 'Audiências' });
    await expect(help).toContainText('lista de pessoas de uma planilha');
    await page.keyboard.press('Escape');
    await expect(help).toBeHidden();

    await page.getByRole('button', { name: 'Importar audiência' }).click();
    const dialog = page.getByRole('dialog', { name: 'Importar audiência' });
    await expect(dialog.getByRole('switch', { name: 'Criar ou atualizar os contatos' })).toBeChecked();
    const save = dialog.getByRole('button', { name: 'Salvar' });
    // Nothing to save before a sheet with valid people.
    await expect(save).toHaveCount(0);

    // Every refusal of the sheet, and no Salvar after any of them.
    const refusals: [string, Buffer | string, string][] = [
      ['clientes.csv', 'telefone,nome\n5581988887777,Joana\n', messages.importNotXlsx],
      ['sem-telefone.xlsx', await makeXlsx([['nome'], ['Joana']]), messages.importPhoneColumnMissing],
      ['vazia.xlsx', await makeXlsx([['telefone', 'nome']]), messages.importEmpty],
      [
        'ruim.xlsx',
        await makeXlsx([
          ['telefone', 'nome'],
          ['81 9888-7777', 'Sem código'],
        ]),
        messages.importNoValid,
      ],
    ];
    for (const [file, content, message] of refusals) {
      await choose(dialog, await sheetFile(file, content));
      await expect(dialog.getByText(message)).toBeVisible();
      await expect(save).toHaveCount(0);
    }

    await choose(
      dialog,
      await sheetFile(
        'audiencia.xlsx',
        await makeXlsx([
          ['telefone', 'nome', 'cidade'],
          ['5581988881111', 'Joana Prado', 'Recife'],
          ['81 98888', 'Número ruim', 'Olinda'],
          ['5521977772222', 'Pedro Lins', 'Rio'],
          ['5581988881111', 'Joana de novo', 'Recife'],
        ]),
      ),
    );
    await expect(dialog.getByText(messages.importAnalysis(2, 4))).toBeVisible();
    await expect(dialog.getByRole('list', { name: 'Linhas com problema' })).toHaveText(
      [`Linha 3: ${messages.importInvalidPhone}`, `Linha 5: ${messages.importDuplicatePhone(2)}`].join(''),
    );
    await expect(dialog.getByText('{cidade}')).toBeVisible();
    // The lines left out are a warning of their own, not inside the success box.
    await expect(dialog.getByRole('status')).not.toContainText('Linha 3');
    await expect(dialog.getByRole('alert', { name: messages.importInvalidLines })).toContainText('Linha 3');
    await shot(page, 'audiences-import');

    // The name is required, on its field.
    await save.click();
    const nameField = dialog.getByRole('textbox', { name: 'Nome' });
    await expect(nameField).toHaveAttribute('aria-invalid', 'true');
    await expect(dialog.getByText(messages.audienceNameRequired, { exact: true })).toBeVisible();
    await nameField.fill(name);
    await expect(dialog.getByText(messages.audienceNameRequired, { exact: true })).toHaveCount(0);
    // The demo account's contacts stay as they are: other files count them.
    await dialog.getByRole('switch', { name: 'Criar ou atualizar os contatos' }).uncheck({ force: true });
    await save.click();
    await expect(toast(page, campaignMessages.audienceSaved)).toBeVisible();
    await expect(dialog).toBeHidden();

    const row = rowOf(page, name);
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
    await expect(row).toContainText('2');
    await expect(row.getByText('{nome}')).toBeVisible();
    await expect(row.getByText('{cidade}')).toBeVisible();
    await shot(page, 'audiences-list');

    // Edit: the name is required here too, then renamed.
    await row.getByRole('button', { name: 'Editar' }).click();
    const edit = page.getByRole('dialog', { name: 'Editar audiência' });
    const editName = edit.getByRole('textbox', { name: 'Nome' });
    await expect(editName).toHaveValue(name);
    await expect(edit.getByRole('switch', { name: 'Criar ou atualizar os contatos' })).not.toBeChecked();
    await editName.fill('   ');
    await edit.getByRole('button', { name: 'Salvar' }).click();
    await expect(edit.getByText(messages.audienceNameRequired, { exact: true })).toBeVisible();
    await editName.fill(renamed);
    await edit.getByRole('button', { name: 'Salvar' }).click();
    await expect(toast(page, campaignMessages.audienceUpdated)).toBeVisible();
    await expect(edit).toBeHidden();
    const renamedRow = rowOf(page, renamed);
    await expect(renamedRow).toContainText('2');

    // Edit with a new sheet: its people instead of the audience's own (Salvar only once it is analysed).
    await renamedRow.getByRole('button', { name: 'Editar' }).click();
    await expect(edit.getByRole('textbox', { name: 'Nome' })).toHaveValue(renamed);
    await choose(edit, await sheetFile('ruim-de-novo.xlsx', await makeXlsx([['telefone'], ['123']])));
    await expect(edit.getByText(messages.importNoValid)).toBeVisible();
    await expect(edit.getByRole('button', { name: 'Salvar' })).toHaveCount(0);
    await choose(
      edit,
      await sheetFile(
        'nova.xlsx',
        await makeXlsx([
          ['telefone', 'produto'],
          ['5511911113333', 'Curso'],
          ['5511911114444', 'Livro'],
          ['5511911115555', 'Curso'],
        ]),
      ),
    );
    await expect(edit.getByText(messages.importAnalysis(3, 3))).toBeVisible();
    await shot(page, 'audiences-edit');
    await edit.getByRole('button', { name: 'Salvar' }).click();
    // (The rename's toast may still be up: the row tells this save apart.)
    await expect(edit).toBeHidden();
    await expect(renamedRow).toContainText('3');
    await expect(renamedRow.getByText('{produto}')).toBeVisible();
    await expect(renamedRow.getByText('{cidade}')).toHaveCount(0);

    // Delete asks first.
    await renamedRow.getByRole('button', { name: 'Apagar' }).click();
    const confirm = page.getByRole('dialog', { name: 'Apagar audiência' });
    await expect(confirm).toContainText(`Deseja apagar a audiência ${renamed}?`);
    await confirm.getByRole('button', { name: 'Confirmar' }).click();
    await expect(toast(page, campaignMessages.audienceDeleted)).toBeVisible();
    await expect(rowOf(page, renamed)).toHaveCount(0);
  } finally {
    const left = await server.call<{ _id: string; name: string }[]>('get-audiences-by-user', {}, token);
    for (const a of left.filter((a) => a.name.startsWith(name)))
      await server.call('create-or-update-audience', { _id: a._id, filed: true }, token);
  }
});

test("an attendant opening /audiencias gets 'Permissões insuficientes.' and has no menu entry", async ({
  page,
  signIn,
}) => {
  await signIn(page, 'atendente@demo.com');
  await page.goto('/audiencias');
  await expect(toast(page, messages.insufficientPermissions)).toBeVisible();
  await expect(page).toHaveURL(/\/atendimento$/);
  const menu = await mainMenu(page);
  await expect(menu.getByRole('link', { name: 'Audiências' })).toHaveCount(0);
});

test('an account without campaigns in its plan sees the upgrade notice', async ({ page, server }) => {
  const { email, password } = await newCustomer(server, 'audiencias-plano');
  const token = await tokenOf(server, email, password);
  await page.goto('/login');
  await page.evaluate((t) => localStorage.setItem('token', t), token);
  await page.goto('/audiencias');
  await expect(page.getByRole('heading', { level: 1, name: 'Audiências' })).toBeVisible();
  await expect(
    page.getByRole('status').filter({ hasText: campaignMessages.campaignsNotInPlan }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Importar audiência' })).toHaveCount(0);
  await shot(page, 'audiences-plan-gate');
});
