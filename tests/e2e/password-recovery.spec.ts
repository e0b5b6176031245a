import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { messages } from '@/shared/messages';
import { expect, test } from './fixtures';

test('a recovery mail link opens the reset page, which sets a new password', async ({ page, server }) => {
  const email = test.info().project.name === 'phone' ? 'atendente@demo.com' : 'atendente2@demo.com';
  await server.call('send-password-recovery', { email });
  const dir = path.join(server.dataDir, 'mail');
  // The mail goes through the job runner, a moment after the answer.
  let mail = '';
  await expect
    .poll(async () => {
      const files = (await readdir(dir).catch(() => [] as string[])).sort();
      const mails = await Promise.all(files.map((f) => readFile(path.join(dir, f), 'utf8')));
      mail = mails.filter((m) => m.includes(`To: ${email}`)).at(-1) ?? '';
      return mail !== '';
    })
    .toBe(true);
  const link = /(http:\/\/\S+\/redefinir-senha\?token=[\w-]+)/.exec(
    mail.replace(/=\r?\n/g, '').replace(/=3D/g, '='),
  )?.[1];
  expect(link, 'the mail carries the reset link').toBeTruthy();

  await page.goto(link as string);
  await expect(page.getByRole('heading', { name: 'Redefinir senha' })).toBeVisible();
  await page.getByLabel('Nova senha', { exact: true }).fill('nova123');
  await page.getByLabel('Confirmar nova senha').fill('outra12');
  await page.getByRole('button', { name: 'Salvar nova senha' }).click();
  await expect(page.getByRole('alert')).toHaveText('As senhas não conferem');

  await page.getByLabel('Confirmar nova senha').fill('nova123');
  await page.getByRole('button', { name: 'Salvar nova senha' }).click();
  await expect(page.getByText('Senha redefinida com sucesso!')).toBeVisible();
  await page.screenshot({ path: `test-results/screens/reset-${test.info().project.name}.png` });

  const { token } = await server.call<{ token: string }>('auth', { email, password: 'nova123' });
  expect(token).toBeTruthy();
});

test('the reset page opened without its link says the link is invalid', async ({ page }) => {
  await page.goto('/redefinir-senha');
  await expect(page.getByRole('heading', { name: 'Redefinir senha' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText(messages.resetLinkInvalid);
  await expect(page.getByLabel('Nova senha', { exact: true })).toHaveCount(0);
  await page.screenshot({ path: `/tmp/shots-config/reset-no-token-${test.info().project.name}.png` });
  await page.getByRole('link', { name: 'Ir para o login' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('serves the app with SPA fallback and security headers', async ({ request }) => {
  const res = await request.get('/qualquer/rota');
  expect(res.status()).toBe(200);
  expect(await res.text()).toContain('<div id="root">');
  expect(res.headers()['content-security-policy']).toContain("object-src 'none'");
  expect(res.headers()['x-content-type-options']).toBe('nosniff');
  // Hashed assets go out pre-compressed and cached for a year.
  const script = /<script type="module" crossorigin src="([^"]+)"/.exec(await res.text())?.[1];
  expect(script).toBeTruthy();
  const asset = await request.get(script as string, { headers: { 'accept-encoding': 'br' } });
  expect(asset.headers()['content-encoding']).toBe('br');
  expect(asset.headers()['cache-control']).toContain('immutable');
  const api = await request.get('/api/get-user');
  expect(api.status()).toBe(404);
});
