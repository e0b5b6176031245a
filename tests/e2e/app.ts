// Small steps the app's e2e files share, done the way a person does them.
import { expect, type Page, test } from '@playwright/test';

export const DEMO_PASSWORD = 'demo123';

/** Browser options of the app's files: no animations, so screenshots and clicks see the settled screen. */
export const calm = { contextOptions: { reducedMotion: 'reduce' as const } };

export const isPhone = () => test.info().project.name === 'phone';

/** A screenshot to look at: test-results/screens/<name>-<project>.png. */
export const shot = (page: Page, name: string) =>
  page.screenshot({ path: `test-results/screens/${name}-${test.info().project.name}.png`, fullPage: true });

export async function signInWithForm(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Senha', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page).not.toHaveURL(/\/(login|welcome)(\?|$)/);
}

/** The main menu: the side menu on desktop, the drawer behind the burger on phones. */
export async function mainMenu(page: Page) {
  if (isPhone()) {
    await page.getByRole('button', { name: 'Abrir menu' }).click();
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await expect(drawer).toBeVisible();
    return drawer.getByRole('navigation', { name: 'Menu principal' });
  }
  return page.getByRole('navigation', { name: 'Menu principal' });
}

export async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Menu do usuário' }).click();
  await page.getByRole('menuitem', { name: 'Sair' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sair' });
  await expect(dialog).toContainText('Deseja sair do painel?');
  await dialog.getByRole('button', { name: 'Confirmar' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

/** A new customer account (its owner) made by the demo platform admin: a user no other test touches. */
export async function newCustomer(
  server: { call<T>(call: string, body?: unknown, token?: string): Promise<T> },
  prefix: string,
) {
  const { token: admin } = await server.call<{ token: string }>('auth', {
    email: 'admin@demo.com',
    password: DEMO_PASSWORD,
  });
  const email = `${prefix}-${test.info().project.name}-${Date.now()}@teste.com`;
  const password = 'senha123';
  await server.call('create-user', { name: 'Cliente Teste', email, password }, admin);
  return { email, password };
}

type ApiCaller = { call<T>(call: string, body?: unknown, token?: string): Promise<T> };

/** A chip made through the API, entering by the named department, for files that need one quickly. */
export async function createChip(
  server: ApiCaller,
  token: string,
  fields: { name: string; department: string; official?: boolean },
) {
  const departments = await server.call<{ _id: string; name: string }[]>(
    'get-departments-by-user',
    {},
    token,
  );
  const department = departments.find((d) => d.name === fields.department);
  if (!department) throw new Error(`no department ${fields.department}`);
  return server.call<{ _id: string; name: string }>(
    'create-or-update-chip',
    { name: fields.name, redirect: 'human', department: department._id, official: fields.official ?? false },
    token,
  );
}
