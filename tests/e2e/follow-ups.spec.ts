// Automatic follow-ups (issue 20) as a manager uses them: the menu line, one card per chip, the rules' pt-BR
// messages, 'Configurações atualizadas com sucesso!', and the values kept after a reload. Then, on a server of
// its own whose follow-up "minute" lasts a second, a follow-up arriving on the simulator phone when the
// customer does not answer. Phone and desktop share one server per worker: every chip name carries the project.
import type { Locator, Page } from '@playwright/test';
import type { Message } from '@/shared/contract/conversations';
import { labels, messages } from '@/shared/messages';
import { followUpMessages, followUpLabels as L } from '@/shared/messages-follow-ups';
import { calm, connectedChip, createChip, isPhone, localId, mainMenu, phoneOf, shot, signedIn } from './app';
import { expect, startServer, test } from './fixtures';

test.use({ seed: 'demo', ...calm });

const project = () => test.info().project.name;
const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });

async function pick(page: Page, scope: Locator, label: string, option: string) {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

const messageBlock = (card: Locator, n: number) => card.getByRole('group', { name: L.message(n) });

test('configure a chip’s follow-ups: rules, save, reload, values kept', async ({ page, server }) => {
  const token = await signedIn(page, server, 'gerente@demo.com');
  const chip = await createChip(server, token, {
    name: `Follow-up ${project()} ${Date.now().toString(36)}`,
    department: 'Suporte',
  });
  try {
    await page.goto('/atendimento');
    const menu = await mainMenu(page);
    await menu.getByRole('link', { name: labels.team.automaticFollowUps }).click();
    await expect(page).toHaveURL(/\/auto-follow-ups$/);
    await expect(page.getByRole('heading', { level: 1, name: labels.team.automaticFollowUps })).toBeVisible();

    const card = page.getByRole('region', { name: chip.name });
    await expect(card).toBeVisible();
    await expect(card.getByText(messages.disabled, { exact: true })).toBeVisible();
    await card.scrollIntoViewIfNeeded();
    await card.getByRole('switch', { name: L.enabled }).check({ force: true });
    // Switched on with no type: the rule's message on the types.
    await card.getByRole('checkbox', { name: 'Atendimento humano' }).uncheck();
    await card.getByRole('button', { name: labels.common.save }).click();
    await expect(card.getByText(followUpMessages.typesRequired)).toBeVisible();
    await card.getByRole('checkbox', { name: 'Atendimento humano' }).check();
    await card.getByRole('checkbox', { name: 'Chatbot de fluxo' }).check();
    await expect(card.getByText(followUpMessages.typesRequired)).toHaveCount(0);

    await pick(page, card, L.startTime, '09:00');
    await pick(page, card, L.endTime, '19:00');
    const first = messageBlock(card, 1);
    // Message 1 on without a text: its own message.
    await card.getByRole('button', { name: labels.common.save }).click();
    await expect(first.getByText(followUpMessages.textRequired)).toBeVisible();
    await page.screenshot({ path: `test-results/screens/follow-ups-error-${project()}.png` });
    await first.getByRole('textbox', { name: labels.schedule.text }).fill('Ainda precisa de ajuda?');
    // A time of 0 is refused with the rule's message (it was saved as 1 unseen).
    await first.getByRole('textbox', { name: L.time }).fill('0');
    await card.getByRole('button', { name: labels.common.save }).click();
    await expect(first.getByText(followUpMessages.timeInvalid)).toBeVisible();
    await expect(first.getByRole('textbox', { name: L.time })).toHaveValue('0');
    await first.getByRole('textbox', { name: L.time }).fill('15');

    const second = messageBlock(card, 2);
    await second.getByRole('switch', { name: L.messageEnabled }).check({ force: true });
    await second.getByRole('textbox', { name: labels.schedule.text }).fill('Estamos por aqui se precisar.');
    await second.getByRole('textbox', { name: L.time }).fill('2');
    await pick(page, second, messages.unit, 'Horas');
    await shot(page, 'follow-ups-filled');

    await card.getByRole('button', { name: labels.common.save }).click();
    await expect(toast(page, followUpMessages.saved)).toBeVisible();
    await expect(card.getByText(L.active, { exact: true })).toBeVisible();

    await page.reload();
    const again = page.getByRole('region', { name: chip.name });
    await expect(again.getByRole('switch', { name: L.enabled })).toBeChecked();
    await expect(again.getByRole('checkbox', { name: 'Atendimento humano' })).toBeChecked();
    await expect(again.getByRole('checkbox', { name: 'Chatbot de fluxo' })).toBeChecked();
    await expect(again.getByRole('checkbox', { name: 'Chatbot de IA' })).not.toBeChecked();
    await expect(again.getByRole('combobox', { name: L.startTime })).toHaveValue('09:00');
    await expect(again.getByRole('combobox', { name: L.endTime })).toHaveValue('19:00');
    const m1 = messageBlock(again, 1);
    await expect(m1.getByRole('textbox', { name: labels.schedule.text })).toHaveValue(
      'Ainda precisa de ajuda?',
    );
    await expect(m1.getByRole('textbox', { name: L.time })).toHaveValue('15');
    await expect(m1.getByRole('combobox', { name: messages.unit })).toHaveValue('Minutos');
    const m2 = messageBlock(again, 2);
    await expect(m2.getByRole('switch', { name: L.messageEnabled })).toBeChecked();
    await expect(m2.getByRole('combobox', { name: messages.unit })).toHaveValue('Horas');
    await expect(messageBlock(again, 3).getByRole('switch', { name: L.messageEnabled })).not.toBeChecked();
    await again.scrollIntoViewIfNeeded();
    await shot(page, 'follow-ups-saved');
  } finally {
    await server.call('create-or-update-chip', { _id: chip._id, filed: true }, token);
  }
});

test.describe('a follow-up arrives', () => {
  // Its own server: a follow-up "minute" of one second (FOLLOW_UP_MINUTE_SECONDS, tests only).
  let app: Awaited<ReturnType<typeof startServer>> | undefined;
  test.beforeAll(async () => {
    app = await startServer({ seed: 'demo', env: { FOLLOW_UP_MINUTE_SECONDS: '1' } });
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  test('on the simulator phone when the customer does not answer, once', async ({ page }) => {
    const server = app?.server;
    if (!server) throw new Error('no server');
    const token = await signedIn(page, server, 'gerente@demo.com');
    const chip = await connectedChip(server, token, 'Follow-up');
    await server.call(
      'update-follow-up',
      {
        chip: chip._id,
        enabled: true,
        types: ['human'],
        start_time: 0,
        end_time: 0,
        message_1: { enabled: true, text: 'Ainda está por aí?', time: 2, unit: 'minutes' },
        message_2: { enabled: false, text: '', time: 1, unit: 'minutes' },
        message_3: { enabled: false, text: '', time: 1, unit: 'minutes' },
      },
      token,
    );
    const phone = phoneOf(5, isPhone() ? 1 : 2);
    const { conversation } = await chip.customer(phone, 'Rita Follow');
    await page.goto(`${server.url}/simulador/${chip.simulator}`);
    await expect(page.getByRole('heading', { name: 'Quem é você?' })).toBeVisible();
    await page.getByLabel('DDD e número').fill(phone);
    await page.getByLabel('Nome').fill('Rita Follow');
    await page.getByRole('button', { name: 'Abrir conversa' }).click();
    const bubbles = page.getByRole('list', { name: 'Mensagens' }).getByRole('listitem');
    await server.call(
      'send-conversation-message',
      { conversation_id: conversation._id, message_id: localId(), text: 'Olá Rita! Qual o seu pedido?' },
      token,
    );
    await expect(bubbles.filter({ hasText: 'Olá Rita!' })).toBeVisible();
    // Two "minutes" (2 s) later, the follow-up; once.
    await expect(bubbles.filter({ hasText: 'Ainda está por aí?' })).toBeVisible({ timeout: 20_000 });
    await shot(page, 'follow-up-arrived');
    await page.waitForTimeout(2500);
    await expect(bubbles.filter({ hasText: 'Ainda está por aí?' })).toHaveCount(1);

    // In the panel the follow-up is the bot's message, and the pane offers 'Desativar follow-up automático'.
    await page.goto(`${server.url}/atendimento?c=${conversation._id}`);
    const pane = page.getByRole('region', { name: 'Rita Follow' });
    await expect(pane.getByRole('heading', { name: 'Rita Follow' })).toBeVisible();
    await expect(
      pane
        .getByRole('list', { name: messages.messagesTitle })
        .getByRole('listitem')
        .filter({ hasText: 'Ainda está por aí?' }),
    ).toBeVisible();
    await pane.getByRole('button', { name: messages.paneMenu }).click();
    await page.getByRole('menuitem', { name: messages.paneDisableFollowUp }).click();
    const confirm = page.getByRole('dialog', { name: messages.paneDisableFollowUp });
    await expect(confirm).toContainText(messages.paneDisableFollowUpConfirm);
    await confirm.getByRole('button', { name: 'Confirmar' }).click();
    await expect(toast(page, messages.conversationUpdated)).toBeVisible();
    await pane.getByRole('button', { name: messages.paneMenu }).click();
    await expect(page.getByRole('menu')).toBeVisible();
    await expect(page.getByRole('menuitem', { name: messages.paneDisableFollowUp })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await shot(page, 'follow-up-pane');
    // Switched off: the business's next message starts no follow-up.
    await server.call(
      'send-conversation-message',
      { conversation_id: conversation._id, message_id: localId(), text: 'Seguimos à disposição.' },
      token,
    );
    await page.waitForTimeout(4000);
    const sent = await server.call<Message[]>(
      'get-messages-by-conversation',
      { conversation_id: conversation._id },
      token,
    );
    expect(sent.filter((m) => m.message === 'Ainda está por aí?')).toHaveLength(1);
    expect(sent.at(-1)?.message).toBe('Seguimos à disposição.');
  });
});
