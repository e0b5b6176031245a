import { readFile } from 'node:fs/promises';
import { messages } from '@/shared/messages';
import { calm, newCustomer, shot, signInWithForm } from './app';
import { expect, test } from './fixtures';

test.use({ seed: 'demo', ...calm });

// 1×1 PNG: real magic bytes, so the server accepts it.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const toast = (page: import('@playwright/test').Page, text: string) =>
  page.getByRole('alert').filter({ hasText: text });

test('profile: name, phone with mask and photo (JPG/PNG up to 2 MB, checked before upload)', async ({
  page,
  server,
}) => {
  const { email, password } = await newCustomer(server, 'perfil');
  await page.goto('/login');
  await signInWithForm(page, email, password);
  await page.goto('/meu-perfil');
  await expect(page.getByRole('heading', { level: 1, name: 'Meu perfil' })).toBeVisible();
  await expect(page.getByLabel('E-mail')).toHaveValue(email);

  await page.getByLabel('Nome', { exact: true }).fill('Maria da Silva');
  // A partial phone stays on the screen with its message; nothing is saved.
  await page.getByLabel('Telefone').fill('119876');
  await page.getByRole('button', { name: 'Salvar dados' }).click();
  await expect(page.getByText(messages.invalidPhone)).toBeVisible();
  await expect(page.getByLabel('Telefone')).toHaveAttribute('aria-invalid', 'true');
  await page.screenshot({ path: `/tmp/shots-config/profile-phone-${test.info().project.name}.png` });
  await expect(toast(page, messages.dataUpdated)).toHaveCount(0);
  await page.getByLabel('Telefone').fill('11987654321');
  await expect(page.getByLabel('Telefone')).toHaveValue('(11) 98765-4321');
  await page.getByRole('button', { name: 'Salvar dados' }).click();
  await expect(toast(page, messages.dataUpdated)).toBeVisible();

  const choose = async (file: { name: string; mimeType: string; buffer: Buffer }) => {
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Alterar foto' }).click();
    await (await chooser).setFiles(file);
  };
  await choose({ name: 'foto.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
  await expect(page.getByRole('alert').filter({ hasText: messages.profilePictureType })).toBeVisible();
  const big = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]);
  await choose({ name: 'grande.png', mimeType: 'image/png', buffer: big });
  await expect(page.getByRole('alert').filter({ hasText: messages.profilePictureSize })).toBeVisible();
  // A real picture: the app's own 192 px icon.
  const photo = await readFile('public/icons/icon-192.png');
  await choose({ name: 'foto.png', mimeType: 'image/png', buffer: photo });
  const avatar = page.getByRole('img', { name: 'Foto de perfil' });
  await expect(avatar).toHaveAttribute('src', /^\/media\/\w+\.png$/);
  await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(192);

  const { token } = await server.call<{ token: string }>('auth', { email, password });
  const user = await server.call<{ name: string; phone: string; profile_picture: string }>(
    'get-user',
    {},
    token,
  );
  expect(user).toMatchObject({ name: 'Maria da Silva', phone: '(11) 98765-4321' });
  expect(user.profile_picture).toMatch(/^\/media\//);
  await page.reload();
  await expect(page.getByLabel('Telefone')).toHaveValue('(11) 98765-4321');
  await expect
    .poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBe(192);
  await shot(page, 'profile');
});

test('profile: each password validation, the server refusal, then the change succeeds', async ({
  page,
  server,
}) => {
  const { email, password } = await newCustomer(server, 'senha');
  await page.goto('/login');
  await signInWithForm(page, email, password);
  await page.goto('/meu-perfil');
  const form = page.getByRole('region', { name: 'Alterar senha' });
  const submit = form.getByRole('button', { name: 'Alterar senha' });
  const error = form.getByRole('alert');

  await submit.click();
  await expect(error).toHaveText(messages.profileFillAllFields);

  await form.getByLabel('Senha atual').fill(password);
  await form.getByLabel('Nova senha', { exact: true }).fill('nova1234');
  await form.getByLabel('Confirmar nova senha').fill('nova9999');
  await submit.click();
  await expect(error).toHaveText(messages.passwordsDontMatch);

  await form.getByLabel('Nova senha', { exact: true }).fill('abc');
  await form.getByLabel('Confirmar nova senha').fill('abc');
  await submit.click();
  await expect(error).toHaveText(messages.teamPasswordTooShort);
  await shot(page, 'profile-password-error');

  await form.getByLabel('Senha atual').fill('errada1');
  await form.getByLabel('Nova senha', { exact: true }).fill('nova1234');
  await form.getByLabel('Confirmar nova senha').fill('nova1234');
  await submit.click();
  await expect(error).toHaveText(messages.wrongOldPassword);

  await form.getByLabel('Senha atual').fill(password);
  await submit.click();
  await expect(toast(page, messages.passwordChanged)).toBeVisible();
  await expect(form.getByLabel('Senha atual')).toHaveValue('');
  // The new password signs in; this session stays open.
  await server.call('auth', { email, password: 'nova1234' });
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Meu perfil' })).toBeVisible();
});
