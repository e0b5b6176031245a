// Issue 15, what a person saw on a phone and a desktop: tags that shrank to dots beside 'Aguardando
// resposta' (3 chips then '+N' everywhere tags are listed), toasts over the pane's and dialogs' buttons (and
// 'Nova conversa' for one's own), full-screen confirmations, back closing two layers at once, and tables that
// broke names mid-word. Screenshots go to /tmp/shots-layout/ to be looked at.
import { mkdirSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import type { Tag } from '@/shared/contract/configuration';
import { labels, messages } from '@/shared/messages';
import { calm, connectedChip, isPhone, phoneOf, realtimeReady, signedIn, signOut, tokenOf } from './app';
import { type AppServer, expect, test } from './fixtures';

test.use({ seed: 'demo', ...calm });

const OWNER = 'dono@demo.com';
const SHOTS = '/tmp/shots-layout';
mkdirSync(SHOTS, { recursive: true });
const shot = (page: Page, name: string, fullPage = false) =>
  page.screenshot({ path: `${SHOTS}/${name}-${test.info().project.name}.png`, fullPage });

const TAG_NAMES = ['Urgente', 'VIP', 'Retorno', 'Financeiro'];

/** The account's tags of those names (made when missing), in that order. */
async function tagsNamed(server: AppServer, token: string, names: string[]) {
  const existing = await server.call<Tag[]>('get-tags-by-user', {}, token);
  const colors = ['#e03131', '#9c36b5', '#0c8599', '#e8590c'];
  const out: Tag[] = [];
  for (const [i, name] of names.entries()) {
    const found = existing.find((t) => t.name === name);
    out.push(found ?? (await server.call<Tag>('create-or-update-tag', { name, color: colors[i] }, token)));
  }
  return out;
}

/** Whether `el`'s text shows whole: nothing cut by its box (an ellipsis or a dot). */
const whole = (el: Locator) =>
  el.evaluate((node) => node.scrollWidth <= node.clientWidth + 0.5 && node.clientWidth > 0);

const conversationItem = (page: Page, name: string) =>
  page
    .getByRole('list', { name: labels.common.conversations })
    .getByRole('listitem')
    .filter({ hasText: name });

const toasts = (page: Page) => page.locator('.mantine-Notification-root');

function overlaps(a: { x: number; y: number; width: number; height: number }, b: typeof a) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function openAttendance(page: Page, server: AppServer) {
  const token = await signedIn(page, server, OWNER);
  await page.goto('/atendimento');
  await expect(page.getByRole('heading', { level: 1, name: 'Atendimento' })).toBeVisible();
  await realtimeReady(page);
  return token;
}

/** Opens the conversation from the list, as a person does (on a phone: a full-screen pane). */
async function openFromList(page: Page, name: string) {
  await conversationItem(page, name).getByRole('button').first().click();
  const pane = page.getByRole('region', { name });
  await expect(pane.getByRole('heading', { name })).toBeVisible();
  return pane;
}

test('tags and the waiting badge stay readable in the list, the tag dialog and the drawer: 3 chips then +N', {
  tag: '@phone',
}, async ({ page, server }) => {
  const owner = await tokenOf(server, OWNER);
  const tags = await tagsNamed(server, owner, TAG_NAMES);
  const chip = await connectedChip(server, owner, 'Tags');
  try {
    const name = `Paula Tags ${test.info().project.name}`;
    const { conversation } = await chip.customer(phoneOf(7, 1), name, 'Bom dia!');
    await server.call(
      'change-contact-tags',
      { contact_id: conversation.contact._id, tags: tags.map((t) => t._id) },
      owner,
    );
    await openAttendance(page, server);
    const item = conversationItem(page, name);
    await expect(item.getByText(messages.listWaitingResponse)).toBeVisible();
    // Three tags by name, whole, then '+1'; and the waiting badge whole too.
    for (const tag of TAG_NAMES.slice(0, 3)) {
      const badge = item.getByText(tag, { exact: true });
      await expect(badge).toBeVisible();
      expect(await whole(badge), `${tag} is readable`).toBe(true);
    }
    await expect(item.getByText('Financeiro', { exact: true })).toHaveCount(0);
    await expect(item.getByText('+1', { exact: true })).toBeVisible();
    expect(await whole(item.getByText(messages.listWaitingResponse))).toBe(true);
    await shot(page, 'list-item-tags');

    // 'Atribuir tags': 3 chips then '+1' at rest.
    const pane = await openFromList(page, name);
    await pane.getByRole('button', { name: messages.paneMenu }).click();
    await page.getByRole('menuitem', { name: messages.paneAssignTags }).click();
    const dialog = page.getByRole('dialog', { name: messages.paneAssignTags });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('heading').click(); // the field loses the focus a dialog may give it
    await expect(dialog.getByText('+1', { exact: true })).toBeVisible();
    await expect(dialog.getByText('Financeiro', { exact: true })).toHaveCount(0);
    await expect(dialog.getByText('Urgente', { exact: true })).toBeVisible();
    await shot(page, 'tag-dialog');
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await expect(dialog).toBeHidden();
  } finally {
    await chip.file();
  }
});

test("no 'Nova conversa' toast for the conversation one starts; a customer's does not cover the dialog's or pane's buttons", {
  tag: '@phone',
}, async ({ page, server }) => {
  const owner = await tokenOf(server, OWNER);
  const chip = await connectedChip(server, owner, 'Avisos');
  try {
    const first = `Rui Aviso ${test.info().project.name}`;
    await chip.customer(phoneOf(7, 2), first, 'Oi');
    await openAttendance(page, server);

    // The owner starts a conversation: 'Conversa iniciada', and no 'Nova conversa' for it.
    await page.getByRole('button', { name: messages.newConversationPushTitle, exact: true }).click();
    const start = page.getByRole('dialog', { name: messages.newConversationPushTitle });
    await start.getByRole('combobox', { name: 'Chip' }).click();
    await page.getByRole('option', { name: chip.name }).click();
    const number = phoneOf(7, 3).replace(/\D/g, '');
    await start.getByLabel('Telefone').fill(number);
    // Every toast that shows from now on, however briefly.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seenToasts: string[] }).seenToasts = seen;
      new MutationObserver(() => {
        for (const n of document.querySelectorAll('.mantine-Notification-root'))
          seen.push(n.textContent ?? '');
      }).observe(document.body, { childList: true, subtree: true });
    });
    await start.getByRole('button', { name: 'Iniciar conversa' }).click();
    await expect(start).toBeHidden();
    await expect(toasts(page).filter({ hasText: messages.newConversationStarted })).toBeVisible();
    // The event arrives with the answer; give it time to show, if it were to.
    await page.waitForTimeout(2500);
    const seen = await page.evaluate(() => (window as unknown as { seenToasts: string[] }).seenToasts);
    expect(seen.some((t) => t.includes(messages.newConversationStarted))).toBe(true);
    expect(seen.filter((t) => t.startsWith(messages.newConversationPushTitle))).toEqual([]);
    await shot(page, 'own-new-conversation');

    if (!isPhone()) return;
    // On a phone: the pane is open on the new conversation; a customer's 'Nova conversa' leaves its back
    // and menu buttons free, and a dialog's close button too.
    const back = page.getByRole('button', { name: messages.back });
    await expect(back).toBeVisible();
    await page.getByRole('button', { name: messages.paneMenu }).click();
    await page.getByRole('menuitem', { name: messages.paneAssignTags }).click();
    const dialog = page.getByRole('dialog', { name: messages.paneAssignTags });
    await expect(dialog).toBeVisible();
    const close = dialog.locator('.mantine-Modal-close');
    const second = `Ana Aviso ${test.info().project.name}`;
    await chip.write(phoneOf(7, 4), second, 'Olá');
    const notice = toasts(page).filter({ hasText: second });
    await expect(notice).toBeVisible();
    await shot(page, 'toast-over-dialog');
    const noticeBox = await notice.boundingBox();
    const closeBox = await close.boundingBox();
    expect(noticeBox && closeBox && !overlaps(noticeBox, closeBox)).toBe(true);
    const titleBox = await dialog.getByRole('heading', { name: messages.paneAssignTags }).boundingBox();
    expect(noticeBox && titleBox && !overlaps(noticeBox, titleBox)).toBe(true);
    await close.click();
    await expect(dialog).toBeHidden();
    const backBox = await back.boundingBox();
    const menuBox = await page.getByRole('button', { name: messages.paneMenu }).boundingBox();
    expect(noticeBox && backBox && !overlaps(noticeBox, backBox)).toBe(true);
    expect(noticeBox && menuBox && !overlaps(noticeBox, menuBox)).toBe(true);
    // Issue 33 §22: nor the composer and its send button at the bottom.
    const composerBox = await page.getByRole('textbox', { name: labels.common.message }).boundingBox();
    expect(noticeBox && composerBox && !overlaps(noticeBox, composerBox)).toBe(true);
    // With the composer empty the send button is the microphone (issue 33 item 20).
    const sendBox = await page
      .getByRole('button', { name: messages.send })
      .or(page.getByRole('button', { name: messages.recorderTitle, exact: true }))
      .last()
      .boundingBox();
    expect(noticeBox && sendBox && !overlaps(noticeBox, sendBox)).toBe(true);
  } finally {
    await chip.file();
  }
});

test('a confirmation is a small dialog on a phone, not a full screen', { tag: '@phone' }, async ({
  page,
  server,
}) => {
  await signedIn(page, server, OWNER);
  await page.goto('/atendimento');
  await page.getByRole('button', { name: 'Menu do usuário' }).click();
  await page.getByRole('menuitem', { name: 'Sair' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sair' });
  await expect(dialog).toContainText('Deseja sair do painel?');
  await shot(page, 'confirm');
  const box = await dialog.boundingBox();
  const viewport = page.viewportSize();
  expect(box && viewport && box.height < viewport.height / 2).toBe(true);
  await dialog.getByRole('button', { name: 'Cancelar' }).click();
  await expect(dialog).toBeHidden();
  await signOut(page);
});

test('back and Escape close only the top layer: menu, filter sheet, confirmation, drawer over a conversation', {
  tag: '@phone',
}, async ({ page, server }) => {
  test.skip(!isPhone(), 'the pane and its dialogs are history entries on phones');
  const owner = await tokenOf(server, OWNER);
  const chip = await connectedChip(server, owner, 'Voltar');
  try {
    const name = `Lu Voltar ${test.info().project.name}`;
    await chip.customer(phoneOf(7, 5), name, 'Oi');
    await openAttendance(page, server);

    // Issue 33 §6: the side menu, the filter sheet and a confirmation are one step of back each (back used to
    // leave the page under the open menu), and Escape closes them too.
    const menu = page.getByRole('dialog', { name: 'Menu' });
    const filters = page.getByRole('dialog', { name: messages.listSearchOrFilter });
    const leave = page.getByRole('dialog', { name: 'Sair' });
    const openers = [
      [menu, () => page.getByRole('button', { name: 'Abrir menu' }).click()],
      [filters, () => page.getByRole('button', { name: messages.listSearchOrFilter }).click()],
      [
        leave,
        async () => {
          await page.getByRole('button', { name: 'Menu do usuário' }).click();
          await page.getByRole('menuitem', { name: 'Sair' }).click();
        },
      ],
    ] as const;
    for (const [layer, open] of openers) {
      for (const close of [() => page.goBack(), () => page.keyboard.press('Escape')]) {
        await open();
        await expect(layer).toBeVisible();
        await close();
        await expect(layer).toBeHidden();
        await expect(page).toHaveURL(/\/atendimento$/);
        await expect(page.getByRole('heading', { level: 1, name: 'Atendimento' })).toBeVisible();
      }
    }
    // A screen chosen in the menu replaces the menu's entry: back returns to the screen it was opened over.
    await page.getByRole('button', { name: 'Abrir menu' }).click();
    await menu.getByRole('link', { name: 'Ajuda' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Ajuda' })).toBeVisible();
    await expect(menu).toBeHidden();
    await page.goBack();
    await expect(page).toHaveURL(/\/atendimento$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Atendimento' })).toBeVisible();

    const pane = await openFromList(page, name);
    // Escape on the contact drawer over the conversation closes the drawer only.
    await pane.getByRole('button', { name: messages.paneMenu }).click();
    await page.getByRole('menuitem', { name: 'Dados do contato' }).click();
    const drawer = page.getByRole('dialog', { name: messages.contactData });
    await expect(drawer).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await expect(pane.getByRole('heading', { name })).toBeVisible();

    const openLibrary = async () => {
      await pane.getByRole('button', { name: messages.attach }).click();
      await page.getByRole('menuitem', { name: messages.mediaLibraryTitle }).click();
      const library = page.getByRole('dialog', { name: messages.mediaLibraryTitle });
      await expect(library).toBeVisible();
      return library;
    };
    let library = await openLibrary();
    await page.goBack();
    await expect(library).toBeHidden();
    await expect(pane.getByRole('heading', { name })).toBeVisible();

    // Closed by its own button, it leaves no entry behind: back then closes the conversation.
    library = await openLibrary();
    await library.locator('.mantine-Modal-close').click();
    await expect(library).toBeHidden();
    await page.goBack();
    await expect(pane).toBeHidden();
    await expect(page).toHaveURL(/\/atendimento$/);
    await expect(conversationItem(page, name)).toBeVisible();
  } finally {
    await chip.file();
  }
});

test('/conversas and /agendamento keep names whole word by word, chip names and phones on one line, statuses whole', {
  tag: '@phone',
}, async ({ page, server }) => {
  const owner = await tokenOf(server, OWNER);
  const tags = await tagsNamed(server, owner, TAG_NAMES);
  const chip = await connectedChip(server, owner, 'Atendimento Comercial Principal');
  try {
    const name = `Maria Aparecida dos Santos Oliveira ${test.info().project.name}`;
    const phone = phoneOf(7, 6);
    const { conversation } = await chip.customer(phone, name, 'Oi');
    await server.call(
      'change-contact-tags',
      { contact_id: conversation.contact._id, tags: tags.map((t) => t._id) },
      owner,
    );
    await server.call(
      'create-scheduled-message',
      {
        chip: chip._id,
        country_code: '55',
        to: phone.replace(/\D/g, ''),
        message: 'Lembrete: sua consulta está marcada para amanhã às 10h. Responda SIM para confirmar.',
        scheduledTo: new Date(Date.now() + 86_400_000).toISOString(),
      },
      owner,
    );
    await signedIn(page, server, OWNER);

    await page.goto('/conversas');
    const history = page.getByRole(isPhone() ? 'list' : 'table', { name: 'Conversas', exact: true });
    await expect(history.getByText(name)).toBeVisible();
    await shot(page, 'history', true);
    await page.goto('/agendamento');
    const scheduled = page.getByRole(isPhone() ? 'list' : 'table', { name: 'Mensagens agendadas' });
    await expect(scheduled.getByText('Agendada')).toBeVisible();
    await shot(page, 'scheduled', true);
    if (isPhone()) return;

    /** How many lines each word of the element's text takes (1 each when no word is broken). */
    const linesPerWord = (el: Locator) =>
      el.evaluate((node) => {
        const text = node.firstChild as Text;
        const out: number[] = [];
        const re = /\S+/g;
        for (let m = re.exec(text.data); m; m = re.exec(text.data)) {
          const range = document.createRange();
          range.setStart(text, m.index);
          range.setEnd(text, m.index + m[0].length);
          out.push(new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size);
        }
        return out;
      });
    /** How many lines the element's text takes (the lines of its text nodes, by their tops). */
    const lines = (el: Locator) =>
      el.evaluate((node) => {
        const tops: number[] = [];
        const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
        for (let t = walker.nextNode(); t; t = walker.nextNode()) {
          const range = document.createRange();
          range.selectNodeContents(t);
          for (const r of range.getClientRects())
            if (!tops.some((top) => Math.abs(top - r.top) < 4)) tops.push(r.top);
        }
        return tops.length;
      });

    await page.goto('/conversas');
    const row = history.getByRole('row').filter({ hasText: name });
    const nameCell = row.getByRole('cell', { name, exact: true });
    expect(new Set(await linesPerWord(nameCell))).toEqual(new Set([1]));
    expect(await lines(row.getByRole('cell', { name: chip.name }))).toBe(1);
    expect(await lines(row.getByRole('cell', { name: /^\+55/ }))).toBe(1);
    for (const tag of TAG_NAMES.slice(0, 3))
      expect(await whole(row.getByText(tag, { exact: true }))).toBe(true);
    await expect(row.getByText('+1', { exact: true })).toBeVisible();

    await page.goto('/agendamento');
    const item = scheduled.getByRole('row').filter({ hasText: 'Agendada' }).first();
    expect(await whole(item.getByText('Agendada', { exact: true }))).toBe(true);
    expect(await lines(item.getByRole('cell', { name: /^\+55/ }))).toBe(1);
  } finally {
    await chip.file();
  }
});
