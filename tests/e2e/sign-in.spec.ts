import { messages } from '@/shared/messages';
import { calm, DEMO_PASSWORD, shot, signInWithForm, signOut } from './app';
import { expect, test } from './fixtures';

test.use({ seed: 'demo', ...calm });

test('each demo role lands where the spec says, and signs out', async ({ page }) => {
  const cases = [
    { email: 'dono@demo.com', path: '/', title: 'Dashboard' },
    { email: 'gerente@demo.com', path: '/', title: 'Dashboard' },
    { email: 'atendente@demo.com', path: '/atendimento', title: 'Atendimento' },
  ];
  for (const { email, path, title } of cases) {
    await page.goto('/login');
    await signInWithForm(page, email);
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    expect(new URL(page.url()).pathname).toBe(path);
    await signOut(page);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  }
});

test('the sign-out confirm dialog can be cancelled', async ({ page }) => {
  await page.goto('/login');
  await signInWithForm(page, 'gerente@demo.com');
  await page.getByRole('button', { name: 'Menu do usuário' }).click();
  await page.getByRole('menuitem', { name: 'Sair' }).click();
  await page.getByRole('dialog', { name: 'Sair' }).getByRole('button', { name: 'Cancelar' }).click();
  await expect(page.getByRole('dialog', { name: 'Sair' })).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
});

test('login validation: empty fields, then the server message for a wrong password', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Entrar' })).toBeVisible();
  await shot(page, 'login');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByRole('alert')).toHaveText(messages.fillAllFields);
  await page.getByLabel('E-mail').fill('dono@demo.com');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByRole('alert')).toHaveText(messages.fillAllFields);
  await page.getByLabel('Senha', { exact: true }).fill('senha-errada');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByRole('alert')).toHaveText(messages.invalidCredentials);
  await shot(page, 'login-error');
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
});

test('forgot-password mode sends the recovery mail', async ({ page, server }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Esqueci minha senha' }).click();
  await expect(page.getByRole('heading', { name: 'Recuperar senha' })).toBeVisible();
  await page.getByRole('button', { name: 'Enviar link de recuperação' }).click();
  await expect(page.getByRole('alert')).toHaveText(messages.fillAllFields);
  await page.getByLabel('E-mail').fill('gerente@demo.com');
  await page.getByRole('button', { name: 'Enviar link de recuperação' }).click();
  await expect(page.getByRole('status')).toHaveText(messages.recoveryMailSent);
  await shot(page, 'login-forgot');
  await page.getByRole('button', { name: 'Voltar para o login' }).click();
  await expect(page.getByRole('heading', { name: 'Entrar' })).toBeVisible();
  // The mail really went out (written to DATA_DIR/mail without SMTP).
  const { readdir, readFile } = await import('node:fs/promises');
  const dir = `${server.dataDir}/mail`;
  // It goes through the job runner, a moment after the answer.
  await expect
    .poll(async () => {
      const files = await readdir(dir).catch(() => [] as string[]);
      const mails = await Promise.all(files.map((f) => readFile(`${dir}/${f}`, 'utf8')));
      return mails.some((m) => m.includes('To: gerente@demo.com'));
    })
    .toBe(true);
});

test('/welcome is the login view with a first-access notice', async ({ page }) => {
  await page.goto('/welcome');
  await expect(page.getByText(messages.welcomeNotice)).toBeVisible();
  await signInWithForm(page, 'atendente2@demo.com');
  await expect(page).toHaveURL(/\/atendimento$/);
});

test('/admin-login opens the customer account as its owner and goes to /', async ({ page }) => {
  await page.goto('/admin-login');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByRole('alert')).toHaveText(messages.fillAllFields);
  await page.getByLabel('E-mail do cliente').fill('dono@demo.com');
  await page.getByLabel('E-mail do administrador').fill('admin@demo.com');
  await page.getByLabel('Senha', { exact: true }).fill('errada');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByRole('alert')).toHaveText(messages.adminInvalidCredentials);
  await page.getByLabel('Senha', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/');
  await page.getByRole('button', { name: 'Menu do usuário' }).click();
  await expect(page.getByRole('menu')).toContainText('Dona da Loja');
  await expect(page.getByRole('menu')).toContainText('administrador');
});
