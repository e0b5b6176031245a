import type { Locator } from '@playwright/test';
import { labels, messages } from '@/shared/messages';
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

test('at 1280×800 the menu says when it has items below the fold, and brings them into view', async ({
  page,
  signIn,
}) => {
  test.skip(isPhone(), 'the phone menu is a drawer of its own');
  await signIn(page, 'dono@demo.com');
  await page.goto('/atendimento');
  const menu = await mainMenu(page);
  const hint = page.getByRole('button', { name: 'Mais itens abaixo' });
  await expect(menu.getByRole('link', { name: 'Webhooks' })).not.toBeInViewport();
  await expect(hint).toBeVisible();
  await shot(page, 'shell-menu-more');
  await hint.click();
  await expect(menu.getByRole('link', { name: 'Ajuda' })).toBeInViewport();
  await expect(hint).toBeHidden();
});

test('changelog, Saiba mais and help dialogs', { tag: '@phone' }, async ({ page, signIn }) => {
  await signIn(page, 'atendente@demo.com');
  await page.goto('/atendimento');
  // Readable: its text against its background at 4.5:1 at least (WCAG AA).
  const contrast = await page.getByRole('button', { name: 'Saiba mais' }).evaluate((el) => {
    const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
    const luminance = (c: string) => {
      const [r = 0, g = 0, b = 0] = rgb(c).map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const style = getComputedStyle(el);
    const [a, b] = [luminance(style.color), luminance(style.backgroundColor)].sort((x, y) => y - x);
    return ((a ?? 0) + 0.05) / ((b ?? 0) + 0.05);
  });
  expect(contrast).toBeGreaterThanOrEqual(4.5);
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

/**
 * Where a finger landing on `control` misses it: of the points 21 px from its centre (sides and corners of a
 * 42 px square) those that hit something else. The screen's edge counts as the control's.
 */
async function touchMisses(control: Locator) {
  await control.click({ trial: true }); // visible and settled (a sheet slides in)
  return control.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const [cx, cy] = [r.x + r.width / 2, r.y + r.height / 2];
    const misses: string[] = [];
    for (const dx of [-21, 0, 21])
      for (const dy of [-21, 0, 21]) {
        const x = Math.min(Math.max(cx + dx, 0), innerWidth - 1);
        const y = Math.min(Math.max(cy + dy, 0), innerHeight - 1);
        const hit = document.elementFromPoint(x, y);
        if (!hit || !(hit === el || el.contains(hit)))
          misses.push(`${dx},${dy}: ${hit?.className ?? 'nada'}`);
      }
    return misses;
  });
}

test('touch targets are at least 44×44 px on a phone, wherever they look smaller', {
  tag: '@phone',
}, async ({ page, signIn }) => {
  test.skip(!isPhone(), 'touch screens only');
  // Polled: a sheet still sliding in (slow beside CI's other suites) clips its controls' areas until it
  // settles; a target too small stays so and fails at the timeout.
  const touchable = async (name: string, control: Locator) =>
    expect.poll(() => touchMisses(control), { message: name }).toEqual([]);
  await signIn(page, 'dono@demo.com');
  await page.goto('/atendimento');
  const topBar = page.getByRole('banner');
  await expect(topBar.getByRole('group', { name: 'Chips' }).getByRole('button')).toHaveCount(5);
  await shot(page, 'touch-top-bar');
  await touchable('menu', page.getByRole('button', { name: 'Abrir menu' }));
  for (const button of await topBar.getByRole('group', { name: 'Chips' }).getByRole('button').all())
    await touchable('chip', button);
  await touchable('sino', topBar.getByRole('link', { name: /Atendimentos humanos abertos/ }));
  await touchable('usuário', topBar.getByRole('button', { name: 'Menu do usuário' }));

  const menu = await mainMenu(page);
  await touchable('item do menu', menu.getByRole('link', { name: 'Contatos' }));
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: messages.listSearchOrFilter }).click();
  const sheet = page.getByRole('dialog', { name: messages.listSearchOrFilter });
  for (const choice of await sheet.getByRole('radio').all()) await touchable('opção', choice);
  for (const choice of await sheet.getByRole('checkbox').all()) await touchable('caixa', choice);
  await sheet.getByRole('combobox', { name: labels.common.departments }).click();
  await page.getByRole('option', { name: 'Suporte' }).click();
  await sheet.getByRole('heading').click();
  await touchable('× do departamento', sheet.locator('.mantine-Pill-remove').first());
  await shot(page, 'touch-filter');
  await page.keyboard.press('Escape');

  await page
    .getByRole('list', { name: labels.common.conversations })
    .getByRole('listitem')
    .first()
    .getByRole('button')
    .first()
    .click();
  const pane = page.getByRole('dialog').filter({ has: page.getByRole('button', { name: messages.back }) });
  await touchable('voltar', pane.getByRole('button', { name: messages.back }));
  await touchable('menu da conversa', pane.getByRole('button', { name: messages.paneMenu }));
  await pane.getByRole('button', { name: messages.paneMenu }).click();
  await touchable('item do menu da conversa', page.getByRole('menuitem').first());
  await page.keyboard.press('Escape');

  await page.goto('/contatos');
  await touchable('… do contato', page.getByRole('button', { name: /^Ações do contato/ }).first());
  await page.goto('/conversas');
  await touchable('cartão', page.getByRole('button', { name: messages.historySendToHuman }).first());
  await touchable('cartão', page.getByRole('button', { name: messages.historyViewConversation }).first());
  await shot(page, 'touch-conversas');
});
