import { messages } from '@/shared/messages';
import { calm, signInWithForm } from './app';
import { expect, test } from './fixtures';

test.use({ seed: 'demo', ...calm });

test('without a token, any path but the sign-in pages goes to /login', async ({ page }) => {
  await page.goto('/contatos');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fcontatos$/);
  await expect(page.getByRole('heading', { name: 'Entrar' })).toBeVisible();
  for (const path of ['/', '/meu-perfil', '/atendimento', '/uma/rota/qualquer']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/login/);
  }
  for (const path of ['/welcome', '/admin-login']) {
    await page.goto(path);
    await expect(page).toHaveURL(new RegExp(`${path}$`));
  }
});

test('after sign-in the user returns to the path that asked for it', async ({ page }) => {
  await page.goto('/meu-perfil');
  await expect(page).toHaveURL(/\/login/);
  await signInWithForm(page, 'gerente@demo.com');
  await expect(page.getByRole('heading', { level: 1, name: 'Meu perfil' })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/meu-perfil');
});

test("an attendant opening /equipe sees 'Permissões insuficientes.' and lands on Atendimento", async ({
  page,
  signIn,
}) => {
  await signIn(page, 'atendente@demo.com');
  for (const path of ['/equipe', '/', '/minha-conta', '/chips', '/webhooks/123']) {
    await page.goto(path);
    await expect(page.getByRole('alert').filter({ hasText: messages.insufficientPermissions })).toBeVisible();
    await expect(page).toHaveURL(/\/atendimento$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Atendimento' })).toBeVisible();
  }
});

test('only the owner opens /minha-conta; the manager is sent to Atendimento', async ({ page, signIn }) => {
  await signIn(page, 'gerente@demo.com');
  await page.goto('/minha-conta');
  await expect(page.getByRole('alert').filter({ hasText: messages.insufficientPermissions })).toBeVisible();
  await expect(page).toHaveURL(/\/atendimento$/);

  await signIn(page, 'dono@demo.com');
  await page.goto('/minha-conta');
  await expect(page.getByRole('heading', { level: 1, name: 'Minha assinatura' })).toBeVisible();
  await expect(page.getByText(messages.planLinkMissing)).toBeVisible();
});

test('an unknown path shows the not-found page inside the shell', async ({ page, signIn }) => {
  await signIn(page, 'dono@demo.com');
  await page.goto('/nao-existe');
  await expect(page.getByRole('heading', { level: 1, name: messages.pageNotFound })).toBeVisible();
  await page.getByRole('link', { name: 'Voltar ao início' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
});

test('a 401 that says logout clears the session and goes to /login', async ({ page, signIn, server }) => {
  const token = await signIn(page, 'gerente@demo.com');
  await page.goto('/meu-perfil');
  await expect(page.getByRole('heading', { level: 1, name: 'Meu perfil' })).toBeVisible();
  // The session is revoked elsewhere (another tab signed out); the next call answers 401 with logout.
  await server.call('logout', {}, token);
  // The next call finds out: the user's own action, or a background one (the socket's reconnect and catch-up
  // may come first).
  const toggle = page.getByRole('switch', { name: 'Assinatura nas mensagens' });
  await expect(async () => {
    if (!/\/login$/.test(page.url())) await toggle.click({ force: true, timeout: 1000 });
    await expect(page).toHaveURL(/\/login$/, { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await expect(page.getByRole('alert').filter({ hasText: messages.unauthorized })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  expect(await page.evaluate(() => localStorage.getItem('painel-cache'))).toBeNull();
});

test('a 401 met by a background call (the catch-up after a reconnect) also ends the session and says why', async ({
  page,
  signIn,
  server,
}) => {
  const token = await signIn(page, 'atendente@demo.com');
  await page.goto('/atendimento');
  await expect(page.getByRole('heading', { level: 1, name: 'Atendimento' })).toBeVisible();
  await server.call('logout', {}, token);
  // The connection comes back: the app asks what changed, and the server says the session is over.
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('alert').filter({ hasText: messages.unauthorized })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
});
