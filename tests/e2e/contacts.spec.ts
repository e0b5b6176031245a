// The contacts screen (spec 2 §2.1, §5, §6) as people use it. Every test works in a new customer account of
// its own (newCustomer), so the worker's shared server keeps nothing another file could see.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { makeXlsx, readXlsx } from '../xlsx';
import { calm, isPhone, newCustomer, shot, signedIn } from './app';
import { type AppServer, expect, test } from './fixtures';

test.use(calm);

interface Account {
  owner: string;
  email: string;
  password: string;
}

async function account(server: AppServer, prefix: string): Promise<Account> {
  const { email, password } = await newCustomer(server, prefix);
  const { token } = await server.call<{ token: string }>('auth', { email, password });
  return { owner: token, email, password };
}

/** A team member of the account with the contacts area; answers their e-mail. */
async function member(server: AppServer, acc: Account, role: 'manager' | 'user') {
  // One 'Geral' per account (names are unique): the second member joins the first one's.
  const departments = await server.call<{ _id: string; name: string }[]>(
    'get-departments-by-user',
    {},
    acc.owner,
  );
  const dept =
    departments.find((d) => d.name === 'Geral') ??
    (await server.call<{ _id: string }>('create-or-update-department', { name: 'Geral' }, acc.owner));
  const email = `${role}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@teste.com`;
  await server.call(
    'create-team-user',
    {
      name: role === 'manager' ? 'Gerente Teste' : 'Atendente Teste',
      email,
      password: 'senha123',
      user_role: role,
      departments: [dept._id],
      access_areas: ['contacts'],
    },
    acc.owner,
  );
  return email;
}

async function signInAs(page: Page, server: AppServer, email: string, password: string) {
  await signedIn(page, server, email, password);
  await page.goto('/contatos');
  await expect(page.getByRole('heading', { name: 'Contatos', level: 1 })).toBeVisible();
}

const PEOPLE = [
  { telefone: '5581988887777', nome: 'Joana Prado', cidade: 'Recife' },
  { telefone: '5521977776666', nome: 'Pedro Lins', cidade: 'Rio' },
  ...Array.from({ length: 10 }, (_, i) => ({
    telefone: `55119000000${String(i).padStart(2, '0')}`,
    nome: `Cliente ${i}`,
    cidade: 'São Paulo',
  })),
];

/** Joana, Pedro and `fillers` more (12 in all by default: two pages). */
async function seedContacts(server: AppServer, acc: Account, fillers = 10) {
  await server.call(
    'import-contacts',
    { people: PEOPLE.slice(0, 2 + fillers), props: ['telefone', 'nome', 'cidade'] },
    acc.owner,
  );
}

/** Opens a row's actions menu (table on desktop, card on phones). */
async function rowAction(page: Page, name: string, action: string) {
  await page.getByRole('button', { name: `Ações do contato ${name}` }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

test('search by name or phone, filter by tag and by creation date; 10 a page', { tag: '@phone' }, async ({
  page,
  server,
}) => {
  const acc = await account(server, 'contatos-busca');
  await seedContacts(server, acc);
  const vip = await server.call<{ _id: string }>(
    'create-or-update-tag',
    { name: 'VIP', color: '#E03131' },
    acc.owner,
  );
  const list = await server.call<{ data: { _id: string; name: string }[] }>(
    'get-contacts-by-user',
    { query: 'Joana' },
    acc.owner,
  );
  await server.call('change-contact-tags', { contact_id: list.data[0]?._id, tags: [vip._id] }, acc.owner);
  await signInAs(page, server, acc.email, acc.password);

  const found = page.getByRole('status').filter({ hasText: /Fo(ram|i) encontrados?/ });
  await expect(found).toHaveText('Foram encontrados 12 contatos');
  const rows = isPhone()
    ? page.getByRole('list', { name: 'Contatos' }).getByRole('listitem')
    : page.getByRole('table', { name: 'Contatos' }).locator('tbody tr');
  await expect(rows).toHaveCount(10);
  if (isPhone()) {
    // One search bar, the filters in a sheet and Importar/Exportar in a menu: the list starts high.
    expect((await rows.first().boundingBox())?.y).toBeLessThan(300);
    await page.getByRole('button', { name: 'Mais ações' }).click();
    await expect(page.getByRole('menuitem', { name: 'Exportar 12 contatos' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Importar' })).toBeVisible();
    await page.keyboard.press('Escape');
  } else await expect(page.getByRole('button', { name: 'Exportar 12 contatos' })).toBeVisible();
  await page.getByRole('button', { name: 'Página 2' }).click();
  await expect(rows).toHaveCount(2);
  await shot(page, 'contacts-list');

  await page.getByLabel('Buscar por nome ou telefone').fill('pedro');
  await expect(found).toHaveText('Foi encontrado 1 contato');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Pedro Lins');
  await page.getByLabel('Buscar por nome ou telefone').fill('98888');
  await expect(rows.first()).toContainText('Joana Prado');
  await page.getByLabel('Buscar por nome ou telefone').fill('');
  await expect(found).toHaveText('Foram encontrados 12 contatos');

  if (isPhone()) {
    await page.getByRole('button', { name: 'Filtros' }).click();
    await expect(page.getByRole('dialog', { name: 'Filtros' })).toBeVisible();
  }
  const tagFilter = page.getByRole('combobox', { name: 'Filtrar por tags' });
  await tagFilter.click();
  await page.getByRole('option', { name: 'VIP' }).click();
  await page.keyboard.press('Escape');
  await expect(found).toHaveText('Foi encontrado 1 contato');
  await expect(rows.first()).toContainText('Joana Prado');
  await expect(rows.first()).toContainText('VIP');
  await tagFilter.click();
  await tagFilter.press('Backspace');
  await page.keyboard.press('Escape');
  await expect(found).toHaveText('Foram encontrados 12 contatos');

  // Created today: a range in last month finds none, today alone finds all.
  await page.getByLabel('Por data de criação').click();
  await page.getByRole('button', { name: 'Mês anterior' }).click();
  await page.getByRole('button', { name: /^10\/\d{2}\/\d{4}$/ }).click();
  await page.getByRole('button', { name: /^12\/\d{2}\/\d{4}$/ }).click();
  await expect(found).toHaveText('Foram encontrados 0 contatos');
  await page.getByLabel('Por data de criação').click();
  await page.getByRole('button', { name: 'Próximo mês' }).click();
  const today = new Intl.DateTimeFormat('pt-BR', { timeZone: 'America/Sao_Paulo' }).format(new Date());
  await page.getByRole('button', { name: today, exact: true }).click();
  await page.getByRole('button', { name: today, exact: true }).click();
  await expect(found).toHaveText('Foram encontrados 12 contatos');
  await shot(page, 'contacts-filtered');
});

test('edit a name, assign tags, ignore a contact; the drawer shows its variables', { tag: '@phone' }, async ({
  page,
  server,
}) => {
  const acc = await account(server, 'contatos-editar');
  await seedContacts(server, acc, 3);
  await server.call('create-or-update-tag', { name: 'Atacado', color: '#1C7ED6' }, acc.owner);
  await signInAs(page, server, acc.email, acc.password);

  await rowAction(page, 'Joana Prado', 'Editar nome');
  const nameDialog = page.getByRole('dialog', { name: 'Editar nome' });
  await nameDialog.getByLabel('Nome do contato').fill('Joana P. Recife');
  await nameDialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('Nome atualizado')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Ações do contato Joana P. Recife' })).toBeVisible();

  await rowAction(page, 'Joana P. Recife', 'Tags / rótulos');
  const tagsDialog = page.getByRole('dialog', { name: 'Tags / rótulos' });
  await tagsDialog.getByRole('combobox', { name: 'Tags' }).click();
  await page.getByRole('option', { name: 'Atacado' }).click();
  await tagsDialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('Tags atualizadas')).toBeVisible();

  const ignore = page.getByRole('switch', { name: 'Ignorar Joana P. Recife' });
  await expect(ignore).not.toBeChecked();
  await ignore.click({ force: true });
  const ask = page.getByRole('dialog', { name: 'Ignorar contato' });
  await expect(ask).toContainText('deixam de ser atendidas');
  await ask.getByRole('button', { name: 'Confirmar' }).click();
  await expect(ask).toBeHidden();
  await expect(page.getByText('Contato ignorado')).toBeVisible();
  await expect(ignore).toBeChecked();
  const stored = await server.call<{ data: { ignore: boolean; tags: string[] }[] }>(
    'get-contacts-by-user',
    { query: 'Joana' },
    acc.owner,
  );
  expect(stored.data[0]).toMatchObject({ ignore: true });
  expect(stored.data[0]?.tags).toHaveLength(1);
  await shot(page, 'contacts-edited');
  // On a phone the toast sits over the full-screen dialog's buttons: close it, as a person would.
  const toast = page.locator('.mantine-Notification-root').filter({ hasText: 'Contato ignorado' });
  await toast.getByRole('button').click();
  await expect(toast).toBeHidden();

  await ignore.click({ force: true });
  await page
    .getByRole('dialog', { name: 'Deixar de ignorar' })
    .getByRole('button', { name: 'Confirmar' })
    .click();
  await expect(ignore).not.toBeChecked();

  await rowAction(page, 'Joana P. Recife', 'Dados do contato');
  const drawer = page.getByRole('dialog', { name: 'Dados do contato' });
  await expect(drawer.getByRole('list', { name: 'Variáveis' })).toContainText('cidade Recife');
});

test('delete as a manager; an attendant has no delete and the export is refused', async ({
  page,
  server,
}) => {
  const acc = await account(server, 'contatos-apagar');
  await seedContacts(server, acc, 3);
  const manager = await member(server, acc, 'manager');
  const attendant = await member(server, acc, 'user');

  await signInAs(page, server, manager, 'senha123');
  await page.getByLabel('Buscar por nome ou telefone').fill('Pedro');
  await rowAction(page, 'Pedro Lins', 'Apagar contato');
  const ask = page.getByRole('dialog', { name: 'Apagar contato' });
  await expect(ask).toContainText('Deseja apagar o contato "Pedro Lins"?');
  await ask.getByRole('button', { name: 'Confirmar' }).click();
  await expect(page.getByText('Contato apagado')).toBeVisible();
  await page.getByLabel('Buscar por nome ou telefone').fill('');
  await expect(page.getByRole('status').filter({ hasText: /Fo(ram|i) encontrados?/ })).toHaveText(
    'Foram encontrados 4 contatos',
  );

  await page.evaluate(() => localStorage.clear());
  await signInAs(page, server, attendant, 'senha123');
  await page.getByRole('button', { name: 'Ações do contato Joana Prado' }).click();
  await expect(page.getByRole('menuitem', { name: 'Dados do contato' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Apagar contato' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Exportar 4 contatos' }).click();
  await expect(
    page.getByText('Não autorizado. Necessário solicitar ao gerente ou proprietário da conta.'),
  ).toBeVisible();
  await shot(page, 'contacts-attendant');
});

test('import a sheet with 3 valid rows and 1 invalid; export and read the file back', async ({
  page,
  server,
}) => {
  const acc = await account(server, 'contatos-importar');
  await signInAs(page, server, acc.email, acc.password);
  const dir = test.info().outputPath();
  const sheet = path.join(dir, 'clientes.xlsx');
  await writeFile(
    sheet,
    await makeXlsx([
      ['telefone', 'nome', 'plano'],
      ['5581988887777', 'Joana Prado', 'Ouro'],
      ['5521977776666', 'Pedro Lins', 'Prata'],
      ['81 98888', 'Número ruim', 'Bronze'],
      ['5511912345678', 'Lia Souza', 'Ouro'],
    ]),
  );
  const notXlsx = path.join(dir, 'clientes.csv');
  await writeFile(notXlsx, 'telefone,nome\n5581988887777,Joana\n');

  await page.getByRole('button', { name: 'Importar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Importar contatos' });
  await expect(dialog.getByRole('link', { name: 'Baixar planilha modelo' })).toHaveAttribute(
    'href',
    '/modelo-contatos.xlsx',
  );
  const template = await page.request.get('/modelo-contatos.xlsx');
  expect((await readXlsx(await template.body()))[0]).toEqual(['telefone', 'nome', 'cidade']);

  await dialog.locator('input[type="file"]').setInputFiles(notXlsx);
  await expect(dialog.getByText('O arquivo precisa ser uma planilha do Excel (.xlsx).')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Importar' })).toHaveCount(0);

  await dialog.locator('input[type="file"]').setInputFiles(sheet);
  await expect(dialog.getByText('Foram encontrados 3 contatos válidos em 4 linhas.')).toBeVisible();
  await expect(dialog.getByRole('list', { name: 'Linhas com problema' })).toHaveText(
    /Linha 4: telefone inválido/,
  );
  await expect(dialog.getByText('{plano}')).toBeVisible();
  await shot(page, 'contacts-import');
  await dialog.getByRole('button', { name: 'Importar' }).click();
  await expect(page.getByText('Contatos importados com sucesso.')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /Fo(ram|i) encontrados?/ })).toHaveText(
    'Foram encontrados 3 contatos',
  );
  await rowAction(page, 'Lia Souza', 'Dados do contato');
  const drawer = page.getByRole('dialog', { name: 'Dados do contato' });
  await expect(drawer.getByRole('list', { name: 'Variáveis' })).toContainText('plano Ouro');
  await expect(drawer.getByRole('list', { name: 'Variáveis' })).toContainText('nome Lia Souza');
  await page.keyboard.press('Escape');

  await page.getByLabel('Buscar por nome ou telefone').fill('Souza');
  await expect(page.getByRole('button', { name: 'Exportar 1 contato' })).toBeVisible();
  await page.getByLabel('Buscar por nome ou telefone').fill('');
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Exportar 3 contatos' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^Contatos_\d{4}-\d{2}-\d{2}\.xlsx$/);
  const rows = await readXlsx(await readFile(await download.path()));
  expect(rows[0]).toEqual(['telefone', 'nome', 'tags', 'criado_em', 'ignorado', 'plano']);
  expect(
    rows
      .slice(1)
      .map((r) => `${r[0]} ${r[1]} ${r[5]}`)
      .sort(),
  ).toEqual([
    '5511912345678 Lia Souza Ouro',
    '5521977776666 Pedro Lins Prata',
    '5581988887777 Joana Prado Ouro',
  ]);
});
