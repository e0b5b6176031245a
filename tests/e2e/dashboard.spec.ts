// The dashboards (spec 3 §2.1, §2.2, §9): the attendant dashboard at / (each interval button, a custom pt-BR
// range, the chip filter, a real-time card that changes live when a simulator customer writes, the server's
// refusal as a red toast) and the technical one at /dash-tecnico (tech_dashboard only). The numbers on the
// screen are the server's (the server tests count them by hand): each card is compared with the same call.
import type { Page } from '@playwright/test';
import type { AdminDashboardData, DashboardData, DashboardInterval } from '@/shared/contract/dashboard';
import { labels, messages } from '@/shared/messages';
import { dashboardLabels as L } from '@/shared/messages-dashboard';
import {
  calm,
  connectedChip,
  mainMenu,
  phoneOf,
  realtimeReady,
  shot,
  signedIn,
  signInWithForm,
  tokenOf,
} from './app';
import { expect, test } from './fixtures';

// Loja Demo with 1 to 4 conversations a day over the last 120 days on two chips, 5 still open (seeds.ts).
test.use({ seed: 'dashboard-history', ...calm });

const TZ = 'America/Sao_Paulo';
/** A local day of São Paulo as the screen writes it (DD/MM/YYYY), `back` days before today. */
function dayBefore(back: number) {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: TZ }).format(new Date());
  const d = new Date(`${today}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() - back);
  return d.toISOString().slice(0, 10).split('-').reverse().join('/');
}
const periodText = (days: number) =>
  days === 1 ? L.periodShown(dayBefore(0), dayBefore(0)) : L.periodShown(dayBefore(days - 1), dayBefore(0));
const count = (n: number) => new Intl.NumberFormat('pt-BR').format(n);

/** In the open date picker: up to the decade, then the year `y`. */
async function pickYear(page: Page, y: number) {
  await page.getByRole('button', { name: 'Escolher mês' }).click();
  await page.getByRole('button', { name: 'Escolher ano' }).click();
  const button = page.getByRole('button', { name: String(y), exact: true });
  for (const move of ['Década anterior', 'Próxima década'])
    if (!(await button.isVisible())) await page.getByRole('button', { name: move }).click();
  await button.click();
}

const card = (page: Page, label: string) => page.getByRole('group', { name: label, exact: true });

test('each interval button and a custom range show the server’s report; bars up to 7 days, area above', {
  tag: '@phone',
}, async ({ page, server }) => {
  test.setTimeout(120_000);
  const owner = await signedIn(page, server, 'dono@demo.com');
  const report = (interval: DashboardInterval, selected_chip: string | -1 = -1) =>
    server.call<DashboardData>('get-dashboard-data', { interval, selected_chip }, owner);
  await page.goto(`${server.url}/`);
  // The first visit loads the dashboard's chunk: slower on a busy machine.
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible({ timeout: 30_000 });
  const intervals = page.getByRole('group', { name: L.intervalGroup });
  const evolution = page.getByRole('region', { name: L.evolution });

  // Default 7 dias; the seeded open conversations in the live cards.
  await expect(intervals.getByRole('button', { name: '7 dias' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('status').filter({ hasText: periodText(7) })).toBeVisible();
  const live = await server.call<{ all: number }>('get-dashboard-real-time-data', {}, owner);
  await expect(card(page, L.open)).toContainText(count(live.all));
  await expect(evolution.locator('.recharts-bar-rectangle').filter({ visible: true }).first()).toBeVisible();
  await shot(page, 'dashboard-7-dias');

  for (const [name, days] of [
    ['Hoje', 1],
    ['30 dias', 30],
    ['3 meses', 90],
    ['6 meses', 180],
    ['1 ano', 365],
    ['7 dias', 7],
  ] as const) {
    await intervals.getByRole('button', { name, exact: true }).click();
    await expect(intervals.getByRole('button', { name, exact: true })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(page.getByRole('status').filter({ hasText: periodText(days) })).toBeVisible();
    const expected = await report(days);
    await expect(card(page, L.newConversations)).toContainText(count(expected.conversation_cards.all));
    await expect(card(page, L.byChatbot)).toContainText(count(expected.conversation_cards.chatbot));
    await expect(card(page, L.byHuman)).toContainText(count(expected.conversation_cards.manual));
    if (expected.conversation_cards.all === 0) {
      await expect(page.getByText(L.noConversations)).toBeVisible();
      continue;
    }
    // Bars when the interval is 7 days or less, an area above (spec 3 §9).
    await expect(
      evolution
        .locator(days <= 7 ? '.recharts-bar-rectangle' : '.recharts-area')
        .filter({ visible: true })
        .first(),
    ).toBeVisible();
    await expect(evolution.locator(days <= 7 ? '.recharts-area' : '.recharts-bar-rectangle')).toHaveCount(0);
    // The latest contacts: the override name first.
    const latest = expected.latest_contacts[0];
    if (latest)
      await expect(page.getByRole('region', { name: L.latestContacts })).toContainText(
        latest.override_name ?? latest.name,
      );
    if (days === 90) await shot(page, 'dashboard-3-meses');
  }

  // A custom range: the 1st of this month up to today (today alone on the 1st); no button is pressed then.
  const today = dayBefore(0);
  const first = `01/${today.slice(3)}`;
  await page.getByRole('button', { name: L.period }).click();
  await page.getByRole('button', { name: first, exact: true }).click();
  await page.getByRole('button', { name: today, exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: L.periodShown(first, today) })).toBeVisible();
  await expect(intervals.getByRole('button', { pressed: true })).toHaveCount(0);
  const iso = (d: string) => d.split('/').reverse().join('-');
  const custom = await report({ start: iso(first), end: iso(today) });
  await expect(card(page, L.newConversations)).toContainText(count(custom.conversation_cards.all));

  // Six months back: no conversation then, and the screen says what to do.
  await page.getByRole('button', { name: L.period }).click();
  for (let i = 0; i < 6; i++) await page.getByRole('button', { name: 'Mês anterior' }).click();
  await page.getByRole('button', { name: /^10\/\d{2}\/\d{4}$/ }).click();
  await page.getByRole('button', { name: /^12\/\d{2}\/\d{4}$/ }).click();
  await expect(page.getByText(L.noConversations)).toBeVisible();
  await expect(page.getByText(L.noConversationsWait)).toBeVisible();
  await expect(card(page, L.newConversations)).toContainText('0');
  // Issue 34 item 6: a quiet period keeps every chart (each with its own empty state) and the latest contacts.
  for (const title of [L.evolution, L.departmentDistribution, L.tagDistribution])
    await expect(page.getByText(title, { exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: L.latestContacts })).toBeVisible();
  await shot(page, 'dashboard-vazio');

  // More than 2 years (1 January three years ago to 1 January this year): the server's refusal as a red
  // toast; the last report stays on the screen.
  const year = Number(today.slice(6));
  await page.getByRole('button', { name: L.period }).click();
  await pickYear(page, year - 3);
  await page.getByRole('button', { name: /^jan/ }).click();
  await page.getByRole('button', { name: `01/01/${year - 3}`, exact: true }).click();
  await pickYear(page, year);
  await page.getByRole('button', { name: /^jan/ }).click();
  await page.getByRole('button', { name: `01/01/${year}`, exact: true }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'O período pode ter no máximo 2 anos.' }),
  ).toBeVisible();
  await expect(card(page, L.newConversations)).toContainText('0');
  await shot(page, 'dashboard-erro');
});

test('the chip filter, and a live card changing when a customer writes (no reload, no polling)', async ({
  page,
  server,
}) => {
  test.setTimeout(120_000);
  const owner = await signedIn(page, server, 'dono@demo.com');
  const chip = await connectedChip(server, owner, 'Painel Dash', 'Suporte');
  try {
    const realTimeCalls: number[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/get-dashboard-real-time-data')) realTimeCalls.push(Date.now());
    });
    await page.goto(`${server.url}/`);
    // The first visit loads the dashboard's chunk: slower on a busy machine.
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible({ timeout: 30_000 });
    // Connected: the server put the socket in the dashboard room at its handshake.
    await realtimeReady(page);

    // One chip: its numbers alone (none yet), the tag donut only with every chip.
    await page
      .getByRole('textbox', { name: messages.chip })
      .or(page.getByRole('combobox', { name: messages.chip }))
      .first()
      .click();
    await page.getByRole('option', { name: chip.name, exact: true }).click();
    await expect(card(page, L.open)).toContainText('0');
    await expect(card(page, L.newConversations)).toContainText('0');
    await expect(page.getByText(L.noConversationsWait)).toBeVisible();

    // A customer writes to that chip: the open card moves by itself (the room's hint asks again).
    const before = realTimeCalls.length;
    await chip.write(phoneOf(4, 1), 'Cliente Painel', 'Oi, tudo bem?');
    await expect(card(page, L.open)).toContainText('1', { timeout: 15_000 });
    expect(realTimeCalls.length).toBeGreaterThan(before);

    // The report reaches today: it follows too (a few seconds later), the new conversation with it.
    await expect(card(page, L.newConversations)).toContainText('1', { timeout: 15_000 });
    await expect(page.getByRole('region', { name: L.tagDistribution })).toContainText(L.tagsOnlyAllChips);
    await expect(page.getByRole('region', { name: L.latestContacts })).toContainText('Cliente Painel');
    await shot(page, 'dashboard-chip-ao-vivo');

    // Back to every chip: the account's numbers, tags included.
    await page
      .getByRole('textbox', { name: messages.chip })
      .or(page.getByRole('combobox', { name: messages.chip }))
      .first()
      .click();
    await page.getByRole('option', { name: L.allChips, exact: true }).click();
    const all = await server.call<{ all: number }>('get-dashboard-real-time-data', {}, owner);
    await expect(card(page, L.open)).toContainText(count(all.all));
    await expect(page.getByRole('region', { name: L.tagDistribution })).not.toContainText(L.tagsOnlyAllChips);
  } finally {
    await chip.file();
  }
});

test('the technical dashboard: every account for tech_dashboard; refused to an owner without it', async ({
  page,
  server,
}) => {
  test.setTimeout(90_000);
  const admin = await signedIn(page, server, 'admin@demo.com');
  await page.goto(`${server.url}/atendimento`);
  const menu = await mainMenu(page);
  await menu.getByRole('link', { name: labels.common.technicalDashboard }).click();
  await expect(page.getByRole('heading', { level: 1, name: labels.common.technicalDashboard })).toBeVisible();
  const expected = await server.call<AdminDashboardData>('get-admin-dashboard-data', { interval: 7 }, admin);
  await expect(card(page, L.conversationsTotal)).toContainText(count(expected.admin_cards.conversations_all));
  await expect(card(page, L.messagesTotal)).toContainText(count(expected.admin_cards.messages_all));
  await expect(card(page, L.connectedChips)).toContainText(count(expected.admin_cards.chips_connected));
  await expect(card(page, messages.activeAccounts)).toContainText(
    count(expected.admin_cards.accounts_active),
  );
  // This page's own socket at least.
  await expect(card(page, L.onlineUsers)).not.toContainText(/^\D*0$/);
  const conversations = page.getByRole('region', { name: L.conversationDistribution });
  await expect(
    conversations.locator('.recharts-bar-rectangle').filter({ visible: true }).first(),
  ).toBeVisible();
  await expect(page.getByRole('region', { name: L.chipDistribution })).toContainText('Conectado');
  await shot(page, 'dash-tecnico-7-dias');

  // Above 30 days an area; 30 days or less, bars.
  const intervals = page.getByRole('group', { name: L.intervalGroup });
  await intervals.getByRole('button', { name: '3 meses' }).click();
  await expect(page.getByRole('status').filter({ hasText: periodText(90) })).toBeVisible();
  await expect(conversations.locator('.recharts-area').filter({ visible: true }).first()).toBeVisible();
  const quarter = await server.call<AdminDashboardData>('get-admin-dashboard-data', { interval: 90 }, admin);
  await expect(card(page, L.conversationsTotal)).toContainText(count(quarter.admin_cards.conversations_all));
  await shot(page, 'dash-tecnico-3-meses');
  await intervals.getByRole('button', { name: '30 dias' }).click();
  await expect(page.getByRole('status').filter({ hasText: periodText(30) })).toBeVisible();
  await expect(
    conversations.locator('.recharts-bar-rectangle').filter({ visible: true }).first(),
  ).toBeVisible();

  // The owner has no tech_dashboard: no menu line, and the address is refused.
  await page.evaluate(() => localStorage.clear());
  await signedIn(page, server, 'dono@demo.com');
  await page.goto(`${server.url}/atendimento`);
  const ownerMenu = await mainMenu(page);
  await expect(ownerMenu.getByRole('link', { name: 'Dashboard', exact: true })).toBeVisible();
  await expect(ownerMenu.getByRole('link', { name: labels.common.technicalDashboard })).toHaveCount(0);
  await page.goto(`${server.url}/dash-tecnico`);
  await expect(page.getByRole('alert').filter({ hasText: messages.insufficientPermissions })).toBeVisible();
  await expect(page).toHaveURL(/\/atendimento$/);
  // And the server refuses its calls the same way.
  const ownerToken = await tokenOf(server, 'dono@demo.com');
  await expect(server.call('get-admin-dashboard-data', { interval: 7 }, ownerToken)).rejects.toThrow();
});

test('an attendant lands on Atendimento; the dashboard is not theirs', async ({ page, server }) => {
  await page.goto(`${server.url}/login`);
  await signInWithForm(page, 'atendente@demo.com');
  await expect(page).toHaveURL(/\/atendimento$/);
  const menu = await mainMenu(page);
  await expect(menu.getByRole('link', { name: 'Dashboard', exact: true })).toHaveCount(0);
  await page.goto(`${server.url}/`);
  await expect(page.getByRole('alert').filter({ hasText: messages.insufficientPermissions })).toBeVisible();
  await expect(page).toHaveURL(/\/atendimento$/);
});
