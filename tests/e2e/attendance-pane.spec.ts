// Atendimento's conversation pane as the team uses it: a customer writes from the simulator (its page in a
// second browser context, or its public calls), the attendant answers from the command bar, the customer
// reads it, and the conversation menu's actions and dialogs do what the spec says, for the user who acts and
// the users who watch. Each test makes a chip of its own and files it at the end.
import { mkdirSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';
import type { BrowserContext, Locator, Page } from '@playwright/test';
import type { ContactDetails } from '@/shared/contract/contacts';
import type { Conversation, Message } from '@/shared/contract/conversations';
import { formatPhone } from '@/shared/format';
import { labels, messages } from '@/shared/messages';
import {
  calm,
  connectedChip,
  conversationOf,
  digitsOf,
  isPhone,
  localId,
  phoneOf,
  realtimeReady,
  signedIn,
  tokenOf,
} from './app';
import { expect, startServer, test } from './fixtures';

test.use({ seed: 'demo', ...calm });

const ANA = 'atendente@demo.com'; // Suporte
const BRUNO = 'atendente2@demo.com'; // Vendas
const MANAGER = 'gerente@demo.com';
const OWNER = 'dono@demo.com';

const project = () => test.info().project.name;
const SHOTS = '/tmp/shots';
mkdirSync(SHOTS, { recursive: true });
const shot = (page: Page, name: string) =>
  page.screenshot({ path: `${SHOTS}/pane-${name}-${project()}.png` });

/** The pane of the conversation: the right column on a desktop, a full-screen dialog on a phone. */
async function openPane(page: Page, conversationId: string, name: string) {
  await page.goto(`/atendimento?c=${conversationId}`);
  const pane = page.getByRole('region', { name });
  await expect(pane).toBeVisible();
  await expect(pane.getByRole('heading', { name })).toBeVisible();
  await realtimeReady(page);
  return pane;
}

/** The pane's header: contact, chip, department, mode and the menu. */
const header = (pane: Locator) => pane.locator('header');
const composer = (pane: Locator) => pane.getByRole('textbox', { name: labels.common.message, exact: true });
const bubbles = (pane: Locator) =>
  pane.getByRole('list', { name: messages.messagesTitle }).getByRole('listitem');
const bubble = (pane: Locator, text: string | RegExp) => bubbles(pane).filter({ hasText: text });

/** Sends as a person does: Enter on a desktop; on a phone, the send button. */
async function write(pane: Locator, text: string) {
  const box = composer(pane);
  await box.fill(text);
  if (isPhone()) await pane.getByRole('button', { name: messages.send }).click();
  else await box.press('Enter');
  await expect(box).toHaveValue('');
}

async function menu(page: Page, pane: Locator) {
  await pane.getByRole('button', { name: messages.paneMenu }).click();
  const dropdown = page.getByRole('menu');
  await expect(dropdown).toBeVisible();
  return dropdown;
}

const entries = async (dropdown: Locator) =>
  (await dropdown.getByRole('menuitem').allInnerTexts()).map((t) => t.replace(/\s*em breve$/i, '').trim());

const toast = (page: Page, text: string) =>
  page.locator('.mantine-Notification-root').filter({ hasText: text });

async function confirmDialog(page: Page, title: string) {
  const dialog = page.getByRole('dialog', { name: title });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Confirmar' }).click();
  await expect(dialog).toBeHidden();
}

const conversationList = (page: Page) => page.getByRole('list', { name: labels.common.conversations });

test('the attendant answers, the customer reads it; formatting, typing, and text that is never HTML', {
  tag: '@phone',
}, async ({ page, browser, server }) => {
  const manager = await tokenOf(server, MANAGER);
  const chip = await connectedChip(server, manager, 'Painel');
  const phoneContext = await browser.newContext({
    viewport: { width: 360, height: 640 },
    ...calm.contextOptions,
  });
  try {
    // The customer, on their phone.
    const phone = await phoneContext.newPage();
    await phone.goto(`/simulador/${chip.simulator}`);
    await expect(phone.getByRole('heading', { name: 'Quem é você?' })).toBeVisible();
    const number = phoneOf(8, 1);
    await phone.getByLabel('DDD e número').fill(number);
    await phone.getByLabel('Nome').fill('Carla Cliente');
    await phone.getByRole('button', { name: 'Abrir conversa' }).click();
    await phone.getByLabel('Mensagem').fill('Boa tarde! Meu pedido não chegou.');
    await phone.getByRole('button', { name: 'Enviar' }).click();
    const { _id } = await conversationOf(server, manager, number);

    // The attendant opens it and answers with WhatsApp formatting.
    await signedIn(page, server, ANA);
    const pane = await openPane(page, _id, 'Carla Cliente');
    await expect(header(pane)).toContainText(formatPhone(digitsOf(number)));
    await expect(header(pane)).toContainText('Suporte');
    await expect(bubble(pane, 'Meu pedido não chegou')).toBeVisible();
    await write(pane, '*Claro*, vou _verificar_ ~agora~ o pedido ```#123```');
    const answer = bubble(pane, 'vou verificar');
    await expect(answer.locator('strong')).toHaveText('Claro');
    await expect(answer.locator('em')).toHaveText('verificar');
    await expect(answer.locator('s')).toHaveText('agora');
    await expect(answer.locator('code')).toHaveText('#123');

    // On desktop an emoji button beside the attachments opens a picker; the emoji goes where the caret is.
    if (!isPhone()) {
      const box = composer(pane);
      await box.fill('Obrigada!');
      await pane.getByRole('button', { name: messages.paneEmoji }).click();
      await page.getByRole('group', { name: messages.paneEmoji }).getByRole('button', { name: '🙏' }).click();
      await expect(box).toHaveValue('Obrigada!🙏');
      await shot(page, 'composer-emoji');
      await box.press('Escape');
      await box.fill('');
    } else await expect(pane.getByRole('button', { name: messages.paneEmoji })).toHaveCount(0);

    // It reaches the customer's phone; the page is seen, so it is read, and the attendant sees it read.
    const onPhone = phone.getByRole('list', { name: 'Mensagens' }).getByRole('listitem');
    await expect(onPhone.filter({ hasText: 'o pedido' })).toBeVisible();
    await expect(answer.getByRole('img', { name: messages.paneStatusRead })).toBeVisible();
    await expect(answer.getByRole('img', { name: messages.paneStatusRead })).toHaveCSS(
      'color',
      'rgb(83, 189, 235)',
    );
    // The list's preview, as WhatsApp's: 'Você:' and the same ticks before our own last message.
    if (isPhone()) await page.goBack();
    const item = conversationList(page).getByRole('listitem').filter({ hasText: 'Carla Cliente' });
    await expect(item).toContainText(`${messages.listYou}*Claro*, vou`);
    await expect(item.getByRole('img', { name: messages.paneStatusRead })).toBeVisible();
    await shot(page, 'list-own-preview');
    if (isPhone()) await item.getByRole('button').first().click();

    // The customer writes again: 'digitando…' first, then the message, shown as text even when it looks like HTML.
    await phone.getByLabel('Mensagem').fill('<script>alert("oi")</script> <b>Obrigada!</b>');
    await phone.getByRole('button', { name: 'Enviar' }).click();
    await expect(pane.getByRole('status').filter({ hasText: messages.typing })).toBeVisible();
    const html = bubble(pane, '<script>alert("oi")</script>');
    await expect(html).toBeVisible();
    await expect(pane.getByRole('status').filter({ hasText: messages.typing })).toBeHidden();
    await expect(html.locator('script, b')).toHaveCount(0);
    await shot(page, 'conversation');
    await shot(phone, 'customer-phone');
  } finally {
    await phoneContext.close();
    await chip.file();
  }
});

test("'/' inserts a quick message; Enter as the spec says; the signature; deleting one's own message", {
  tag: '@phone',
}, async ({ page, server }) => {
  const manager = await tokenOf(server, MANAGER);
  const chip = await connectedChip(server, manager, 'Painel');
  const shortcut = `obrigado${project()}`;
  const quick = await server.call<{ _id: string }>(
    'create-or-update-quick-message',
    { shortcut, message: 'Obrigado pelo contato! Qualquer dúvida, estamos aqui.' },
    manager,
  );
  const other = await server.call<{ _id: string }>(
    'create-or-update-quick-message',
    { shortcut: `ola${project()}`, message: 'Olá! Como posso ajudar?' },
    manager,
  );
  const ana = await tokenOf(server, ANA);
  const created: { _id: string }[] = [];
  try {
    const { conversation, name } = await chip.customer(phoneOf(8, 2), 'Bruna Cliente');
    await signedIn(page, server, ANA);
    const pane = await openPane(page, conversation._id, name);
    const box = composer(pane);

    // '/' opens the quick messages; typing filters them by shortcut; Enter picks the first.
    await box.fill('/');
    const options = page.getByRole('listbox', { name: labels.common.quickMessages }).getByRole('option');
    await expect(options.filter({ hasText: `/${shortcut}` })).toBeVisible();
    await expect(options.filter({ hasText: `/ola${project()}` })).toBeVisible();
    await box.pressSequentially(`obri`);
    await expect(options).toHaveCount(1);
    await shot(page, 'quick-messages');
    await box.press('Enter');
    await expect(box).toHaveValue('Obrigado pelo contato! Qualquer dúvida, estamos aqui.');

    if (isPhone()) {
      // On a phone Enter adds a line; the button sends.
      await box.press('Enter');
      await box.pressSequentially('Até logo');
      await expect(box).toHaveValue(/estamos aqui\.\nAté logo$/);
      await pane.getByRole('button', { name: messages.send }).click();
    } else {
      // On a desktop Shift+Enter adds a line and Enter sends.
      await box.press('Shift+Enter');
      await box.pressSequentially('Até logo');
      await expect(box).toHaveValue(/estamos aqui\.\nAté logo$/);
      await box.press('Enter');
    }
    await expect(box).toHaveValue('');
    await expect(bubble(pane, 'Até logo')).toContainText('Obrigado pelo contato!');

    // A quick message created while the conversation is open is offered at once, in a popup wide enough
    // for its preview.
    created.push(
      await server.call<{ _id: string }>(
        'create-or-update-quick-message',
        { shortcut: `depois${project()}`, message: 'Volto já com a resposta do financeiro, um instante.' },
        manager,
      ),
    );
    await box.fill('/depois');
    await expect(options.filter({ hasText: `/depois${project()}` })).toBeVisible();
    const popup = await page.getByRole('listbox', { name: labels.common.quickMessages }).boundingBox();
    expect(popup?.width).toBeGreaterThanOrEqual(isPhone() ? 320 : 400);
    await shot(page, 'quick-messages-new');
    await box.fill('');

    // The signature: a hint in the bar, the name in bold before the text.
    await server.call('update-user-config', { user_signature: true }, ana);
    await page.reload();
    await expect(pane.getByText(messages.paneSignatureActive)).toBeVisible();
    await write(pane, 'Mensagem com assinatura');
    const signed = bubble(pane, 'Mensagem com assinatura');
    await expect(signed.locator('strong')).toHaveText('Ana Atendente');
    await expect(signed.getByRole('img', { name: messages.statusSent })).toBeVisible();
    const stored = await server.call<Message[]>(
      'get-messages-by-conversation',
      { conversation_id: conversation._id },
      ana,
    );
    expect(stored.at(-1)?.message).toBe('*Ana Atendente*:\nMensagem com assinatura');
    await shot(page, 'signature');

    // One's own message can be deleted from its menu.
    await signed.getByRole('button', { name: messages.paneMessageOptions }).click();
    await page.getByRole('menuitem', { name: messages.paneDeleteMessage }).click();
    await confirmDialog(page, messages.paneDeleteMessage);
    await expect(bubble(pane, messages.listDeletedMessage)).toBeVisible();
    await expect(bubble(pane, 'Mensagem com assinatura')).toHaveCount(0);
    // The customer's messages have no such menu.
    await expect(bubble(pane, 'Olá!').getByRole('button', { name: messages.paneMessageOptions })).toHaveCount(
      0,
    );
  } finally {
    await server.call('update-user-config', { user_signature: false }, ana);
    // The worker's server is shared with other files: leave no quick message behind.
    for (const { _id } of [quick, other, ...created])
      await server.call('create-or-update-quick-message', { _id, filed: true }, manager);
    await chip.file();
  }
});

test('menu entries by state; answered; no follow-up entry where none applies; finish leaves the list and a resume brings it back', {
  tag: '@phone',
}, async ({ page, server }) => {
  const manager = await tokenOf(server, MANAGER);
  const chip = await connectedChip(server, manager, 'Painel');
  try {
    const { conversation, name } = await chip.customer(phoneOf(8, 3), 'Davi Cliente');
    await signedIn(page, server, ANA);
    const pane = await openPane(page, conversation._id, name);

    // A person serves it, it is open, no automatic follow-up is configured for it (spec 2 §2.3: 'Desativar
    // follow-up automático' only when the conversation has one): the spec's entries, in order.
    let dropdown = await menu(page, pane);
    expect(await entries(dropdown)).toEqual([
      messages.contactData,
      messages.paneEditName,
      messages.paneMarkAnswered,
      messages.scheduleMessage,
      messages.paneAssignTags,
      messages.transfer,
      messages.paneFinish,
    ]);
    await expect(dropdown.getByRole('menuitem', { name: messages.scheduleMessage })).toBeEnabled();
    await shot(page, 'menu');

    await dropdown.getByRole('menuitem', { name: messages.paneMarkAnswered }).click();
    await expect(toast(page, messages.conversationUpdated)).toBeVisible();
    await expect
      .poll(async () => (await conversationOf(server, manager, phoneOf(8, 3))).waiting_response)
      .toBe(false);

    dropdown = await menu(page, pane);
    await expect(dropdown.getByRole('menuitem', { name: messages.paneDisableFollowUp })).toHaveCount(0);

    // Finish: the pane clears and the conversation leaves the list.
    await dropdown.getByRole('menuitem', { name: messages.paneFinish }).click();
    await confirmDialog(page, messages.paneFinish);
    await expect(pane).toBeHidden();
    await expect(page).not.toHaveURL(/[?&]c=/);
    await expect(conversationList(page).getByRole('listitem').filter({ hasText: name })).toHaveCount(0);

    // Opened again (a link, a notification): finished, so only a resume is offered.
    const again = await openPane(page, conversation._id, name);
    await expect(header(again)).toContainText(messages.paneFinished);
    await expect(again.getByText(messages.conversationFinishedHint)).toBeVisible();
    await expect(composer(again)).toHaveCount(0);
    dropdown = await menu(page, again);
    const finishedEntries = await entries(dropdown);
    expect(finishedEntries).toContain(messages.paneResume);
    expect(finishedEntries).not.toContain(messages.paneFinish);
    expect(finishedEntries).not.toContain(messages.paneServeAsHuman);
    await shot(page, 'finished');
    await dropdown.getByRole('menuitem', { name: messages.paneResume }).click();
    await expect(toast(page, messages.conversationResumed)).toBeVisible();
    await expect(header(again)).not.toContainText(messages.paneFinished);
    await expect(composer(again)).toBeVisible();
    if (isPhone()) await again.getByRole('button', { name: messages.back }).click();
    await expect(conversationList(page).getByRole('listitem').filter({ hasText: name })).toBeVisible();
  } finally {
    await chip.file();
  }
});

test('transfer: the rules’ messages, then to Vendas, where it leaves Suporte’s attendant for Vendas’s', {
  tag: '@phone',
}, async ({ page, browser, server }) => {
  const manager = await tokenOf(server, MANAGER);
  const chip = await connectedChip(server, manager, 'Painel');
  const other = await browser.newContext({
    viewport: page.viewportSize() ?? undefined,
    ...calm.contextOptions,
  });
  try {
    const { conversation, name } = await chip.customer(phoneOf(8, 4), 'Elisa Cliente');
    await signedIn(page, server, ANA);
    const pane = await openPane(page, conversation._id, name);
    const dropdown = await menu(page, pane);
    await dropdown.getByRole('menuitem', { name: messages.transfer }).click();
    const dialog = page.getByRole('dialog', { name: messages.transfer });
    const submit = dialog.getByRole('button', { name: messages.paneTransferSubmit });
    await expect(submit).toBeDisabled();

    await dialog.getByRole('radio', { name: labels.common.chatbot }).check();
    await submit.click();
    await expect(dialog.getByRole('alert')).toHaveText(messages.transferChatbotRequired);
    await dialog.getByRole('radio', { name: labels.common.flow }).check();
    await submit.click();
    await expect(dialog.getByRole('alert')).toHaveText(messages.transferFlowRequired);
    await dialog.getByRole('radio', { name: labels.common.department }).check();
    await submit.click();
    await expect(dialog.getByRole('alert')).toHaveText(messages.transferDepartmentRequired);
    await shot(page, 'transfer-dialog');

    await dialog.getByRole('combobox', { name: labels.common.department }).click();
    await page.getByRole('option', { name: 'Vendas', exact: true }).click();
    await submit.click();
    await expect(toast(page, messages.conversationUpdated)).toBeVisible();
    // Ana serves Suporte only: the conversation leaves her pane and her list.
    await expect(pane).toBeHidden();
    await expect(conversationList(page).getByRole('listitem').filter({ hasText: name })).toHaveCount(0);

    // Bruno serves Vendas: he sees it, in Vendas, served by a person.
    const bruno = await other.newPage();
    await signedIn(bruno, server, BRUNO);
    const brunoPane = await openPane(bruno, conversation._id, name);
    await expect(header(brunoPane)).toContainText('Vendas');
    await expect(header(brunoPane)).toContainText(messages.human);
  } finally {
    await other.close();
    await chip.file();
  }
});

test('another user finishing the open conversation clears the pane with the info message', {
  tag: '@phone',
}, async ({ page, browser, server }) => {
  const manager = await tokenOf(server, MANAGER);
  const chip = await connectedChip(server, manager, 'Painel');
  const other = await browser.newContext({
    viewport: page.viewportSize() ?? undefined,
    ...calm.contextOptions,
  });
  try {
    const { conversation, name } = await chip.customer(phoneOf(8, 5), 'Fábio Cliente');
    await signedIn(page, server, ANA);
    const pane = await openPane(page, conversation._id, name);

    const second = await other.newPage();
    await signedIn(second, server, MANAGER);
    const managerPane = await openPane(second, conversation._id, name);
    const dropdown = await menu(second, managerPane);
    await dropdown.getByRole('menuitem', { name: messages.paneFinish }).click();
    await confirmDialog(second, messages.paneFinish);
    await expect(managerPane).toBeHidden();

    await expect(toast(page, messages.finishedByAnotherUser)).toBeVisible();
    await expect(pane).toBeHidden();
    await shot(page, 'finished-by-another');
    // The one who finished it is not told it was someone else.
    await expect(toast(second, messages.finishedByAnotherUser)).toHaveCount(0);
  } finally {
    await other.close();
    await chip.file();
  }
});

test('a manager transferring the open conversation out of the attendant’s departments tells the attendant', {
  tag: '@phone',
}, async ({ page, browser, server }) => {
  const manager = await tokenOf(server, MANAGER);
  const chip = await connectedChip(server, manager, 'Painel');
  const other = await browser.newContext({
    viewport: page.viewportSize() ?? undefined,
    ...calm.contextOptions,
  });
  try {
    const { conversation, name } = await chip.customer(phoneOf(8, 21), 'Gustavo Cliente');
    await signedIn(page, server, ANA);
    const pane = await openPane(page, conversation._id, name);

    // The manager, on another device, transfers it to Vendas (Ana serves Suporte only).
    const second = await other.newPage();
    await signedIn(second, server, MANAGER);
    const managerPane = await openPane(second, conversation._id, name);
    const dropdown = await menu(second, managerPane);
    await dropdown.getByRole('menuitem', { name: messages.transfer }).click();
    const dialog = second.getByRole('dialog', { name: messages.transfer });
    await dialog.getByRole('radio', { name: labels.common.department }).check();
    await dialog.getByRole('combobox', { name: labels.common.department }).click();
    await second.getByRole('option', { name: 'Vendas', exact: true }).click();
    await dialog.getByRole('button', { name: messages.paneTransferSubmit }).click();
    await expect(toast(second, messages.conversationUpdated)).toBeVisible();

    // Ana is told why it left her screen, and it is gone from her pane and her list.
    await expect(toast(page, messages.transferredByAnotherUser)).toBeVisible();
    await expect(pane).toBeHidden();
    await expect(conversationList(page).getByRole('listitem').filter({ hasText: name })).toHaveCount(0);
    await page.screenshot({ path: `/tmp/shots-sendlist/transferred-by-another-${project()}.png` });
    // The manager still sees it (every department) and is not told it was someone else.
    await expect(managerPane).toBeVisible();
    await expect(toast(second, messages.transferredByAnotherUser)).toHaveCount(0);
  } finally {
    await other.close();
    await chip.file();
  }
});

test('a send that fails leaves the customer waiting, and the list shows the last message was not sent', {
  tag: '@phone',
}, async ({ page, server }) => {
  const manager = await tokenOf(server, MANAGER);
  const chip = await connectedChip(server, manager, 'Painel');
  try {
    const { conversation, name } = await chip.customer(phoneOf(8, 22), 'Helena Cliente', 'Meu pedido?');
    await signedIn(page, server, ANA);
    const pane = await openPane(page, conversation._id, name);
    const item = conversationList(page).getByRole('listitem').filter({ hasText: name });
    const failedMark = item.getByRole('img', { name: messages.listLastMessageFailed });

    // The chip drops (its phone went offline): Ana's answer cannot reach the customer.
    await server.call('connect-chip', { _id: chip._id, connect: false }, manager);
    await write(pane, 'Já vou verificar');
    await expect(
      bubble(pane, 'Já vou verificar').getByRole('img', { name: messages.statusNotSent }),
    ).toBeVisible();
    if (isPhone()) await pane.getByRole('button', { name: messages.back }).click();
    await expect(item).toContainText('Já vou verificar');
    await expect(failedMark).toBeVisible();
    await expect(item.getByText(messages.listWaitingResponse)).toBeVisible();
    await page.screenshot({ path: `/tmp/shots-sendlist/send-failed-${project()}.png` });
    // The server says the same after a reload: still waiting, the preview marked.
    await page.reload();
    await expect(failedMark).toBeVisible();
    await expect(item.getByText(messages.listWaitingResponse)).toBeVisible();
    expect((await conversationOf(server, manager, phoneOf(8, 22))).waiting_response).toBe(true);
  } finally {
    await chip.file();
  }
});

test('name, tags and the contact drawer: a variable (JSON too) and an annotation with author and date', {
  tag: '@phone',
}, async ({ page, server }) => {
  const manager = await tokenOf(server, MANAGER);
  const chip = await connectedChip(server, manager, 'Painel');
  const tag = await server.call<{ _id: string; name: string }>(
    'create-or-update-tag',
    { name: `VIP ${project()}`, color: '#F03E3E' },
    manager,
  );
  try {
    const { conversation, name } = await chip.customer(phoneOf(8, 6), 'Gabi Cliente');
    await signedIn(page, server, ANA);
    let pane = await openPane(page, conversation._id, name);

    // Editar nome do contato.
    let dropdown = await menu(page, pane);
    await dropdown.getByRole('menuitem', { name: messages.paneEditName }).click();
    const nameDialog = page.getByRole('dialog', { name: messages.paneEditName });
    await nameDialog.getByRole('textbox', { name: messages.paneNameLabel }).fill('Gabriela (VIP)');
    await nameDialog.getByRole('button', { name: 'Salvar' }).click();
    await expect(toast(page, messages.nameUpdated)).toBeVisible();
    pane = page.getByRole('region', { name: 'Gabriela (VIP)' });
    await expect(pane.getByRole('heading', { name: 'Gabriela (VIP)' })).toBeVisible();

    // Atribuir tags.
    dropdown = await menu(page, pane);
    await dropdown.getByRole('menuitem', { name: messages.paneAssignTags }).click();
    const tagsDialog = page.getByRole('dialog', { name: messages.paneAssignTags });
    await tagsDialog.getByRole('combobox', { name: labels.common.tags }).click();
    await page.getByRole('option', { name: tag.name }).click();
    await tagsDialog.getByRole('button', { name: 'Salvar' }).click();
    await expect(toast(page, messages.tagsUpdated)).toBeVisible();

    // Dados do contato.
    dropdown = await menu(page, pane);
    await dropdown.getByRole('menuitem', { name: messages.contactData }).click();
    const drawer = page.getByRole('dialog', { name: messages.contactData });
    await expect(drawer.getByRole('heading', { name: 'Gabriela (VIP)' })).toBeVisible();
    const add = drawer.getByRole('button', { name: messages.paneVariableAdd });
    await add.click();
    await expect(drawer.getByRole('alert')).toHaveText(messages.profileFillAllFields);
    await drawer.getByRole('textbox', { name: messages.paneVariableKey }).fill('cidade');
    await drawer.getByRole('textbox', { name: messages.paneVariableValue }).fill('Campinas');
    await add.click();
    const variables = drawer.getByRole('list', { name: messages.variables });
    await expect(variables).toContainText('cidade');
    await drawer.getByRole('textbox', { name: messages.paneVariableKey }).fill('cidade');
    await drawer.getByRole('textbox', { name: messages.paneVariableValue }).fill('Sorocaba');
    await add.click();
    await expect(drawer.getByRole('alert')).toHaveText(messages.contactVariableDuplicate);
    // Typed but not added: Salvar takes it too.
    await drawer.getByRole('textbox', { name: messages.paneVariableKey }).fill('perfil');
    await drawer
      .getByRole('textbox', { name: messages.paneVariableValue })
      .fill('{"plano": "ouro", "pontos": 120}');
    await drawer.getByRole('textbox', { name: messages.paneNewAnnotation }).fill('Prefere contato à tarde.');
    await drawer.getByRole('button', { name: 'Salvar' }).click();
    await expect(toast(page, messages.contactUpdated)).toBeVisible();
    const notes = drawer.getByRole('list', { name: messages.paneAnnotations });
    await expect(notes.getByRole('listitem')).toHaveCount(1);
    await expect(notes).toContainText('Ana Atendente');
    await expect(notes).toContainText('Prefere contato à tarde.');
    await expect(notes).toContainText(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
    await expect(variables).toContainText('{"plano":"ouro","pontos":120}');
    await shot(page, 'contact-drawer');

    const ana = await tokenOf(server, ANA);
    const saved = await server.call<ContactDetails>(
      'get-contact-by-id',
      { contact_id: conversation.contact._id },
      ana,
    );
    expect(saved.data).toEqual({ cidade: 'Campinas', perfil: { plano: 'ouro', pontos: 120 } });
    expect(saved.tags).toEqual([tag._id]);
    expect(saved.override_name).toBe('Gabriela (VIP)');
    expect(saved.annotations).toMatchObject([{ user: 'Ana Atendente', text: 'Prefere contato à tarde.' }]);

    // A variable removed is gone after Salvar.
    await drawer.getByRole('button', { name: messages.paneVariableRemove('cidade') }).click();
    await drawer.getByRole('button', { name: 'Salvar' }).click();
    await expect
      .poll(
        async () =>
          (
            await server.call<ContactDetails>(
              'get-contact-by-id',
              { contact_id: conversation.contact._id },
              ana,
            )
          ).data,
      )
      .toEqual({ perfil: { plano: 'ouro', pontos: 120 } });
  } finally {
    await server.call('create-or-update-tag', { _id: tag._id, filed: true }, manager);
    await chip.file();
  }
});

type Rgb = [number, number, number];

/** A PNG made here: a diagonal gradient between two colours. */
function png(width: number, height: number, from: Rgb, to: Rgb) {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2;
  const pixel = (x: number, y: number) => {
    const t = (x / width + y / height) / 2;
    return from.map((c, i) => Math.round(c + ((to[i] as number) - c) * t));
  };
  const rows = Array.from({ length: height }, (_, y) =>
    Buffer.from([0, ...Array.from({ length: width }, (_, x) => pixel(x, y)).flat()]),
  );
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

test('the last 25 messages, Carregar mais, a small DOM; a picture and its viewer; a pasted image is sent', {
  tag: '@phone',
}, async ({ page, server }) => {
  const manager = await tokenOf(server, MANAGER);
  const chip = await connectedChip(server, manager, 'Painel');
  try {
    const phone = phoneOf(8, 7);
    for (let i = 1; i <= 60; i++) await chip.write(phone, 'Hugo Cliente', `Mensagem número ${i}`);
    const { conversation } = await chip.customer(phoneOf(8, 7), 'Hugo Cliente', 'Mensagem número 61');
    // A picture from the customer.
    const form = new FormData();
    form.append('token', chip.simulator);
    form.append(
      'file',
      new Blob([png(400, 260, [0, 168, 132], [83, 189, 235])], { type: 'image/png' }),
      'foto.png',
    );
    const uploaded = (await (
      await fetch(`${server.url}/api/simulator-upload`, { method: 'POST', body: form })
    ).json()) as {
      message: { url: string };
    };
    await server.call('simulator-send', {
      token: chip.simulator,
      phone,
      name: 'Hugo Cliente',
      id: localId(),
      type: 'image',
      text: 'Veja a caixa',
      media_url: uploaded.message.url,
      file_name: 'foto.png',
    });

    await signedIn(page, server, ANA);
    const pane = await openPane(page, conversation._id, 'Hugo Cliente');
    const picture = bubble(pane, 'Veja a caixa');
    await expect(picture).toBeVisible();
    // Only the rows in view (and a few around them) are in the page.
    expect(await bubbles(pane).count()).toBeLessThan(30);
    await pane.getByRole('button', { name: messages.paneOpenImage }).click();
    const viewer = page.getByRole('dialog', { name: 'foto.png' });
    const photo = viewer.getByRole('img', { name: 'foto.png' });
    await expect(photo).toBeVisible();
    await shot(page, 'image-viewer');
    // As a phone's photo viewer: full screen and dark, a download, and a pinch (two fingers apart) zooms.
    await expect(viewer).toHaveCSS('background-color', 'rgb(17, 17, 17)');
    expect((await viewer.boundingBox())?.width).toBe(page.viewportSize()?.width);
    await expect(viewer.getByRole('link', { name: messages.paneImageDownload })).toHaveAttribute(
      'download',
      'foto.png',
    );
    await photo.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const [cx, cy] = [r.x + r.width / 2, r.y + r.height / 2];
      const fire = (type: string, pointerId: number, x: number) =>
        el.dispatchEvent(
          new PointerEvent(type, { pointerId, clientX: x, clientY: cy, bubbles: true, pointerType: 'touch' }),
        );
      fire('pointerdown', 1, cx - 10);
      fire('pointerdown', 2, cx + 10);
      fire('pointermove', 1, cx - 30);
      fire('pointermove', 2, cx + 30);
      fire('pointerup', 1, cx - 30);
      fire('pointerup', 2, cx + 30);
    });
    await expect(photo).toHaveAttribute('style', /scale\(3\)/);
    await photo.dblclick();
    await expect(photo).toHaveAttribute('style', /scale\(1\)/);
    await viewer.getByRole('button', { name: 'Fechar' }).click();

    // The last 25 first; each 'Carregar mais' adds 25 older ones.
    const list = pane.getByRole('list', { name: messages.messagesTitle });
    const scroller = list.locator('xpath=..');
    await scroller.evaluate((el) => el.scrollTo({ top: 0 }));
    const line = (n: number) => pane.getByText(`Mensagem número ${n}`, { exact: true });
    await expect(line(38)).toBeVisible();
    await expect(line(37)).toHaveCount(0);
    await pane.getByRole('button', { name: messages.listLoadMore }).click();
    await scroller.evaluate((el) => el.scrollTo({ top: 0 }));
    await expect(line(13)).toBeVisible();
    await pane.getByRole('button', { name: messages.listLoadMore }).click();
    await scroller.evaluate((el) => el.scrollTo({ top: 0 }));
    await expect(line(1)).toBeVisible();
    await expect(pane.getByRole('button', { name: messages.listLoadMore })).toHaveCount(0);
    expect(await bubbles(pane).count()).toBeLessThan(40);
    // The pane's whole DOM stays small (the bench's budget is 1,400 nodes for the list and the pane).
    const nodes = await pane.evaluate((el) => el.querySelectorAll('*').length);
    test.info().annotations.push({ type: 'pane DOM nodes', description: String(nodes) });
    expect(nodes).toBeLessThan(800);

    // A pasted image becomes the attachment; it is sent with the text as its caption.
    const box = composer(pane);
    await box.focus();
    const bytes = [...png(120, 80, [250, 82, 82], [255, 212, 59])];
    await box.evaluate((el, data) => {
      const file = new File([new Uint8Array(data)], 'image.png', { type: 'image/png' });
      const transfer = new DataTransfer();
      transfer.items.add(file);
      el.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }),
      );
    }, bytes);
    await expect(pane.getByRole('button', { name: messages.paneRemoveAttachment })).toBeVisible();
    await shot(page, 'pasted-image');
    await write(pane, 'Segue a etiqueta');
    const sent = bubble(pane, 'Segue a etiqueta');
    await expect(sent.getByRole('img', { name: /imagem-colada/ })).toHaveAttribute('src', /^\/media\//);
    await expect(sent.getByRole('img', { name: messages.statusSent })).toBeVisible();
    await expect(pane.getByRole('button', { name: messages.paneRemoveAttachment })).toHaveCount(0);
  } finally {
    await chip.file();
  }
});

// A chatbot conversation needs a chatbot, which this product does not make yet: the busy account's seed has
// one, on a server of its own.
test('a chatbot conversation can be taken by a person; bulk finish: the owner’s entry, 48 h by default', {
  tag: '@phone',
}, async ({ browser }) => {
  test.setTimeout(120_000);
  const busy = await startServer({ seed: 'busy-account' });
  const server = busy.server;
  const viewport = test.info().project.use.viewport ?? undefined;
  const contexts = [
    await browser.newContext({ baseURL: server.url, viewport, ...calm.contextOptions }),
    await browser.newContext({ baseURL: server.url, viewport, ...calm.contextOptions }),
  ];
  try {
    const owner = await tokenOf(server, OWNER);
    const { conversations } = await server.call<{ conversations: Conversation[] }>(
      'get-conversations-with-last-message',
      { filter: { types: ['chatbot'] } },
      owner,
    );
    const bot = conversations[0] as Conversation;
    const name = formatPhone(bot.contact.phone);
    const page = await (contexts[0] as BrowserContext).newPage();
    await signedIn(page, server, OWNER);
    const pane = await openPane(page, bot._id, name);
    await expect(header(pane)).toContainText(labels.common.chatbot);

    let dropdown = await menu(page, pane);
    const botEntries = await entries(dropdown);
    expect(botEntries).toContain(messages.paneServeAsHuman);
    expect(botEntries.at(-1)).toBe(messages.paneBulkFinish);
    await shot(page, 'menu-chatbot-owner');
    await dropdown.getByRole('menuitem', { name: messages.paneServeAsHuman }).click();
    await expect(toast(page, messages.conversationUpdated)).toBeVisible();
    await expect(header(pane)).toContainText(messages.human);
    dropdown = await menu(page, pane);
    expect(await entries(dropdown)).not.toContain(messages.paneServeAsHuman);

    // Bulk finish: hours of inactivity, 48 by default.
    await dropdown.getByRole('menuitem', { name: messages.paneBulkFinish }).click();
    const dialog = page.getByRole('dialog', { name: messages.paneBulkFinish });
    const hours = dialog.getByRole('textbox', { name: messages.paneBulkFinishHours });
    await expect(hours).toHaveValue('48');
    await expect(dialog).toContainText(messages.paneBulkFinishHint(48));
    await shot(page, 'bulk-finish');
    await dialog.getByRole('button', { name: messages.finish }).click();
    await expect(toast(page, messages.conversationsFinished)).toBeVisible();
    await expect(dialog).toBeHidden();

    // A manager's menu has no such entry.
    const second = await (contexts[1] as BrowserContext).newPage();
    await signedIn(second, server, MANAGER);
    const managerPane = await openPane(second, bot._id, name);
    const managerMenu = await menu(second, managerPane);
    expect(await entries(managerMenu)).not.toContain(messages.paneBulkFinish);
  } finally {
    for (const c of contexts) await c.close();
    await busy.stop();
  }
});
