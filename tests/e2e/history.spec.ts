// /conversas: the table (channel, tags, department, start, end or 'Em andamento'), the filter sheet (types
// mandatory, search), the read-only conversation, and 'Enviar para atendimento humano' resuming a finished
// chatbot conversation in another department with a tag. Cleans up its chips, tag and conversations.

import type { Page } from '@playwright/test';
import type { Conversation } from '@/shared/contract/conversations';
import { labels, messages } from '@/shared/messages';
import { calm, connectedChip, mainMenu, realtimeReady, shot, signedIn, type TestChip, tokenOf } from './app';
import { type AppServer, expect, test } from './fixtures';

test.use({ seed: 'demo', ...calm });

const OWNER = 'dono@demo.com';
const attendanceList = (page: Page) => page.getByRole('list', { name: labels.common.conversations });
/** Atendimento's first page answered (the list, or its empty text). */
const attendanceLoaded = (page: Page) =>
  expect(attendanceList(page).or(page.getByText('Nenhuma conversa encontrada.'))).toBeVisible();
const project = () => test.info().project.name;
const stamp = () => Date.now().toString(36);

/** The customer at `phone` writes, and the conversation is finished. */
async function finishedConversation(
  server: AppServer,
  token: string,
  c: TestChip,
  phone: string,
  name: string,
) {
  const { conversation } = await c.customer(phone, name, `Olá, aqui é ${name}`);
  await server.call('finish-conversation', { conversation_id: conversation._id }, token);
  return conversation;
}

test('filter, read-only view and sending a finished conversation back to a person in another department', async ({
  page,
  browser,
  server,
}) => {
  const owner = await tokenOf(server, OWNER);
  const id = stamp();
  const human = await connectedChip(server, owner, `Humano ${id}`);
  // Chatbots arrive with their issue: until then every conversation is served by a person (Humano).
  const bot = await connectedChip(server, owner, `Segundo ${id}`);
  const tag = await server.call<{ _id: string }>(
    'create-or-update-tag',
    { name: `VIP ${project()} ${id}`, color: '#228BE6' },
    owner,
  );
  const digit = project() === 'phone' ? '5' : '6';
  const humanPhone = `1197${digit}${id.slice(-3).replace(/\D/g, '1').padStart(3, '1')}001`.slice(0, 11);
  const botPhone = `${humanPhone.slice(0, 8)}002`;
  const prefix = humanPhone.slice(0, 8);
  // Names without digits: a search by name also matches phones holding its digits (3 or more).
  const letters = id.replace(/\d/g, (d) => 'abcdefghij'[Number(d)] as string);
  const people = { human: `Hugo ${letters}`, bot: `Beatriz ${letters}` };
  const conversations: string[] = [];
  try {
    conversations.push((await finishedConversation(server, owner, human, humanPhone, people.human))._id);
    conversations.push((await finishedConversation(server, owner, bot, botPhone, people.bot))._id);

    await signedIn(page, server, OWNER);
    // Atendimento's list loaded first: the resume below must reach it live, not only on a reload.
    await page.goto('/atendimento');
    await attendanceLoaded(page);
    await (await mainMenu(page)).getByRole('link', { name: 'Conversas' }).click();
    await expect(page.getByRole('heading', { name: 'Conversas', level: 1 })).toBeVisible();

    // Search this test's numbers only (the worker's server is shared), both types.
    const filter = async () => {
      await page.getByRole('button', { name: 'Filtrar' }).click();
      const sheet = page.getByRole('dialog', { name: 'Filtros' });
      await expect(sheet).toBeVisible();
      return sheet;
    };
    let sheet = await filter();
    await sheet.getByLabel('Buscar por nome ou telefone').fill(prefix);
    await sheet.getByRole('button', { name: messages.listApplyFilters }).click();
    await expect(sheet).toBeHidden();
    await expect(page.getByText(messages.listFiltersActive)).toBeVisible();
    const list = page.getByRole('table', { name: 'Conversas' });
    const item = (name: string) => list.getByRole('row').filter({ hasText: name });
    await expect(item(people.human)).toBeVisible();
    await expect(item(people.bot)).toBeVisible();
    await expect(item(people.human)).toContainText(human.name);
    await expect(item(people.human)).toContainText('Suporte');
    await shot(page, 'history-list');

    // The type of service is mandatory; Chatbot alone leaves these human conversations out.
    sheet = await filter();
    await sheet.getByRole('checkbox', { name: 'Chatbot' }).uncheck();
    await sheet.getByRole('checkbox', { name: 'Humano' }).uncheck();
    await expect(sheet.getByText(messages.historyTypesRequired)).toBeVisible();
    await sheet.getByRole('button', { name: messages.listApplyFilters }).click();
    await expect(sheet).toBeVisible();
    await sheet.getByRole('checkbox', { name: 'Chatbot' }).check();
    await shot(page, 'history-filter');
    await sheet.getByRole('button', { name: messages.listApplyFilters }).click();
    await expect(page.getByText('Nenhuma conversa encontrada.')).toBeVisible();
    sheet = await filter();
    await sheet.getByRole('checkbox', { name: 'Chatbot' }).uncheck();
    await sheet.getByRole('checkbox', { name: 'Humano' }).check();
    await sheet.getByRole('button', { name: messages.listApplyFilters }).click();
    await expect(item(people.human)).toBeVisible();
    await expect(item(people.bot)).toBeVisible();

    // Limpar filtros brings back every type (the search goes too; search again).
    sheet = await filter();
    await sheet.getByRole('button', { name: messages.listClearFilters }).click();
    await expect(page.getByText(messages.listFiltersActive)).toBeHidden();
    sheet = await filter();
    await expect(sheet.getByRole('checkbox', { name: 'Chatbot' })).toBeChecked();
    await sheet.getByLabel('Buscar por nome ou telefone').fill(people.bot);
    await sheet.getByRole('button', { name: messages.listApplyFilters }).click();
    await expect(item(people.bot)).toBeVisible();
    await expect(item(people.human)).toHaveCount(0);

    // Ver conversa: the messages, read-only.
    await item(people.bot).getByRole('button', { name: messages.historyViewConversation }).click();
    const view = page.getByRole('dialog', { name: people.bot });
    await expect(view.getByText(`Olá, aqui é ${people.bot}`)).toBeVisible();
    await expect(view.getByRole('textbox')).toHaveCount(0);
    await shot(page, 'history-view');
    await view.getByRole('button', { name: 'Fechar' }).click();

    // Vendas' attendant has Atendimento open on another device.
    const vendas = await browser.newPage({ serviceWorkers: 'block', locale: 'pt-BR' });
    await signedIn(vendas, server, 'atendente2@demo.com');
    await vendas.goto('/atendimento');
    await attendanceLoaded(vendas);
    await realtimeReady(vendas);

    // Enviar para atendimento humano: a tag and Vendas; it is served again there.
    await item(people.bot).getByRole('button', { name: messages.historySendToHuman }).click();
    const transfer = page.getByRole('dialog', { name: messages.historySendToHuman });
    await transfer.getByRole('combobox', { name: 'Tags' }).click();
    await page.getByRole('option', { name: `VIP ${project()} ${id}` }).click();
    await transfer.getByRole('combobox', { name: labels.common.department }).click();
    await page.getByRole('option', { name: 'Vendas' }).click();
    await shot(page, 'history-transfer');
    await transfer.getByRole('button', { name: messages.paneTransferSubmit }).click();
    await expect(page.getByText(messages.conversationResumed)).toBeVisible();
    await expect(transfer).toBeHidden();
    await expect(item(people.bot)).toContainText(messages.historyOngoing);
    await expect(item(people.bot)).toContainText('Vendas');
    const { conversations: open } = await server.call<{ conversations: Conversation[] }>(
      'get-conversations-with-last-message',
      { filter: { text: botPhone } },
      owner,
    );
    expect(open[0]).toMatchObject({ finished: null, is_manual: true });
    expect(open[0]?.contact.tags).toContain(tag._id);

    // Both lists have it live: Vendas' attendant's, and the owner's back in Atendimento (no reload).
    await expect(attendanceList(vendas).getByRole('listitem').filter({ hasText: people.bot })).toBeVisible();
    await vendas.close();
    await (await mainMenu(page)).getByRole('link', { name: 'Atendimento' }).click();
    await expect(attendanceList(page).getByRole('listitem').filter({ hasText: people.bot })).toBeVisible();
  } finally {
    for (const c of conversations)
      await server.call('finish-conversation', { conversation_id: c }, owner).catch(() => undefined);
    await human.file();
    await bot.file();
    await server.call('create-or-update-tag', { _id: tag._id, filed: true }, owner);
  }
});
