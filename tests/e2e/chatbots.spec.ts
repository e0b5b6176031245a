// The AI chatbots screen (/chatbots, issue 17; spec 3 §2.7, §5, §8) as a manager uses it: create from a model
// (its required fields refused with the spec's text), edit and save, the editor's validations, the test chat
// against the fake provider (an answer, then a transfer decided by a tool call), delete; an attendant is
// refused. A server of its own per worker, configured with the fake OpenAI-compatible provider.
import { mkdir } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import type { Chip } from '@/shared/contract';
import type { Conversation } from '@/shared/contract/conversations';
import { labels, messages } from '@/shared/messages';
import { chatbotLabels, flowEditorLabels } from '@/shared/messages-editors';
import { type FakeOpenAi, startFakeOpenAi } from '../fakes/openai';
import { calm, connectSimulator, DEMO_PASSWORD, followSocket, isPhone, mainMenu, realtimeReady } from './app';
import { type AppServer, expect, startServer, test } from './fixtures';
import { addNode, L as FE, newFlow, nodesOf, panel, pick } from './flow-editing';

test.use(calm);

const L = chatbotLabels;
const SHOTS = '/tmp/shots-chatbots';
let fake: FakeOpenAi;
let app: { server: AppServer; stop(): Promise<void> };

test.beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  fake = await startFakeOpenAi();
  app = await startServer({
    seed: 'demo',
    env: {
      AI_BASE_URL: fake.url,
      AI_API_KEY: fake.key,
      AI_MODEL: 'modelo-teste',
      // Long enough for the customer's phone to show 'digitando…' in the journey.
      CHATBOT_TYPING_SECONDS: '3',
    },
  });
});
test.afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

const project = () => test.info().project.name;
const look = (page: Page, name: string, fullPage = false) =>
  page.screenshot({ path: `${SHOTS}/${name}-${project()}.png`, fullPage });
/** A personality chip: its checkbox, and its label that a person clicks. */
const chip = (page: Page, name: string) => page.getByRole('checkbox', { name, exact: true });
const tapChip = (page: Page, name: string) => page.locator('label').getByText(name, { exact: true }).click();
const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });

async function signedInAs(page: Page, email: string) {
  const { token } = await app.server.call<{ token: string }>('auth', { email, password: DEMO_PASSWORD });
  await page.goto(`${app.server.url}/login`);
  await page.evaluate((t) => localStorage.setItem('token', t), token);
  return token;
}

async function openChatbots(page: Page) {
  await page.goto(`${app.server.url}/atendimento`);
  const menu = await mainMenu(page);
  await menu.getByRole('link', { name: 'Chatbots' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Chatbots' })).toBeVisible();
}

const rows = (page: Page) =>
  isPhone()
    ? page.getByRole('list', { name: 'Chatbots' }).getByRole('listitem')
    : page.getByRole('table', { name: 'Chatbots' }).getByRole('row');
const rowOf = (page: Page, name: string) =>
  rows(page).filter({ has: page.getByRole('link', { name, exact: true }) });

/** A valid chatbot through the API, for the tests that start from one. */
async function chatbotMade(token: string, name: string, extra: Record<string, unknown> = {}) {
  return app.server.call<{ _id: string }>(
    'create-or-update-chatbot',
    {
      name,
      ...extra,
      instructionsObject: {
        persona_name: 'Ana',
        persona_gender: 'feminina',
        persona_mission: 'Atender os clientes da Loja Demo.',
        personality_types: ['Amigável', 'Prestativo'],
        fallback: messages.chatbotNoInformation,
        context: 'A Loja Demo abre de segunda a sábado, das 9h às 18h.',
      },
    },
    token,
  );
}

test('create from a model, then edit and save in the editor', async ({ page }) => {
  test.setTimeout(120_000);
  await signedInAs(page, 'gerente@demo.com');
  await openChatbots(page);
  await look(page, 'list-empty');

  await page.getByRole('button', { name: L.createFromModel }).click();
  const dialog = page.getByRole('dialog', { name: L.createFromModel });
  await expect(dialog.getByText('Agendamento de horários')).toBeVisible();
  await dialog.getByRole('combobox', { name: L.model }).click();
  await page.getByRole('option', { name: 'Atendimento de loja' }).click();
  const name = `Loja ${project()}`;
  await dialog.getByLabel(L.chatbotName).fill(name);
  // Fixed text of the model is shown as information, not asked.
  await expect(dialog.getByText('Nunca invente produtos', { exact: false })).toBeVisible();
  // Every missing field at once, the first one focused.
  await dialog.getByRole('button', { name: labels.flows.create }).click();
  for (const missing of [
    'É necessário preencher o campo: Nome da loja',
    'É necessário preencher o campo: Produtos e preços',
    messages.chatbotPersonaNameRequired,
    messages.chatbotPersonaGenderRequired,
  ])
    await expect(dialog.getByText(missing, { exact: true })).toBeVisible();
  await expect(dialog.getByLabel('Nome da loja')).toBeFocused();
  await look(page, 'model-required', true);
  await dialog.getByLabel('Nome da loja').fill('Loja Demo');
  await dialog.getByLabel('Produtos e preços').fill('Camiseta básica: R$ 49,90\nCalça jeans: R$ 129,90');
  await dialog.getByLabel(L.personaName).fill('Bia');
  await dialog.getByRole('button', { name: labels.flows.create }).click();
  await expect(dialog.getByText(messages.chatbotPersonaGenderRequired, { exact: true })).toBeVisible();
  await expect(dialog.getByText(messages.chatbotPersonaNameRequired, { exact: true })).toHaveCount(0);
  await dialog.getByRole('radio', { name: 'Feminina' }).check();
  await dialog.getByRole('button', { name: labels.flows.create }).click();
  await expect(toast(page, 'Chatbot enviado com sucesso.')).toBeVisible();

  // The editor opens with what the model made.
  await expect(page).toHaveURL(/\/chatbots\/[0-9A-Z]{28}$/);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByLabel(L.identifier)).toHaveValue(name);
  await expect(page.getByLabel(L.personaName)).toHaveValue('Bia');
  await expect(page.getByRole('textbox', { name: L.context })).toHaveValue(/A loja se chama Loja Demo\./);
  await expect(chip(page, 'Vendedor')).toBeChecked();
  await look(page, 'editor-from-model', true);

  // A fourth personality is refused.
  await tapChip(page, 'Formal');
  await expect(page.getByText('Máximo de características de personalidade atingido.')).toBeVisible();
  await expect(chip(page, 'Formal')).not.toBeChecked();
  await tapChip(page, 'Vendedor');
  await tapChip(page, 'Formal');
  await expect(chip(page, 'Formal')).toBeChecked();
  await expect(page.getByText('Máximo de características de personalidade atingido.')).toHaveCount(0);

  // A required field emptied: its message, exactly; then saved.
  await page.getByLabel(L.identifier).fill('');
  await page.getByRole('button', { name: labels.common.save }).click();
  await expect(page.getByText('Identificador do chatbot necessário', { exact: true })).toBeVisible();
  const renamed = `Loja editada ${project()}`;
  await page.getByLabel(L.identifier).fill(renamed);
  await expect(page.getByText('Identificador do chatbot necessário', { exact: true })).toHaveCount(0);
  // The creation's toast closed first (unless it already went by itself), so the save's own is seen.
  const created = toast(page, 'Chatbot enviado com sucesso.');
  await created
    .getByRole('button', { name: 'Fechar' })
    .click({ timeout: 2000 })
    .catch(() => undefined);
  await expect(created).toHaveCount(0);
  await page.getByRole('button', { name: labels.common.save }).click();
  await expect(toast(page, 'Chatbot enviado com sucesso.')).toBeVisible();

  // Back in the list: the new name, its persona.
  await page.getByRole('button', { name: L.back }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Chatbots' })).toBeVisible();
  await expect(rowOf(page, renamed)).toBeVisible();
  await expect(rowOf(page, renamed)).toContainText('Bia (Feminina)');
  await look(page, 'list');
});

test("a new chatbot's validations, exactly as the spec writes them", { tag: '@phone' }, async ({ page }) => {
  await signedInAs(page, 'gerente@demo.com');
  await openChatbots(page);
  await page.getByRole('button', { name: L.newChatbot }).click();
  await expect(page.getByRole('heading', { level: 1, name: L.newChatbot })).toBeVisible();
  // The spec's defaults: temperature 0.3, a 2 s delay, the fallback.
  await expect(page.getByRole('slider', { name: L.temperature })).toHaveAttribute('aria-valuenow', '0.3');
  await expect(page.getByLabel(L.waitTime)).toHaveValue('2');
  await page.getByLabel(L.defaultAnswer).fill('');
  // The test chat refuses a draft the rules refuse, and the form shows why.
  if (isPhone()) await page.getByRole('tab', { name: L.testChatbot }).click();
  await page.getByRole('textbox', { name: L.customerMessage }).fill('Oi');
  await page.getByRole('button', { name: messages.send }).click();
  // On a phone the form's tab comes back to show the fields; on a desktop the chat says why too.
  if (isPhone())
    await expect(page.getByRole('tab', { name: L.settings })).toHaveAttribute('aria-selected', 'true');
  else await expect(page.getByRole('alert').filter({ hasText: L.fixToTest })).toBeVisible();
  await expect(page.getByText('Identificador do chatbot necessário', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: labels.common.save }).click();
  for (const text of [
    'Identificador do chatbot necessário',
    'Nome da persona necessário',
    'Gênero da persona necessário',
    'Missão da persona necessária',
    'Selecione pelo menos 1 tipo de personalidade',
    'Resposta padrão necessária',
    'Contexto necessário',
  ])
    await expect(page.getByText(text, { exact: true })).toBeVisible();
  await look(page, 'editor-validations', true);

  // A flow target needs its flow; the transfer message is for a human target with auto transfer.
  await expect(page.getByLabel(L.transferMessage)).toBeVisible();
  await page.getByRole('radio', { name: 'Chatbot de fluxo' }).check();
  await expect(page.getByText(messages.chatbotFlowRequired, { exact: true })).toBeVisible();
  await expect(page.getByLabel(L.transferMessage)).toHaveCount(0);
  await page.getByRole('radio', { name: 'Atendimento humano' }).check();
  await page.getByRole('switch', { name: L.automaticTransfer }).uncheck({ force: true });
  await expect(page.getByLabel(L.transferMessage)).toHaveCount(0);

  // The context's size: a warning above 25.000 characters, error level at 50.000.
  const context = page.getByRole('textbox', { name: L.context });
  await context.fill('a'.repeat(25_001));
  await expect(page.getByText('25.001 caracteres')).toBeVisible();
  await expect(page.getByText(messages.chatbotContextLong)).toBeVisible();
  await context.fill('a'.repeat(50_000));
  await expect(page.getByText(messages.chatbotContextTooLong)).toBeVisible();
  await expect(page.getByText('Contexto necessário', { exact: true })).toHaveCount(0);

  // Leaving with unsaved changes asks first.
  await page.getByRole('button', { name: L.back }).click();
  const question = page.getByRole('dialog', { name: flowEditorLabels.leaveTitle });
  await expect(question).toBeVisible();
  await question.getByRole('button', { name: labels.common.cancel }).click();
  await expect(page.getByRole('heading', { level: 1, name: L.newChatbot })).toBeVisible();

  // Filled in, it is saved and the address takes its id; nothing is left unsaved.
  const name = `Do zero ${project()}`;
  await page.getByLabel(L.identifier).fill(name);
  await page.getByLabel(L.personaName).fill('Caio');
  await page.getByRole('radio', { name: 'Masculina' }).check();
  await page.getByLabel(L.mission).fill('Responder dúvidas sobre a Loja Demo.');
  await tapChip(page, 'Direto ao ponto');
  await page.getByLabel(L.defaultAnswer).fill(messages.chatbotNoInformation);
  await context.fill('A Loja Demo vende camisetas.');
  await page.getByRole('button', { name: labels.common.save }).click();
  await expect(toast(page, 'Chatbot enviado com sucesso.')).toBeVisible();
  await expect(page).toHaveURL(/\/chatbots\/[0-9A-Z]{28}$/);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await page.getByRole('button', { name: L.back }).click();
  await expect(rowOf(page, name)).toContainText('Caio (Masculina)');
});

test('delete from the list, after a confirm', async ({ page }) => {
  const token = await signedInAs(page, 'gerente@demo.com');
  const name = `Apagar ${project()}`;
  await chatbotMade(token, name);

  // The chips dialog offers it for a chip's first service (Chatbot IA, the default).
  await page.goto(`${app.server.url}/chips`);
  await page.getByRole('button', { name: 'Novo chip' }).click();
  const chipDialog = page.getByRole('dialog', { name: 'Novo chip' });
  await chipDialog.getByRole('combobox', { name: 'Chatbot', exact: true }).click();
  await expect(page.getByRole('option', { name, exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
  await chipDialog.getByRole('button', { name: labels.common.cancel }).click();
  await expect(chipDialog).toBeHidden();

  await openChatbots(page);
  await rowOf(page, name).getByRole('button', { name: labels.common.delete }).click();
  const confirm = page.getByRole('dialog', { name: L.deleteChatbot });
  await expect(confirm).toContainText(L.confirmDeleteChatbot(name));
  await confirm.getByRole('button', { name: labels.common.confirm }).click();
  await expect(toast(page, 'Chatbot apagado com sucesso.')).toBeVisible();
  await expect(rowOf(page, name)).toHaveCount(0);
});

test("the flow editor's redirect to 'Chatbot de IA' lists the chatbots", async ({ page }) => {
  const token = await signedInAs(page, 'gerente@demo.com');
  const name = `Fluxo IA ${project()}`;
  await chatbotMade(token, name);
  const flow = await newFlow(app.server, token);
  await page.goto(`${app.server.url}/flows/${flow._id}`);
  await expect(nodesOf(page, 'start')).toBeVisible();
  await addNode(page, 'redirect');
  await pick(page, panel(page), FE.redirectTo, messages.aiChatbot);
  await pick(page, panel(page), labels.common.chatbot, name);
  await expect(panel(page).getByRole('combobox', { name: labels.common.chatbot })).toHaveValue(name);
});

test("the list failing to load: 'Erro ao carregar chatbots', and Tentar novamente", async ({ page }) => {
  await signedInAs(page, 'gerente@demo.com');
  let fail = true;
  await page.route('**/api/get-chatbots-by-user', (route) =>
    fail
      ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":true,"message":"x"}' })
      : route.continue(),
  );
  await page.goto(`${app.server.url}/chatbots`);
  await expect(page.getByRole('alert').filter({ hasText: 'Erro ao carregar chatbots' })).toBeVisible();
  fail = false;
  await page.getByRole('button', { name: labels.common.tryAgain }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Erro ao carregar chatbots' })).toHaveCount(0);
});

test("an attendant opening /chatbots gets 'Permissões insuficientes.' and has no menu entry", async ({
  page,
}) => {
  await signedInAs(page, 'atendente@demo.com');
  await page.goto(`${app.server.url}/chatbots`);
  await expect(toast(page, messages.insufficientPermissions)).toBeVisible();
  await expect(page).toHaveURL(/\/atendimento$/);
  const menu = await mainMenu(page);
  await expect(menu.getByRole('link', { name: 'Chatbots' })).toHaveCount(0);
});

/** The fake provider: an answer about opening hours, and a hand-over when a person is asked for. */
function scriptProvider() {
  fake.reply = (json) => {
    const last = [...json.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
    return /hor[aá]rio|abre/i.test(last)
      ? 'Abrimos de segunda a sábado, das 9h às 18h.'
      : 'Posso ajudar em algo mais?';
  };
  fake.toolCall = {
    when: /atendente|pessoa/i,
    name: 'transferir_atendimento',
    arguments: { motivo: 'O cliente pediu um atendente.' },
  };
}

test("the test chat: the draft's answer, unsaved edits included, then a transfer decision", {
  tag: '@phone',
}, async ({ page }) => {
  test.setTimeout(120_000);
  scriptProvider();
  const token = await signedInAs(page, 'gerente@demo.com');
  const name = `Teste do atendimento virtual ${project()}`;
  const made = await chatbotMade(token, name);
  await page.goto(`${app.server.url}/chatbots/${made._id}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  // A long name gives way to Salvar, which reads whole at 360 px (issue 33 §9: it read 'Salva').
  const saveLabel = page.getByRole('button', { name: labels.common.save }).locator('.mantine-Button-label');
  expect(await saveLabel.evaluate((el) => el.scrollWidth <= el.clientWidth && el.clientWidth > 0)).toBe(true);
  // An edit not saved: the test runs it all the same.
  const extra = `Código da promoção: PROMO-${project()}.`;
  const context = page.getByRole('textbox', { name: L.context });
  await context.fill(`${await context.inputValue()}\n${extra}`);
  if (isPhone()) await page.getByRole('tab', { name: L.testChatbot }).click();
  const log = page.getByRole('log', { name: L.testConversation });
  const box = page.getByRole('textbox', { name: L.customerMessage });
  await expect(box).toHaveAttribute('placeholder', L.customerMessagePlaceholder);
  const before = fake.chatCalls().length;
  await box.fill('Qual o horário de vocês?');
  await page.getByRole('button', { name: messages.send }).click();
  await expect(log.getByText('Qual o horário de vocês?')).toBeVisible();
  await expect(log.getByText('Abrimos de segunda a sábado, das 9h às 18h.')).toBeVisible();
  const sent = fake.chatCalls().slice(before);
  expect(sent.length).toBe(1);
  expect(JSON.stringify(sent[0]?.json?.messages)).toContain(extra);
  await look(page, 'test-chat-answer');

  await box.fill('Quero falar com um atendente');
  await page.getByRole('button', { name: messages.send }).click();
  const mark = log.getByRole('note');
  await expect(mark).toContainText('Transferido para atendimento humano');
  await expect(mark).toContainText('Motivo: O cliente pediu um atendente.');
  await look(page, 'test-chat-transfer');

  await page.getByRole('button', { name: L.clearConversation }).click();
  await expect(log.getByRole('note')).toHaveCount(0);

  // The provider failing: a clear pt-BR alert.
  fake.failWith = 500;
  try {
    await box.fill('Oi');
    await page.getByRole('button', { name: messages.send }).click();
    await expect(page.getByRole('alert').filter({ hasText: L.testFailed })).toContainText(
      messages.chatbotTestFailed,
    );
  } finally {
    fake.failWith = null;
  }
  await look(page, 'test-chat-error');
  await page.getByRole('button', { name: L.clearConversation }).click();
  await expect(log.getByText('Oi', { exact: true })).toHaveCount(0);
});

test('journey: a simulator customer served by the chatbot asks for a person; the attendant sees it live', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  scriptProvider();
  const { server } = app;
  const manager = (
    await server.call<{ token: string }>('auth', { email: 'gerente@demo.com', password: DEMO_PASSWORD })
  ).token;
  const suffix = `${project()}-${Date.now().toString(36)}`;
  const botName = `Loja IA ${suffix}`;
  const bot = await chatbotMade(manager, botName, {
    response_delay: 0,
    chatbot_auto_transfer_message: 'Vou chamar um atendente. Aguarde!',
  });
  const departments = await server.call<{ _id: string; name: string }[]>(
    'get-departments-by-user',
    {},
    manager,
  );
  const support = departments.find((d) => d.name === 'Suporte')?._id;
  const chip = await server.call<Chip>(
    'create-or-update-chip',
    {
      name: `IA ${suffix.replace(/[^A-Za-z0-9 ]/g, ' ')}`,
      redirect: 'ai_chatbot',
      chatbot: bot._id,
      department: support,
    },
    manager,
  );
  expect(chip).toMatchObject({ redirect: 'ai_chatbot', chatbot: bot._id });
  const simulator = await connectSimulator(server, manager, chip._id);

  // The attendant (Suporte) has Atendimento open before anything happens.
  await signedInAs(page, 'atendente@demo.com');
  await page.goto(`${server.url}/atendimento`);
  const list = page.getByRole('list', { name: labels.common.conversations });
  await expect(page.getByRole('heading', { level: 1, name: 'Atendimento' })).toBeVisible();

  const phoneContext = await browser.newContext({
    ...calm.contextOptions,
    viewport: { width: 360, height: 640 },
  });
  try {
    const phone = await phoneContext.newPage();
    await phone.goto(`${server.url}/simulador/${simulator}`);
    const customer = isPhone() ? 'Rafael Lima' : 'Beatriz Nunes';
    await phone.getByLabel('DDD e número').fill(isPhone() ? '11 97000-1701' : '11 97000-1702');
    await phone.getByLabel('Nome').fill(customer);
    // The customer writes once the page's socket is in its room, or 'digitando…' could come before it.
    followSocket(phone);
    await phone.getByRole('button', { name: 'Abrir conversa' }).click();
    await realtimeReady(phone);
    const bubbles = phone.getByRole('list', { name: 'Mensagens' }).getByRole('listitem');
    const write = async (text: string) => {
      const input = phone.getByLabel('Mensagem');
      await input.fill(text);
      await phone.getByRole('button', { name: 'Enviar' }).click();
      await expect(input).toHaveValue('');
    };
    await write('Oi! Qual o horário de vocês?');
    // After the response delay the chatbot types: the customer sees it, and it ends with the answer.
    const typing = phone.locator('header').getByText(messages.typing);
    await expect(typing).toBeVisible({ timeout: 15_000 });
    await expect(bubbles.filter({ hasText: 'Abrimos de segunda a sábado, das 9h às 18h.' })).toBeVisible({
      timeout: 30_000,
    });
    await expect(typing).toBeHidden();
    await phone.screenshot({ path: `${SHOTS}/journey-customer-answer-${project()}.png` });

    // The attendant's list shows it live, served by the AI chatbot; its header names the chatbot.
    const item = list.getByRole('listitem').filter({ hasText: customer });
    await expect(item).toBeVisible();
    await expect(item.getByLabel(labels.chatbots.servedByChatbot)).toBeVisible();
    await item.getByRole('button').first().click();
    const pane = page.getByRole('region', { name: new RegExp(customer) });
    await expect(pane.getByText(`Chatbot: ${botName}`)).toBeVisible();
    await look(page, 'journey-attendant-chatbot');

    await write('Quero falar com um atendente, por favor');
    await expect(bubbles.filter({ hasText: 'Vou chamar um atendente. Aguarde!' })).toBeVisible({
      timeout: 30_000,
    });
    await phone.screenshot({ path: `${SHOTS}/journey-customer-transfer-${project()}.png` });

    // Live, with no reload: a person serves it now.
    await expect(pane.getByText(messages.human, { exact: true })).toBeVisible();
    const served = (
      await server.call<{ conversations: Conversation[] }>(
        'get-conversations-with-last-message',
        { filter: { chips: [chip._id] } },
        manager,
      )
    ).conversations[0];
    // The chatbot's transfer message answers no one (spec 2 §4): the customer waits for the team.
    expect(served).toMatchObject({ is_manual: true, department: support, waiting_response: true });
    await expect(pane.getByText(messages.chatbotTransferredToHuman(botName))).toBeVisible();
    await expect(item.getByText(messages.listWaitingResponse)).toBeVisible();
    await look(page, 'journey-attendant-waiting');
    await expect(item.getByLabel(labels.chatbots.servedByChatbot)).toHaveCount(0);
    await look(page, 'journey-attendant-human');

    // The transfer dialog lists the real chatbots: back to it, and the header names it again.
    await pane.getByRole('button', { name: messages.paneMenu }).click();
    await page.getByRole('menu').getByRole('menuitem', { name: messages.transfer }).click();
    const transfer = page.getByRole('dialog', { name: messages.transfer });
    await transfer.getByRole('radio', { name: labels.common.chatbot }).check();
    await transfer.getByRole('combobox', { name: labels.common.chatbot }).click();
    await page.getByRole('option', { name: botName, exact: true }).click();
    await transfer.getByRole('button', { name: messages.paneTransferSubmit }).click();
    await expect(transfer).toBeHidden();
    await expect
      .poll(async () => {
        const [c] = (
          await server.call<{ conversations: Conversation[] }>(
            'get-conversations-with-last-message',
            { filter: { chips: [chip._id] } },
            manager,
          )
        ).conversations;
        return c && [c.is_manual, c.chatbot];
      })
      .toEqual([false, bot._id]);
    await expect(pane.getByText(`Chatbot: ${botName}`)).toBeVisible();

    // Finished, then the chatbot deleted: the history says 'Chatbot apagado'.
    await server.call('finish-conversation', { conversation_id: served?._id }, manager);
    await server.call('create-or-update-chatbot', { _id: bot._id, filed: true }, manager);
    await page.goto(`${server.url}/conversas`);
    const history = page.getByRole('table', { name: 'Conversas' });
    const row = history.getByRole('row').filter({ hasText: customer });
    await expect(row).toContainText(messages.historyChatbotDeleted);
    await look(page, 'journey-history');
  } finally {
    await phoneContext.close();
  }
  await server.call('create-or-update-chip', { _id: chip._id, filed: true }, manager);
});
