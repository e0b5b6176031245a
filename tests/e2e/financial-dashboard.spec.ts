// The financial dashboard (issue 22 item 4, spec 3 §2.3) as platform staff see it, on a server of its own that
// Guru's webhook has fed: the base, new sales, revenue per period in BRL, the projections' badge (green at 0 or
// more, red below) and the charts, loaded in a chunk of their own after the cards (never by the shell). An
// owner without the system role is refused; a Guru pastdue event opens the owner's past-due dialog.
import type { Locator, Page } from '@playwright/test';
import { formatBRL } from '@/app/features/billing/money';
import { labels, messages } from '@/shared/messages';
import { adminMenuLabels } from '@/shared/messages-admin-menu';
import { financialLabels as L } from '@/shared/messages-billing';
import { calm, mainMenu, shot, signedIn } from './app';
import { expect, startServer, test } from './fixtures';

test.use({ seed: 'demo', ...calm });

const TOKEN = 'guru-e2e-token-0123456789abcdef';
const DAY = 86_400_000;
const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });

let app: Awaited<ReturnType<typeof startServer>> | undefined;

async function guru(url: string, body: Record<string, unknown>) {
  const res = await fetch(`${url}/api/v1/billing/guru`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_token: TOKEN, ...body }),
  });
  if (res.status !== 200) throw new Error(`guru ${res.status}: ${await res.text()}`);
}

const sale = (id: string, email: string, total: number, cycle: number, at: Date, status = 'approved') => ({
  webhook_type: 'transaction',
  id,
  status,
  contact: { name: 'Cliente', email },
  payment: { total, currency: 'BRL' },
  product: { id: 'painel', offer: { id: 'off-e2e' } },
  subscription: { id: `sub-${id}`, charged_times: cycle },
  dates: { confirmed_at: at.toISOString() },
});

test.beforeAll(async () => {
  // A server of its own (the webhook's token), next to the worker's: slow on a loaded 2-core machine.
  test.setTimeout(180_000);
  app = await startServer({ seed: 'demo', env: { GURU_WEBHOOK_TOKEN: TOKEN } });
  const { server } = app;
  const { token } = await server.call<{ token: string }>('auth', {
    email: 'admin@demo.com',
    password: 'demo123',
  });
  await server.call(
    'create-guru-offer',
    {
      name: 'Plano E2E',
      offer_id: 'off-e2e',
      max_channels: 2,
      max_official_channels: 0,
      max_users: 3,
      max_flows: 2,
      max_summaries: 10,
      max_follow_ups: 10,
      campaigns_enabled: false,
    },
    token,
  );
  const now = Date.now();
  const justNow = new Date(now - 60_000);
  // Today: a new client (R$ 100) and a recurrence (R$ 50, refunded); 10 and 20 days ago two new clients.
  await guru(server.url, sale('T1', 'um@e2e.com', 100, 1, justNow));
  await guru(server.url, sale('T2', 'dois@e2e.com', 50, 2, justNow));
  await guru(server.url, sale('T3', 'tres@e2e.com', 700, 1, new Date(now - 10 * DAY)));
  await guru(server.url, sale('T4', 'quatro@e2e.com', 2000, 1, new Date(now - 20 * DAY)));
  await guru(server.url, sale('T2', 'dois@e2e.com', 50, 2, justNow, 'refunded'));
  await guru(server.url, {
    webhook_type: 'subscription',
    id: 'sub-T1',
    last_status: 'pastdue',
    last_status_at: justNow.toISOString(),
    subscriber: { email: 'um@e2e.com' },
    current_invoice: { id: 'inv-1', cycle: 2, status: 'overdue', payment_url: 'https://pay.example/1' },
  });
});
test.afterAll(async () => {
  await app?.stop();
});

const stat = (page: Page, section: string, label: string) =>
  page.getByRole('region', { name: section }).getByRole('group', { name: label });

/** The badge's background as [r, g, b]. */
async function rgbOf(badge: Locator) {
  // The text sits in the badge's label: the colour is on the nearest box that paints one.
  const css = await badge.evaluate((el) => {
    for (let e: Element | null = el; e; e = e.parentElement) {
      const bg = getComputedStyle(e).backgroundColor;
      if (bg !== 'rgba(0, 0, 0, 0)' && bg !== 'transparent') return bg;
    }
    return '';
  });
  return (css.match(/\d+/g) ?? []).slice(0, 3).map(Number) as [number, number, number];
}

test('cards, projections and charts from the ledger; the charts load after the cards', {
  tag: '@phone',
}, async ({ page }) => {
  const server = app?.server;
  if (!server) throw new Error('no server');
  const chunks: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') chunks.push(new URL(r.url()).pathname);
  });
  await signedIn(page, server, 'admin@demo.com');
  await page.goto(`${server.url}/atendimento`);
  await expect(page.getByRole('heading', { level: 1, name: 'Atendimento' })).toBeVisible();
  expect(chunks.filter((c) => /FinancialCharts|FinancialDashboard/.test(c))).toEqual([]);

  const menu = await mainMenu(page);
  await menu.getByRole('link', { name: adminMenuLabels.financial }).click();
  await expect(page).toHaveURL(/\/dash-financeiro$/);
  await expect(page.getByRole('heading', { level: 1, name: L.title })).toBeVisible();

  await expect(stat(page, L.base, L.active)).toContainText('2');
  await expect(stat(page, L.base, messages.statusPastDue)).toContainText('1');
  await expect(stat(page, L.base, L.canceled)).toContainText('1');
  await expect(stat(page, L.newSales, messages.today)).toContainText('1');
  await expect(stat(page, L.newSales, messages.last7Days)).toContainText('1');
  await expect(stat(page, L.newSales, messages.last30Days)).toContainText('3');

  const today = page.getByRole('region', { name: L.revenue(messages.today) });
  await expect(today).toContainText(`${L.newClients}${formatBRL(10000)}`);
  await expect(today).toContainText(`${L.recurrences}${formatBRL(5000)}`);
  await expect(today).toContainText(`${L.refunds}${formatBRL(5000)}`);
  await expect(today).toContainText(`${L.net}${formatBRL(10000)}`);
  const month = page.getByRole('region', { name: L.revenue(messages.last30Days) });
  await expect(month).toContainText(`${L.newClients}${formatBRL(280000)}`);
  await expect(month).toContainText(`${L.net}${formatBRL(280000)}`);

  // Two-week average 850/14 = 60,71 a day: × 7 = 425,00 against 150,00 (+64,7%); × 30 = 1.821,43 against
  // 2.850,00 (−56,5%).
  const week = stat(page, L.projections, L.projectionWeek);
  const monthProjection = stat(page, L.projections, L.projectionMonth);
  await expect(week).toContainText(formatBRL(42500));
  await expect(monthProjection).toContainText(formatBRL(182143));
  const up = week.getByText(L.percent(64.7), { exact: true });
  const down = monthProjection.getByText(L.percent(-56.5), { exact: true });
  await expect(up).toBeVisible();
  await expect(down).toBeVisible();
  const [gr, gg] = await rgbOf(up);
  const [rr, rg] = await rgbOf(down);
  expect(gg, 'the positive badge is green').toBeGreaterThan(gr);
  expect(rr, 'the negative badge is red').toBeGreaterThan(rg);

  const charts = page.getByRole('region', { name: L.charts });
  for (const title of [
    L.sellTypeChart,
    L.monthChart,
    L.dailyIncomeChart,
    L.averageChart,
    L.projectionChart,
    L.cycleChart,
    L.activeChart,
  ]) {
    const figure = charts.getByRole('figure', { name: title });
    await expect(figure).toBeVisible();
    await expect(figure.locator('svg.recharts-surface').first()).toBeVisible();
  }
  // No cancellation in this ledger: 'Sem dados', not an empty chart with a column of zero ticks.
  const canceled = charts.getByRole('figure', { name: L.canceledChart });
  await expect(canceled).toContainText(messages.noDataInPeriod);
  await expect(canceled.locator('svg.recharts-surface')).toHaveCount(0);
  expect(chunks.some((c) => /FinancialCharts/.test(c))).toBe(true);
  await shot(page, 'financial-dashboard');
  // Readable pieces of the long page (a phone's full page is ten screens tall).
  const project = test.info().project.name;
  await page
    .getByRole('region', { name: L.projections })
    .screenshot({ path: `test-results/screens/financial-projections-${project}.png` });
  await page
    .getByRole('region', { name: L.revenue(messages.last30Days) })
    .screenshot({ path: `test-results/screens/financial-month-${project}.png` });
  await charts
    .getByRole('figure', { name: L.monthChart })
    .screenshot({ path: `test-results/screens/financial-month-chart-${project}.png` });
});

test('an owner without the system role is refused', async ({ page }) => {
  const server = app?.server;
  if (!server) throw new Error('no server');
  await signedIn(page, server, 'dono@demo.com');
  await page.goto(`${server.url}/dash-financeiro`);
  await expect(toast(page, messages.insufficientPermissions)).toBeVisible();
  await expect(page).toHaveURL(/\/atendimento$/);
});

test('a Guru pastdue event opens the past-due dialog with its payment link', async ({ page }) => {
  const server = app?.server;
  if (!server) throw new Error('no server');
  // The demo owner's account becomes a Guru customer, then its subscription is past due.
  await guru(server.url, sale('TD', 'dono@demo.com', 97, 1, new Date(Date.now() - 120_000)));
  await guru(server.url, {
    webhook_type: 'subscription',
    id: 'sub-TD',
    last_status: 'pastdue',
    last_status_at: new Date().toISOString(),
    subscriber: { email: 'dono@demo.com' },
    current_invoice: { id: 'inv-d2', cycle: 2, status: 'overdue', payment_url: 'https://pay.example/dono' },
  });
  await signedIn(page, server, 'dono@demo.com');
  await page.goto(`${server.url}/atendimento`);
  const dialog = page.getByRole('dialog', { name: messages.pastDueTitle });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('link', { name: labels.shell.payInvoice })).toHaveAttribute(
    'href',
    'https://pay.example/dono',
  );
  await shot(page, 'past-due-dialog');
});

// Issue 34 item 7 (spec 3 §8): a failed call shows the server's message as an error toast, as the others do.
test("a failed call shows the server's message as an error toast", async ({ page }) => {
  const server = app?.server;
  if (!server) throw new Error('no server');
  await page.route('**/api/get-financial-dashboard-data', (route) =>
    route.fulfill({ status: 200, json: { error: true, message: 'Relatório indisponível agora.' } }),
  );
  await signedIn(page, server, 'admin@demo.com');
  await page.goto(`${server.url}/dash-financeiro`);
  await expect(
    page.locator('.mantine-Notification-root').filter({ hasText: 'Relatório indisponível agora.' }),
  ).toBeVisible();
});
