import { messages } from '@/shared/messages';
import { calm, isPhone, mainMenu, shot } from './app';
import { expect, test } from './fixtures';

// Six chips (two not connected) and 14 open human conversations: 11 in Suporte, 3 in Vendas (seeds.ts).
test.use({ seed: 'busy-account', ...calm });

test("the top bar shows '9+' above nine open human conversations; attendants count their departments", {
  tag: '@phone',
}, async ({ page, signIn }) => {
  await signIn(page, 'dono@demo.com');
  await page.goto('/');
  const topBar = page.getByRole('banner');
  await expect(topBar.getByRole('link', { name: 'Atendimentos humanos abertos: 14' })).toBeVisible();
  await expect(topBar.getByText('9+', { exact: true })).toBeVisible();
  await shot(page, 'shell-owner');

  await signIn(page, 'atendente2@demo.com');
  await page.goto('/atendimento');
  await expect(topBar.getByRole('link', { name: 'Atendimentos humanos abertos: 3' })).toBeVisible();
  await expect(topBar.getByText('3', { exact: true })).toBeVisible();
  await topBar.getByRole('link', { name: /Atendimentos humanos abertos/ }).click();
  await expect(page).toHaveURL(/\/atendimento$/);
});

test('above five chips the top bar shows four, not-connected first, and an overflow icon', {
  tag: '@phone',
}, async ({ page, signIn }) => {
  await signIn(page, 'gerente@demo.com');
  await page.goto('/');
  const chips = page.getByRole('banner').getByRole('group', { name: 'Chips' });
  await expect(chips.getByRole('button')).toHaveCount(5);
  const labels = await chips
    .getByRole('button')
    .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
  expect(labels).toEqual([
    'Vendas 2: desconectado',
    'Vendas 3: desconectado',
    'Suporte 1: conectado',
    'Suporte 2: conectado',
    'Mais 2 chips',
  ]);

  // The drawer lists every chip with its state.
  await chips.getByRole('button', { name: 'Mais 2 chips' }).click();
  const drawer = page.getByRole('dialog', { name: 'Status dos chips' });
  await expect(drawer.getByRole('listitem')).toHaveCount(6);
  await expect(drawer.getByRole('listitem').filter({ hasText: 'Vendas 3' })).toContainText('Desconectado');
  await expect(drawer.getByRole('listitem').filter({ hasText: 'Suporte 3' })).toContainText('Conectado');
  await shot(page, 'shell-chip-drawer');
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();

  // An attendant sees only the chips of their department (Vendas: 3, all shown).
  await signIn(page, 'atendente2@demo.com');
  await page.goto('/atendimento');
  await expect(chips.getByRole('button')).toHaveCount(3);
  await expect(chips.getByRole('button', { name: 'Vendas 1: conectado' })).toBeVisible();
});

test('the menu follows role and access areas; only the owner sees Minha assinatura', {
  tag: '@phone',
}, async ({ page, signIn }) => {
  const expectations = {
    'dono@demo.com': [
      'Dashboard',
      'Atendimento',
      'Conversas',
      'Agendamento',
      'Contatos',
      'Audiências',
      'Campanhas',
      'Campanhas API Oficial',
      'Meus chips',
      'Chatbots',
      'Fluxos',
      'Tags',
      'Departamentos',
      'Minha Equipe',
      'Mensagens rápidas',
      'Follow-ups automáticos',
      'API',
      'Webhooks',
      'Meu perfil',
      'Minha assinatura',
      'Ajuda',
    ],
    'gerente@demo.com': [
      'Dashboard',
      'Atendimento',
      'Conversas',
      'Agendamento',
      'Contatos',
      'Audiências',
      'Campanhas',
      'Campanhas API Oficial',
      'Meus chips',
      'Chatbots',
      'Fluxos',
      'Tags',
      'Departamentos',
      'Minha Equipe',
      'Mensagens rápidas',
      'Follow-ups automáticos',
      'API',
      'Webhooks',
      'Meu perfil',
      'Ajuda',
    ],
    'atendente@demo.com': ['Atendimento', 'Conversas', 'Agendamento', 'Contatos', 'Meu perfil', 'Ajuda'],
  };
  for (const [email, items] of Object.entries(expectations)) {
    await signIn(page, email);
    await page.goto('/atendimento');
    const menu = await mainMenu(page);
    await expect(menu.getByRole('link')).toHaveText(items);
    await expect(menu.getByRole('link', { name: 'Atendimento' })).toHaveAttribute('aria-current', 'page');
    if (email === 'dono@demo.com') await shot(page, 'shell-menu');
    await menu.getByRole('link', { name: 'Ajuda' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Ajuda' })).toBeVisible();
    // On phones the drawer closes on navigation.
    if (isPhone()) await expect(page.getByRole('dialog', { name: 'Menu' })).toBeHidden();
  }
});

test('changelog, Saiba mais and help dialogs', { tag: '@phone' }, async ({ page, signIn }) => {
  await signIn(page, 'atendente@demo.com');
  await page.goto('/atendimento');
  await page.getByRole('button', { name: 'Saiba mais' }).click();
  const help = page.getByRole('dialog', { name: 'Atendimento' });
  await expect(help).toContainText('Em Atendimento ficam as conversas em andamento');
  await shot(page, 'shell-saiba-mais');
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Menu do usuário' }).click();
  await page.getByRole('menuitem', { name: 'Novidades' }).click();
  const changelog = page.getByRole('dialog', { name: 'Novidades' });
  await expect(changelog.getByRole('heading', { name: 'Versão 0.1.0' })).toBeVisible();
  await page.keyboard.press('Escape');

  await page.goto('/ajuda');
  await page.getByRole('button', { name: 'Mensagens rápidas' }).click();
  await expect(page.getByText('digite / para abrir a lista de mensagens rápidas')).toBeVisible();
  await shot(page, 'help');
});

test("the user's own toggles answer 'Configuração alterada.' and persist", async ({
  page,
  signIn,
  server,
}) => {
  const token = await signIn(page, 'atendente@demo.com');
  await page.goto('/meu-perfil');
  const sound = page.getByRole('switch', { name: 'Som de notificação' });
  const signature = page.getByRole('switch', { name: 'Assinatura nas mensagens' });
  await expect(sound).toBeChecked();
  await sound.click({ force: true });
  await expect(page.getByRole('alert').filter({ hasText: messages.configChanged })).toBeVisible();
  await expect(sound).not.toBeChecked();
  await signature.click({ force: true });
  await expect(signature).toBeChecked();
  const user = await server.call<{ config: unknown }>('get-user', {}, token);
  expect(user.config).toEqual({ disable_notification_sound: true, user_signature: true });
});
