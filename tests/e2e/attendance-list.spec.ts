// Atendimento's conversation list as the team sees it: customers write from the simulator (its public
// calls, as the simulator page makes them), conversations appear live with the waiting badge and the
// 'Nova conversa' notification, move to the top with their new preview, filter, page by 15, and stay in
// their department. Each test makes chips of its own and files them at the end.
import { mkdirSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { labels, messages } from '@/shared/messages';
import {
  calm,
  connectedChip,
  conversationOf,
  isPhone,
  localId,
  phoneOf,
  realtimeReady,
  signedIn,
  tokenOf,
} from './app';
import { type AppServer, expect, test } from './fixtures';

test.use({ seed: 'demo', ...calm });

const project = () => test.info().project.name;
const SHOTS = '/tmp/shots';
mkdirSync(SHOTS, { recursive: true });
const shot = (page: Page, name: string) =>
  page.screenshot({ path: `${SHOTS}/attendance-${name}-${project()}.png` });

async function openAttendance(page: Page, email: string, server: AppServer) {
  const token = await signedIn(page, server, email);
  await page.goto('/atendimento');
  await expect(page.getByRole('heading', { level: 1, name: 'Atendimento' })).toBeVisible();
  // What the tests make happen next is seen live.
  await realtimeReady(page);
  return token;
}

const conversationList = (page: Page) => page.getByRole('list', { name: labels.common.conversations });
const items = (page: Page) => conversationList(page).getByRole('listitem');
const item = (page: Page, text: string) => items(page).filter({ hasText: text });
const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });
/** Closes the notifications, so a screenshot shows the screen under them. */
async function clearToasts(page: Page) {
  for (const close of await page.getByRole('alert').getByRole('button', { name: 'Fechar' }).all())
    await close.click({ timeout: 2000 }).catch(() => {});
  await expect(page.getByRole('alert')).toHaveCount(0);
}
const banner = (page: Page) => page.getByRole('status').filter({ hasText: messages.listFiltersActive });

/** Opens 'Buscar ou filtrar' and answers the sheet. */
async function filterSheet(page: Page) {
  await page.getByRole('button', { name: messages.listSearchOrFilter }).click();
  const sheet = page.getByRole('dialog', { name: messages.listSearchOrFilter });
  await expect(sheet).toBeVisible();
  return sheet;
}

async function pick(page: Page, sheet: Locator, label: string, option: string) {
  await sheet.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await page.keyboard.press('Escape');
}

async function apply(sheet: Locator) {
  await sheet.getByRole('button', { name: messages.listApplyFilters }).click();
  await expect(sheet).toBeHidden();
}

test("a customer's conversation appears live, waiting, with 'Nova conversa'; a new message moves it to the top", {
  tag: '@phone',
}, async ({ page, browser, server }) => {
  const owner = await tokenOf(server, 'dono@demo.com');
  const chip = await connectedChip(server, owner, 'Suporte Lista', 'Suporte');
  try {
    const attendant = await openAttendance(page, 'atendente@demo.com', server);
    await expect(page.getByText(messages.listEmpty).or(conversationList(page)).first()).toBeVisible();
    const { open_manual_count: before } = await server.call<{ open_manual_count: number }>(
      'get-open-manual-conversation-count',
      {},
      attendant,
    );
    const bell = page.getByRole('banner').getByRole('link', { name: /Atendimentos humanos abertos/ });

    // The top buttons: Nova conversa opens its dialog; the gear holds the user's own toggles.
    const newConversation = page.getByRole('button', {
      name: messages.newConversationPushTitle,
      exact: true,
    });
    await expect(newConversation).toBeEnabled();

    // A first customer writes: the notification, then (2 s later) the item, waiting for an answer.
    const ana = phoneOf(1, 1);
    await chip.write(ana, 'Ana Lista', 'Olá, meu pedido não chegou');
    await expect(toast(page, messages.newConversationPushTitle)).toBeVisible();
    await expect(toast(page, messages.newConversationPushTitle)).toContainText('Ana Lista');
    const first = item(page, 'Ana Lista');
    await expect(first).toBeVisible();
    await expect(first).toContainText(messages.listWaitingResponse);
    await expect(first).toContainText('Olá, meu pedido não chegou');
    await expect(first).toContainText(chip.name);

    // A second customer: on top. Then Ana writes again: back on top with the new preview.
    await chip.write(phoneOf(1, 2), 'Beto Lista', 'Boa tarde');
    await expect(items(page).first()).toContainText('Beto Lista');
    // The bell counts them at once, not at its next minute's poll.
    await expect(bell).toHaveAccessibleName(`Atendimentos humanos abertos: ${before + 2}`);
    const long = `Segunda mensagem: ${'muito '.repeat(12)}longa`;
    await chip.write(ana, 'Ana Lista', long);
    await expect(items(page).first()).toContainText('Ana Lista');
    await expect(items(page).first()).toContainText(`${long.slice(0, 59)}…`);
    await expect(items(page).nth(1)).toContainText('Beto Lista');
    await clearToasts(page);
    await shot(page, 'list');

    // Opening it: the pane at the side on a desktop, a full-screen dialog on a phone that Back closes.
    await items(page).first().getByRole('button').click();
    await expect(page).toHaveURL(/\/atendimento\?c=[0-9A-Z]{28}$/);
    if (isPhone()) {
      const dialog = page.getByRole('dialog', { name: 'Ana Lista' });
      await expect(dialog).toBeVisible();
      await shot(page, 'pane-dialog');
      await page.goBack();
      await expect(dialog).toBeHidden();
      await expect(page).toHaveURL(/\/atendimento$/);
      await expect(items(page).first()).toContainText('Ana Lista');
    } else {
      await expect(items(page).first().getByRole('button')).toHaveAttribute('aria-current', 'true');
      await shot(page, 'pane');
    }

    // An attendant of Vendas never sees a Suporte conversation.
    const other = await browser.newContext({ ...calm.contextOptions, viewport: page.viewportSize() });
    try {
      const sales = await other.newPage();
      await openAttendance(sales, 'atendente2@demo.com', server);
      await expect(sales.getByText(messages.listEmpty).or(conversationList(sales)).first()).toBeVisible();
      await chip.write(ana, 'Ana Lista', 'Alguém aí?');
      await expect(item(page, 'Alguém aí?')).toBeVisible();
      await expect(item(sales, 'Ana Lista')).toHaveCount(0);
      await expect(toast(sales, messages.newConversationPushTitle)).toHaveCount(0);

      // Transferred to Vendas: it leaves Suporte's list and joins Vendas'.
      const anaConversation = await conversationOf(server, owner, ana);
      const departments = await server.call<{ _id: string; name: string }[]>(
        'get-departments-by-user',
        {},
        owner,
      );
      await server.call(
        'transfer-conversation',
        {
          conversation_id: anaConversation._id,
          type: 'department',
          department: departments.find((d) => d.name === 'Vendas')?._id,
        },
        owner,
      );
      await expect(item(page, 'Ana Lista')).toHaveCount(0);
      await expect(item(sales, 'Ana Lista')).toBeVisible();
    } finally {
      await other.close();
    }

    // Finished by someone else: it leaves the list.
    const beto = await conversationOf(server, owner, phoneOf(1, 2));
    await server.call('finish-conversation', { conversation_id: beto._id }, owner);
    await expect(item(page, 'Beto Lista')).toHaveCount(0);

    // A click on the notification opens its conversation.
    await chip.write(phoneOf(1, 3), 'Cris Lista', 'Oi, tudo bem?');
    await toast(page, 'Cris Lista').getByText('Cris Lista').click();
    await expect(page).toHaveURL(/\/atendimento\?c=[0-9A-Z]{28}$/);
    if (isPhone()) await expect(page.getByRole('dialog', { name: 'Cris Lista' })).toBeVisible();
    else await expect(item(page, 'Cris Lista').getByRole('button')).toHaveAttribute('aria-current', 'true');
  } finally {
    await chip.file();
  }
});

test('filters: situation, type, tag, chip, name and phone; the active-filters banner and Limpar filtros', {
  tag: '@phone',
}, async ({ page, server }) => {
  const manager = await tokenOf(server, 'gerente@demo.com');
  const one = await connectedChip(server, manager, 'Filtro Um', 'Suporte');
  const two = await connectedChip(server, manager, 'Filtro Dois', 'Vendas');
  const tag = await server.call<{ _id: string; name: string }>(
    'create-or-update-tag',
    { name: `VIP ${project()}`, color: '#7048E8' },
    manager,
  );
  try {
    const bia = phoneOf(1, 11);
    await one.write(bia, 'Bia Filtro', 'Quero um orçamento');
    await one.write(phoneOf(1, 12), 'Caio Filtro', 'Oi');
    await two.write(phoneOf(1, 13), 'Davi Filtro', 'Olá');
    const biaConversation = await conversationOf(server, manager, bia);
    await server.call(
      'change-contact-tags',
      { contact_id: biaConversation.contact._id, tags: [tag._id], conversation_id: biaConversation._id },
      manager,
    );
    // Caio is answered: no longer waiting.
    const caio = await conversationOf(server, manager, phoneOf(1, 12));
    await server.call(
      'send-conversation-message',
      { conversation_id: caio._id, message_id: localId(), text: 'Olá Caio, em que posso ajudar?' },
      manager,
    );

    await openAttendance(page, 'gerente@demo.com', server);
    for (const name of ['Bia Filtro', 'Caio Filtro', 'Davi Filtro'])
      await expect(item(page, name)).toBeVisible();
    await expect(item(page, 'Bia Filtro')).toContainText(tag.name);
    await expect(item(page, 'Caio Filtro')).not.toContainText(messages.listWaitingResponse);
    await expect(banner(page)).toHaveCount(0);

    // Não respondidas.
    let sheet = await filterSheet(page);
    await shot(page, 'filters');
    await sheet.getByRole('radio', { name: messages.filterSituationWaiting }).check();
    await apply(sheet);
    await expect(banner(page)).toBeVisible();
    await expect(item(page, 'Bia Filtro')).toBeVisible();
    await expect(item(page, 'Caio Filtro')).toHaveCount(0);
    await shot(page, 'filtered');
    await banner(page).getByRole('button', { name: messages.listClearFilters }).click();
    await expect(banner(page)).toHaveCount(0);
    await expect(item(page, 'Caio Filtro')).toBeVisible();

    // Type: only Chatbot leaves none of these; Humano brings them back.
    sheet = await filterSheet(page);
    await sheet.getByRole('checkbox', { name: messages.human }).uncheck();
    await apply(sheet);
    await expect(banner(page)).toBeVisible();
    await expect(page.getByText(messages.listEmpty)).toBeVisible();
    sheet = await filterSheet(page);
    await expect(sheet.getByRole('checkbox', { name: labels.common.chatbot })).toBeChecked();
    await sheet.getByRole('checkbox', { name: messages.human }).check();
    await sheet.getByRole('checkbox', { name: labels.common.chatbot }).uncheck();
    await apply(sheet);
    await expect(item(page, 'Davi Filtro')).toBeVisible();

    // A tag.
    sheet = await filterSheet(page);
    await sheet.getByRole('button', { name: messages.listClearFilters }).click();
    await expect(sheet).toBeHidden();
    sheet = await filterSheet(page);
    await pick(page, sheet, labels.common.tags, tag.name);
    await apply(sheet);
    await expect(item(page, 'Bia Filtro')).toBeVisible();
    await expect(items(page)).toHaveCount(1);

    // A chip (the tag is kept: clear it first).
    sheet = await filterSheet(page);
    await sheet.getByRole('button', { name: messages.listClearFilters }).click();
    sheet = await filterSheet(page);
    await pick(page, sheet, labels.common.chips, two.name);
    await apply(sheet);
    await expect(item(page, 'Davi Filtro')).toBeVisible();
    await expect(items(page)).toHaveCount(1);

    // By name, then by phone digits (Enter applies).
    sheet = await filterSheet(page);
    await sheet.getByRole('button', { name: messages.listClearFilters }).click();
    sheet = await filterSheet(page);
    await sheet.getByRole('searchbox', { name: messages.filterText }).fill('caio filtro');
    await apply(sheet);
    await expect(item(page, 'Caio Filtro')).toBeVisible();
    await expect(items(page)).toHaveCount(1);
    sheet = await filterSheet(page);
    await expect(sheet.getByRole('searchbox', { name: messages.filterText })).toHaveValue('caio filtro');
    await sheet.getByRole('searchbox', { name: messages.filterText }).fill(bia.replace(/\D/g, '').slice(-6));
    await sheet.getByRole('searchbox', { name: messages.filterText }).press('Enter');
    await expect(sheet).toBeHidden();
    await expect(item(page, 'Bia Filtro')).toBeVisible();
    await expect(items(page)).toHaveCount(1);

    // The filter survives a reload; Limpar filtros in the sheet brings everything back.
    await page.reload();
    await expect(banner(page)).toBeVisible();
    await expect(items(page)).toHaveCount(1);
    sheet = await filterSheet(page);
    await sheet.getByRole('button', { name: messages.listClearFilters }).click();
    await expect(banner(page)).toHaveCount(0);
    for (const name of ['Bia Filtro', 'Caio Filtro', 'Davi Filtro'])
      await expect(item(page, name)).toBeVisible();

    // The gear: the user's own sound toggle.
    await page.getByRole('button', { name: messages.listSettings }).click();
    const sound = page.getByRole('switch', { name: messages.listNotificationSound });
    await expect(sound).toBeChecked();
    await expect(page.getByRole('switch', { name: messages.listSignature })).toBeVisible();
    await sound.click({ force: true });
    await expect(toast(page, messages.configChanged)).toBeVisible();
    await expect(sound).not.toBeChecked();
    await sound.click({ force: true });
    await expect(sound).toBeChecked();
  } finally {
    await one.file();
    await two.file();
    await server.call('create-or-update-tag', { _id: tag._id, filed: true }, manager);
  }
});

test('reopened with a saved list, Atendimento asks the server again and shows its answer, not an error', async ({
  page,
  server,
}) => {
  const owner = await tokenOf(server, 'dono@demo.com');
  const chip = await connectedChip(server, owner, 'Suporte Reaberta', 'Suporte');
  try {
    await openAttendance(page, 'atendente@demo.com', server);
    // A search no conversation matches yet: an empty first page, which the device saves with the session.
    const search = `reaberta ${localId()}`;
    const sheet = await filterSheet(page);
    await sheet.getByRole('searchbox', { name: messages.filterText }).fill(search);
    await apply(sheet);
    await expect(page.getByText(messages.listEmpty)).toBeVisible();
    await expect
      .poll(() => page.evaluate((text) => localStorage.getItem('painel-cache')?.includes(text), search))
      .toBe(true);

    // Reopened: the saved page shows, and the list is asked for again from its first page.
    await page.reload();
    await expect(banner(page)).toBeVisible();
    await expect(page.getByText(messages.listEmpty)).toBeVisible();
    await expect(page.getByText(messages.listLoadFailed)).toHaveCount(0);
    await realtimeReady(page);
    // The search is by name: a customer of that name writes, and the list shows them live.
    await chip.write(phoneOf(4, 1), `Rui ${search}`, 'Olá');
    await expect(item(page, `Rui ${search}`)).toBeVisible();
    await expect(page.getByText(messages.listLoadFailed)).toHaveCount(0);
  } finally {
    await chip.file();
  }
});

test("an attendant's department filter starts from their own departments and offers only those", {
  tag: '@phone',
}, async ({ page, server }) => {
  await openAttendance(page, 'atendente@demo.com', server);
  await expect(banner(page)).toHaveCount(0);
  const sheet = await filterSheet(page);
  const departments = sheet.getByRole('combobox', { name: labels.common.departments });
  // The chosen department shows as a pill beside the box.
  await expect(sheet.getByText('Suporte', { exact: true })).toBeVisible();
  await departments.click();
  await expect(page.getByRole('option', { name: 'Vendas' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await sheet.getByRole('button', { name: 'Fechar' }).click();
  await expect(sheet).toBeHidden();
});

test("15 at a time: 'Carregar mais' adds the next 15; the DOM keeps only what is in view; Back keeps the scroll", {
  tag: '@phone',
}, async ({ page, server }) => {
  const owner = await tokenOf(server, 'dono@demo.com');
  const chip = await connectedChip(server, owner, 'Lote', 'Vendas');
  const batch = `Lote ${project()}`;
  try {
    for (let i = 1; i <= 20; i++)
      await chip.write(phoneOf(1, 100 + i), `${batch} ${String(i).padStart(2, '0')}`, `Mensagem ${i}`);
    await openAttendance(page, 'dono@demo.com', server);
    const sheet = await filterSheet(page);
    await sheet.getByRole('searchbox', { name: messages.filterText }).fill(batch);
    await apply(sheet);
    await expect(items(page).first()).toContainText(`${batch} 20`);
    // Virtualized: only the items in view (and a few around) are in the DOM.
    expect(await items(page).count()).toBeLessThanOrEqual(12);

    const more = page.getByRole('button', { name: messages.listLoadMore });
    await more.scrollIntoViewIfNeeded();
    await expect(item(page, `${batch} 06`)).toHaveAttribute('aria-posinset', '15');
    await expect(item(page, `${batch} 05`)).toHaveCount(0);
    await more.click();
    await expect(more).toBeHidden();
    const scroller = conversationList(page).locator('xpath=..');
    await scroller.evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await expect(item(page, `${batch} 01`)).toHaveAttribute('aria-posinset', '20');
    await expect(item(page, `${batch} 01`)).toHaveAttribute('aria-setsize', '20');
    expect(await items(page).count()).toBeLessThanOrEqual(12);

    // Opening one and coming back keeps the list where it was.
    const top = await scroller.evaluate((el) => el.scrollTop);
    expect(top).toBeGreaterThan(0);
    await item(page, `${batch} 02`).getByRole('button').click();
    await expect(
      page
        .getByRole('list', { name: messages.messagesTitle })
        .getByRole('listitem')
        .filter({ hasText: 'Mensagem 2' }),
    ).toBeVisible();
    // The whole page, list and conversation together, stays small.
    const nodes = await page.evaluate(() => document.querySelectorAll('body *').length);
    test.info().annotations.push({ type: 'DOM nodes', description: String(nodes) });
    expect(nodes).toBeLessThanOrEqual(1400);
    if (isPhone()) {
      const dialog = page.getByRole('dialog', { name: `${batch} 02` });
      await expect(dialog).toBeVisible();
      await shot(page, 'pane-dialog-loaded');
      // The pane's own back button, this time.
      await dialog.getByRole('button', { name: messages.back }).click();
      await expect(dialog).toBeHidden();
      await expect(page).toHaveURL(/\/atendimento$/);
    }
    await expect(item(page, `${batch} 02`)).toBeVisible();
    expect(await scroller.evaluate((el) => el.scrollTop)).toBe(top);
    await shot(page, 'load-more');
    console.log(`[${project()}] DOM nodes with the list and the pane open: ${nodes}`);

    const clear = await filterSheet(page);
    await clear.getByRole('button', { name: messages.listClearFilters }).click();
  } finally {
    await chip.file();
  }
});

test('equal distribution: switched on in the department dialog, a new conversation shows who holds it', async ({
  page,
  server,
}) => {
  const owner = await tokenOf(server, 'dono@demo.com');
  const department = `Distribuição ${Date.now().toString(36)}`;
  await signedIn(page, server, 'gerente@demo.com');
  await page.goto('/departamentos');
  await page.getByRole('button', { name: 'Novo departamento' }).click();
  const dialog = page.getByRole('dialog', { name: 'Novo departamento' });
  await dialog.getByLabel('Nome').fill(department);
  const distribute = dialog.getByRole('switch', { name: labels.departments.equalDistribution });
  await expect(distribute).not.toBeChecked();
  await expect(dialog).toContainText(labels.departments.equalDistributionExplanation);
  await distribute.check();
  await shot(page, 'distribution-dialog');
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(dialog).toBeHidden();

  // An attendant of that department, online in Atendimento, gets the next conversation at once.
  const departments = await server.call<{ _id: string; name: string; distribute: boolean }[]>(
    'get-departments-by-user',
    {},
    owner,
  );
  const saved = departments.find((d) => d.name === department);
  expect(saved?.distribute).toBe(true);
  const email = `${department.replace(/\W/g, '').toLowerCase()}@demo.com`;
  await server.call(
    'create-team-user',
    {
      name: 'Clara Distribuída',
      email,
      user_role: 'user',
      password: '123456',
      departments: [saved?._id],
      access_areas: ['contacts'],
    },
    owner,
  );
  const chip = await connectedChip(server, owner, 'Distribuição', department);
  try {
    await signedIn(page, server, email, '123456');
    await page.goto('/atendimento');
    await realtimeReady(page);
    await chip.write(phoneOf(1, 21), 'Cliente Distribuído', 'Oi, quero ajuda');
    const row = item(page, 'Cliente Distribuído');
    await expect(row.getByLabel(labels.departments.assignedTo('Clara Distribuída'))).toBeVisible();
    await clearToasts(page);
    // 'Minhas': the conversations she holds.
    const sheet = await filterSheet(page);
    await sheet.getByRole('checkbox', { name: labels.departments.mine }).check();
    await apply(sheet);
    await expect(banner(page)).toBeVisible();
    await expect(row).toBeVisible();
    await shot(page, 'distribution-holder');
  } finally {
    await chip.file();
  }
});
