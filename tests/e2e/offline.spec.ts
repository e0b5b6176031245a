// Offline-first (issue 7): after one online visit the attendant opens the app with no network, sees the list
// and the messages seen before, searches them and writes an answer, which waits in the outbox (a clock, the
// top bar's count) and goes out once when the network comes back.
import { mkdirSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { labels, messages } from '@/shared/messages';
import { calm, connectedChip, conversationOf, isPhone, signedIn, signOut, tokenOf } from './app';
import { expect, test } from './fixtures';
import {
  ageOutbox,
  allMessages,
  deviceCount,
  deviceKeys,
  serviceWorkerDevTools,
  serviceWorkerReady,
} from './offline-helpers';

test.use({ seed: 'demo', ...calm, serviceWorkers: 'allow' });

const SHOTS = '/tmp/shots';
mkdirSync(SHOTS, { recursive: true });
const shot = (page: Page, name: string) =>
  page.screenshot({ path: `${SHOTS}/offline-${name}-${test.info().project.name}.png` });

const ANA = 'atendente@demo.com';
const MANAGER = 'gerente@demo.com';
const phoneDigits = () =>
  `551197${test.info().project.name === 'phone' ? '1' : '2'}${String(Date.now()).slice(-6)}`;

const composer = (pane: Locator) => pane.getByRole('textbox', { name: labels.common.message, exact: true });
const bubbles = (pane: Locator) =>
  pane.getByRole('list', { name: messages.messagesTitle }).getByRole('listitem');
const conversationList = (page: Page) => page.getByRole('list', { name: labels.common.conversations });

test('offline after one visit: the list, the messages seen, a search, an answer that waits and goes once, and the catch-up', {
  tag: '@phone',
}, async ({ page, context, server }) => {
  const manager = await tokenOf(server, MANAGER);
  const chip = await connectedChip(server, manager, 'Offline');
  const digits = phoneDigits();
  const name = `Íris Offline ${test.info().project.name}`;
  await chip.write(digits, name, 'Bom dia, o pedido 4471 já saiu?');
  await chip.write(digits, name, 'Preciso dele até sexta-feira.');
  const conversation = await conversationOf(server, manager, digits);

  // One online visit: the list, then the conversation.
  await signedIn(page, server, ANA);
  await page.goto(`/atendimento?c=${conversation._id}`);
  const pane = page.getByRole('region', { name });
  await expect(bubbles(pane).filter({ hasText: 'pedido 4471' })).toBeVisible();
  await serviceWorkerReady(page);
  // The device kept them (the mirror writes in batches).
  await expect.poll(() => deviceCount(page, 'messages')).toBeGreaterThanOrEqual(2);
  await expect.poll(() => deviceCount(page, 'conversations')).toBeGreaterThanOrEqual(1);

  // No network: a cold reload of the app.
  await context.setOffline(true);
  await page.goto('/atendimento');
  await expect(page.getByTestId('offline-indicator')).toHaveText(messages.offlineShort);
  const item = conversationList(page).getByRole('listitem').filter({ hasText: name });
  await expect(item).toBeVisible();
  await item.getByRole('button').first().click();
  const cached = page.getByRole('region', { name });
  await expect(bubbles(cached).filter({ hasText: 'pedido 4471' })).toBeVisible();
  await expect(bubbles(cached).filter({ hasText: 'até sexta-feira' })).toBeVisible();
  await shot(page, 'pane');

  // Offline, the conversation menu's server actions wait for the network, and say so. Its dialogs load their
  // code when the menu opens (none was opened online): from the service worker's precache.
  const drawerChunk: boolean[] = [];
  page.on('response', (response) => {
    if (/\/assets\/ContactDrawer-[^/]+\.js$/.test(response.url()))
      drawerChunk.push(response.fromServiceWorker());
  });
  await cached.getByRole('button', { name: messages.paneMenu }).click();
  const menu = page.getByRole('menu');
  await expect(menu.getByText(messages.needsConnection)).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: 'Transferência' })).toBeDisabled();
  await expect(menu.getByRole('menuitem', { name: 'Dados do contato' })).toBeEnabled();
  await menu.getByRole('menuitem', { name: 'Dados do contato' }).click();
  const drawer = page.getByRole('dialog', { name: messages.contactData });
  await expect(drawer).toBeVisible();
  expect(drawerChunk).toEqual([true]);
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  // Escape closes the drawer only, not the full-screen conversation under it (issue 33 §6).
  await expect(cached).toBeVisible();

  // An answer written offline: at once in the pane, pending, and counted in the top bar.
  const box = composer(cached);
  await box.fill('Saiu hoje cedo, chega quinta.');
  if (isPhone()) await cached.getByRole('button', { name: messages.send }).click();
  else await box.press('Enter');
  const answer = bubbles(cached).filter({ hasText: 'Saiu hoje cedo' });
  await expect(answer).toBeVisible();
  await expect(answer.getByRole('img', { name: messages.statusSending })).toBeVisible();
  await expect(page.getByTestId('offline-indicator')).toHaveText('1');
  await expect(page.getByTestId('offline-indicator')).toHaveAttribute(
    'aria-label',
    `${messages.offlineShort} · ${messages.outboxWaiting(1)}`,
  );
  expect(await deviceCount(page, 'outbox')).toBe(1);
  // The attendant typed it 10 minutes before the network came back (issue 33 §23: it keeps that time).
  await ageOutbox(page, 10 * 60_000);
  // On a phone the full-screen conversation hides the shell's banner: it says it is offline itself.
  if (isPhone())
    await expect(
      page.getByRole('dialog', { name }).getByRole('status').filter({ hasText: messages.offline }),
    ).toBeVisible();
  await shot(page, 'pending');

  // A search offline reads the cached messages too (the text is not in the contact's name).
  if (isPhone()) await page.goBack();
  // The list's preview is the queued answer, not the customer's last message.
  await expect(conversationList(page).getByRole('listitem').filter({ hasText: name })).toContainText(
    'Saiu hoje cedo, chega quinta.',
  );
  await page.getByRole('button', { name: messages.listSearchOrFilter }).click();
  await page.getByLabel(messages.filterText).fill('sexta-feira');
  await page.getByRole('button', { name: messages.listApplyFilters }).click();
  await expect(conversationList(page).getByRole('listitem').filter({ hasText: name })).toBeVisible();
  await page.getByRole('button', { name: messages.listSearchOrFilter }).click();
  await page.getByLabel(messages.filterText).fill('nada disso aqui');
  await page.getByRole('button', { name: messages.listApplyFilters }).click();
  await expect(conversationList(page).getByRole('listitem').filter({ hasText: name })).toHaveCount(0);
  await shot(page, 'search');
  await page.getByRole('button', { name: messages.listClearFilters }).first().click();
  await expect(conversationList(page).getByRole('listitem').filter({ hasText: name })).toBeVisible();

  // Meanwhile the customer writes again: the page cannot hear it.
  await chip.write(digits, name, 'Mandei o comprovante agora.');

  // The network is back: the outbox sends, once, the top bar clears, and the app catches up on what it
  // missed (no reload): the new message shows in the list and in the pane, once each.
  await context.setOffline(false);
  await expect(page.getByTestId('offline-indicator')).toHaveCount(0);
  await expect.poll(() => deviceCount(page, 'outbox')).toBe(0);
  const stored = await allMessages(server, manager, conversation._id);
  const sent = stored.filter((m) => m.message.includes('Saiu hoje cedo'));
  expect(sent).toHaveLength(1);
  // It keeps the time it was typed (10 minutes before it went, by the server's clock), and shows it.
  const typedAt = Date.parse(sent[0]?.typed_at ?? '');
  expect(Date.parse(sent[0]?.created ?? '') - typedAt).toBeGreaterThan(9.5 * 60_000);
  expect(Date.parse(sent[0]?.created ?? '') - typedAt).toBeLessThan(11 * 60_000);
  const caughtUp = conversationList(page).getByRole('listitem').filter({ hasText: name });
  // The catch-up after 'online' (get-changes-since) brings it; the answer, sent after it, is the newest.
  await expect(caughtUp).toContainText('Saiu hoje cedo, chega quinta.', { timeout: 20_000 });
  await caughtUp.getByRole('button').first().click();
  const after = page.getByRole('region', { name });
  await expect(bubbles(after).filter({ hasText: 'Mandei o comprovante' })).toBeVisible({ timeout: 20_000 });
  await expect(bubbles(after).filter({ hasText: 'Mandei o comprovante' })).toHaveCount(1);
  await expect(bubbles(after).filter({ hasText: 'Saiu hoje cedo' })).toHaveCount(1);
  const hhmm = new Intl.DateTimeFormat('pt-BR', {
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'America/Sao_Paulo',
  }).format(typedAt);
  await expect(bubbles(after).filter({ hasText: 'Saiu hoje cedo' }).locator('time')).toHaveText(hhmm);
  await expect(bubbles(after).filter({ hasText: 'pedido 4471' })).toHaveCount(1);

  await chip.file();
});

test('a refetch that fails while the server is unreachable does not cost the next offline start: the shell and the cached list open', {
  tag: '@phone',
}, async ({ page, context, server }) => {
  const manager = await tokenOf(server, MANAGER);
  const chip = await connectedChip(server, manager, 'Sem servidor');
  const digits = phoneDigits();
  const name = `Otto Sem Servidor ${test.info().project.name}`;
  await chip.write(digits, name, 'Vocês abrem no sábado?');
  await conversationOf(server, manager, digits);

  // Signed in, online: the list, kept on the device.
  await signedIn(page, server, ANA);
  await page.goto('/atendimento');
  const item = conversationList(page).getByRole('listitem').filter({ hasText: name });
  await expect(item).toBeVisible();
  await serviceWorkerReady(page);
  await expect.poll(() => deviceCount(page, 'conversations')).toBeGreaterThanOrEqual(1);

  // The phone is online but the server is unreachable: a reload refreshes the cached user, and that fails
  // (each try and its retries).
  let failedUserCalls = 0;
  await context.route('**/api/**', (route) => {
    if (route.request().url().endsWith('/api/get-user')) failedUserCalls += 1;
    return route.abort('connectionrefused');
  });
  await page.reload();
  await expect(page.getByRole('banner')).toBeVisible(); // the signed-in shell's top bar
  await expect.poll(() => failedUserCalls, { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
  // The failure has reached the cache (and the persister, which saves on page hide too).
  await page.waitForTimeout(300);

  // Then no network at all, and the app is opened again.
  await context.setOffline(true);
  await context.unroute('**/api/**');
  await page.goto('/atendimento');
  await expect(page.getByTestId('offline-indicator')).toHaveText(messages.offlineShort);
  await expect(page.getByRole('banner')).toBeVisible(); // the signed-in shell's top bar
  await expect(conversationList(page).getByRole('listitem').filter({ hasText: name })).toBeVisible();
  await shot(page, 'after-failed-refetch');

  await chip.file();
});

test('offline, the app opens on a picture of the last list seen, replaced by the live list; a sign-out forgets it', {
  tag: '@phone',
}, async ({ page, context, server }) => {
  const manager = await tokenOf(server, MANAGER);
  const chip = await connectedChip(server, manager, 'Retrato');
  const digits = phoneDigits();
  const name = `Rita Retrato ${test.info().project.name}`;
  await chip.write(digits, name, 'Chegou a nota fiscal?');
  await conversationOf(server, manager, digits);

  await signedIn(page, server, ANA);
  await page.goto('/atendimento');
  const item = conversationList(page).getByRole('listitem').filter({ hasText: name });
  await expect(item).toBeVisible();
  await serviceWorkerReady(page);
  await expect.poll(() => deviceCount(page, 'conversations')).toBeGreaterThanOrEqual(1);

  // What the page shows before the app's own render: recorded as it is painted.
  await page.addInitScript(() => {
    new MutationObserver(() => {
      const picture = document.getElementById('first-paint');
      const w = window as unknown as { pictureText?: string | null };
      if (picture) w.pictureText ??= picture.textContent;
    }).observe(document, { childList: true, subtree: true });
  });
  await context.setOffline(true);
  // Leaving the page saves the picture; the offline start paints it, then the app's list takes its place.
  await page.goto('/atendimento');
  await expect(item).toBeVisible();
  const pictureText = await page.evaluate(() => (window as unknown as { pictureText?: string }).pictureText);
  expect(pictureText).toContain(name);
  await expect(page.locator('#first-paint')).toHaveCount(0);
  await item.click();
  await expect(page.getByRole('region', { name })).toBeVisible();

  await context.setOffline(false);
  await page.goto('/atendimento');
  await expect(item).toBeVisible();
  await signOut(page);
  expect(await page.evaluate(() => localStorage.getItem('painel-first-paint'))).toBeNull();
  await chip.file();
});

test('while the context is offline a message arrives and a conversation is finished: once online, the catch-up shows the message once and takes the finished one off the list and the device', {
  tag: '@phone',
}, async ({ page, context, server }) => {
  const manager = await tokenOf(server, MANAGER);
  const chip = await connectedChip(server, manager, 'Catch-up');
  const kept = { digits: phoneDigits(), name: `Caio Catch-up ${test.info().project.name}` };
  const ended = {
    digits: `${kept.digits.slice(0, -1)}${(Number(kept.digits.at(-1)) + 1) % 10}`,
    name: `Lia Encerrada ${test.info().project.name}`,
  };
  await chip.write(kept.digits, kept.name, 'Primeira mensagem do Caio.');
  await chip.write(ended.digits, ended.name, 'Mensagem da Lia.');
  await conversationOf(server, manager, kept.digits);
  const finishing = await conversationOf(server, manager, ended.digits);

  await signedIn(page, server, ANA);
  await page.goto('/atendimento');
  const list = conversationList(page).getByRole('listitem');
  await expect(list.filter({ hasText: ended.name })).toBeVisible();
  await list.filter({ hasText: kept.name }).getByRole('button').first().click();
  const pane = page.getByRole('region', { name: kept.name });
  await expect(bubbles(pane).filter({ hasText: 'Primeira mensagem do Caio' })).toBeVisible();
  // The device holds both, and the server's cursor of its first catch-up.
  await expect.poll(async () => (await deviceKeys(page, 'conversations')).includes(finishing._id)).toBe(true);
  await expect.poll(async () => (await deviceKeys(page, 'meta')).includes('changes-cursor')).toBe(true);

  await context.setOffline(true);
  await expect(page.getByTestId('offline-indicator')).toHaveText(messages.offlineShort);
  // Meanwhile: the customer writes, and a manager finishes the other conversation. The page hears neither.
  await chip.write(kept.digits, kept.name, 'Chegou enquanto você estava sem rede.');
  await server.call('finish-conversation', { conversation_id: finishing._id }, manager);

  const asked: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/')) asked.push(new URL(r.url()).pathname.slice('/api/'.length));
  });
  await context.setOffline(false);
  await expect(page.getByTestId('offline-indicator')).toHaveCount(0);
  const arrived = bubbles(pane).filter({ hasText: 'Chegou enquanto você estava sem rede.' });
  await expect(arrived).toBeVisible({ timeout: 20_000 });
  await expect(arrived).toHaveCount(1);
  // On a phone the pane covers the list.
  if (isPhone()) await page.goBack();
  await expect(list.filter({ hasText: kept.name })).toContainText('Chegou enquanto você estava sem rede.');
  await expect(list.filter({ hasText: ended.name })).toHaveCount(0);
  await expect
    .poll(async () => (await deviceKeys(page, 'conversations')).includes(finishing._id))
    .toBe(false);
  // Once, and still once after the socket's reconnect and any overlap of the cursor.
  await page.waitForLoadState('networkidle');
  if (isPhone()) await list.filter({ hasText: kept.name }).getByRole('button').first().click();
  await expect(arrived).toHaveCount(1);
  await expect(bubbles(pane).filter({ hasText: 'Primeira mensagem do Caio' })).toHaveCount(1);
  // What changed came by the catch-up, not by asking the whole list again.
  expect(asked).toContain('get-changes-since');
  expect(asked).not.toContain('get-conversations-with-last-message');
  await shot(page, 'catch-up');

  await chip.file();
});

test('a push reaches the service worker: no system notification while the app is visible; one when not, with the conversation’s address', async ({
  page,
  context,
  server,
}) => {
  await context.grantPermissions(['notifications'], { origin: server.url });
  await signedIn(page, server, ANA);
  await page.goto('/atendimento');
  await serviceWorkerReady(page);

  // The settings menu's switch subscribes this device (Chromium headless has a push service only on some
  // builds: the switch's answer is checked, whichever it is).
  await page.getByRole('button', { name: messages.listSettings }).click();
  const pushSwitch = page.getByRole('switch', { name: messages.pushOn });
  await expect(pushSwitch).toBeVisible();
  await shot(page, 'settings-menu');
  await page.keyboard.press('Escape');

  const { cdp, registrationId } = await serviceWorkerDevTools(context, page, server.url);
  const push = (conversation: string, body: string) =>
    cdp.send('ServiceWorker.deliverPushMessage', {
      origin: server.url,
      registrationId,
      data: JSON.stringify({
        type: 'new_conversation',
        title: messages.newConversationPushTitle,
        body,
        conversation_id: conversation,
        silent: false,
      }),
    });
  const worker = context.serviceWorkers().find((w) => w.url().startsWith(server.url));
  if (!worker) throw new Error('no service worker');
  const shown = () =>
    worker.evaluate(async () =>
      (
        await (self as unknown as { registration: ServiceWorkerRegistration }).registration.getNotifications()
      ).map((n) => ({
        title: n.title,
        body: n.body,
        url: (n.data as { url: string }).url,
      })),
    );

  // The app is visible: its own notice is enough.
  await push('C'.repeat(28), 'Visível: Oi');
  await page.waitForTimeout(500);
  expect(await shown()).toEqual([]);

  // The app is not open in any window: the worker shows it. (Once the worker no longer lists the page: a
  // loaded machine may deliver the push before the navigation away has reached it.)
  await page.goto('about:blank');
  await expect
    .poll(() =>
      worker.evaluate(
        async () =>
          (
            await (
              self as unknown as { clients: { matchAll(o: object): Promise<unknown[]> } }
            ).clients.matchAll({
              type: 'window',
              includeUncontrolled: true,
            })
          ).length,
      ),
    )
    .toBe(0);
  const id = 'D'.repeat(28);
  await push(id, 'Joana: Vocês entregam?');
  await expect.poll(shown).toEqual([
    {
      title: messages.newConversationPushTitle,
      body: 'Joana: Vocês entregam?',
      url: `/atendimento?c=${id}`,
    },
  ]);
});

test('with no page open, the service worker’s Background Sync sends what waits in the outbox, once', async ({
  page,
  context,
  server,
}) => {
  const manager = await tokenOf(server, MANAGER);
  const chip = await connectedChip(server, manager, 'Sync');
  const digits = phoneDigits();
  const name = `Davi Sync ${test.info().project.name}`;
  await chip.write(digits, name, 'Vocês abrem no sábado?');
  const conversation = await conversationOf(server, manager, digits);
  await signedIn(page, server, ANA);
  await page.goto(`/atendimento?c=${conversation._id}`);
  const pane = page.getByRole('region', { name });
  await expect(bubbles(pane).filter({ hasText: 'sábado' })).toBeVisible();
  await serviceWorkerReady(page);

  // Written offline, then the app is closed before the network comes back.
  await context.setOffline(true);
  await composer(pane).fill('Abrimos sim, das 8h às 12h.');
  await composer(pane).press('Enter');
  await expect(
    bubbles(pane).filter({ hasText: 'das 8h às 12h' }).getByRole('img', { name: messages.statusSending }),
  ).toBeVisible();
  expect(await deviceCount(page, 'outbox')).toBe(1);
  const blank = await context.newPage();
  const { cdp, registrationId } = await serviceWorkerDevTools(context, blank, server.url);
  await page.close();
  await context.setOffline(false);

  // The browser's sync event, as it fires when the connection is back: the worker sends from the outbox.
  const sync = () =>
    cdp.send('ServiceWorker.dispatchSyncEvent', {
      origin: server.url,
      registrationId,
      tag: 'outbox',
      lastChance: false,
    });
  await sync();
  const sent = async () =>
    (await allMessages(server, manager, conversation._id)).filter((m) => m.message.includes('das 8h às 12h'));
  await expect.poll(async () => (await sent()).length, { timeout: 20_000 }).toBe(1);
  // A second sync finds nothing waiting; the app, opened again, shows it once and sent.
  await sync();
  const again = await context.newPage();
  await again.goto(`/atendimento?c=${conversation._id}`);
  const reopened = again.getByRole('region', { name });
  await expect(bubbles(reopened).filter({ hasText: 'das 8h às 12h' })).toHaveCount(1);
  await expect(
    bubbles(reopened).filter({ hasText: 'das 8h às 12h' }).getByRole('img', { name: messages.statusSending }),
  ).toHaveCount(0);
  expect(await deviceCount(again, 'outbox')).toBe(0);
  expect(await sent()).toHaveLength(1);

  await chip.file();
});
