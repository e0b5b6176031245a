// The AI chatbots screen (/chatbots, issue 17; spec 3 §2.7, §5, §8) as a manager uses it: create from a model
// (its required fields refused with the spec's text), edit and save, the editor's validations, the test chat
// against the fake provider (an answer, then a transfer decided by a tool call), delete; an attendant is
// refused. A server of its own per worker, configured with the fake OpenAI-compatible provider.
import { mkdir } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { labels, messages } from '@/shared/messages';
import { type FakeOpenAi, startFakeOpenAi } from '../fakes/openai';
import { calm, DEMO_PASSWORD, isPhone, mainMenu } from './app';
import { type AppServer, expect, startServer, test } from './fixtures';

test.use(calm);

const L = labels.chatbots;
const SHOTS = '/tmp/shots-chatbots';
let fake: FakeOpenAi;
let app: { server: AppServer; stop(): Promise<void> };

test.beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  fake = await startFakeOpenAi();
  app = await startServer({
    seed: 'demo',
    env: { AI_BASE_URL: fake.url, AI_API_KEY: fake.key, AI_MODEL: 'modelo-teste' },
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
async function chatbotMade(token: string, name: string) {
  return app.server.call<{ _id: string }>(
    'create-or-update-chatbot',
    {
      name,
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

  await page.getByRole('button', { name: L.criarAPartirDeModelo }).click();
  const dialog = page.getByRole('dialog', { name: L.criarAPartirDeModelo });
  await expect(dialog.getByText('Agendamento de horários')).toBeVisible();
  await dialog.getByRole('combobox', { name: L.modelo }).click();
  await page.getByRole('option', { name: 'Atendimento de loja' }).click();
  const name = `Loja ${project()}`;
  await dialog.getByLabel(L.nomeDoChatbot).fill(name);
  // Fixed text of the model is shown as information, not asked.
  await expect(dialog.getByText('Nunca invente produtos', { exact: false })).toBeVisible();
  await dialog.getByRole('button', { name: L.criar }).click();
  await expect(
    dialog.getByText('É necessário preencher o campo: Nome da loja', { exact: true }),
  ).toBeVisible();
  await look(page, 'model-required', true);
  await dialog.getByLabel('Nome da loja').fill('Loja Demo');
  await dialog.getByRole('button', { name: L.criar }).click();
  await expect(
    dialog.getByText('É necessário preencher o campo: Produtos e preços', { exact: true }),
  ).toBeVisible();
  await dialog.getByLabel('Produtos e preços').fill('Camiseta básica: R$ 49,90\nCalça jeans: R$ 129,90');
  await dialog.getByRole('button', { name: L.criar }).click();
  await expect(dialog.getByText(messages.chatbotPersonaNameRequired, { exact: true })).toBeVisible();
  await dialog.getByLabel(L.nomeDaPersona).fill('Bia');
  await dialog.getByRole('button', { name: L.criar }).click();
  await expect(dialog.getByText(messages.chatbotPersonaGenderRequired, { exact: true })).toBeVisible();
  await dialog.getByRole('radio', { name: 'Feminina' }).check();
  await dialog.getByRole('button', { name: L.criar }).click();
  await expect(toast(page, 'Chatbot enviado com sucesso.')).toBeVisible();

  // The editor opens with what the model made.
  await expect(page).toHaveURL(/\/chatbots\/[0-9A-Z]{28}$/);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByLabel(L.identificador)).toHaveValue(name);
  await expect(page.getByLabel(L.nomeDaPersona)).toHaveValue('Bia');
  await expect(page.getByRole('textbox', { name: L.contexto })).toHaveValue(/A loja se chama Loja Demo\./);
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
  await page.getByLabel(L.identificador).fill('');
  await page.getByRole('button', { name: labels.common.salvar }).click();
  await expect(page.getByText('Identificador do chatbot necessário', { exact: true })).toBeVisible();
  const renamed = `Loja editada ${project()}`;
  await page.getByLabel(L.identificador).fill(renamed);
  await expect(page.getByText('Identificador do chatbot necessário', { exact: true })).toHaveCount(0);
  // The creation's toast gone first: the same text again replaces a shown one (lib/notify.ts).
  await expect(toast(page, 'Chatbot enviado com sucesso.')).toHaveCount(0, { timeout: 15_000 });
  await page.getByRole('button', { name: labels.common.salvar }).click();
  await expect(toast(page, 'Chatbot enviado com sucesso.')).toBeVisible();

  // Back in the list: the new name, its persona.
  await page.getByRole('button', { name: L.voltar }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Chatbots' })).toBeVisible();
  await expect(rowOf(page, renamed)).toBeVisible();
  await expect(rowOf(page, renamed)).toContainText('Bia (Feminina)');
  await look(page, 'list');
});

test("a new chatbot's validations, exactly as the spec writes them", async ({ page }) => {
  await signedInAs(page, 'gerente@demo.com');
  await openChatbots(page);
  await page.getByRole('button', { name: L.novoChatbot }).click();
  await expect(page.getByRole('heading', { level: 1, name: L.novoChatbot })).toBeVisible();
  // The spec's defaults: temperature 0.3, a 2 s delay, the fallback.
  await expect(page.getByRole('slider', { name: L.temperatura })).toHaveAttribute('aria-valuenow', '0.3');
  await expect(page.getByLabel(L.tempoDeEspera)).toHaveValue('2');
  await page.getByLabel(L.respostaPadrao).fill('');
  await page.getByRole('button', { name: labels.common.salvar }).click();
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
  await expect(page.getByLabel(L.mensagemDeTransferencia)).toBeVisible();
  await page.getByRole('radio', { name: 'Chatbot de fluxo' }).check();
  await expect(page.getByText(messages.chatbotFlowRequired, { exact: true })).toBeVisible();
  await expect(page.getByLabel(L.mensagemDeTransferencia)).toHaveCount(0);
  await page.getByRole('radio', { name: 'Atendimento humano' }).check();
  await page.getByRole('switch', { name: L.transferenciaAutomatica }).uncheck({ force: true });
  await expect(page.getByLabel(L.mensagemDeTransferencia)).toHaveCount(0);

  // The context's size: a warning above 25.000 characters, error level at 50.000.
  const context = page.getByRole('textbox', { name: L.contexto });
  await context.fill('a'.repeat(25_001));
  await expect(page.getByText('25.001 caracteres')).toBeVisible();
  await expect(page.getByText(messages.chatbotContextLong)).toBeVisible();
  await context.fill('a'.repeat(50_000));
  await expect(page.getByText(messages.chatbotContextTooLong)).toBeVisible();
  await expect(page.getByText('Contexto necessário', { exact: true })).toHaveCount(0);

  // Leaving with unsaved changes asks first.
  await page.getByRole('button', { name: L.voltar }).click();
  const question = page.getByRole('dialog', { name: labels.flowEditor.sairTitulo });
  await expect(question).toBeVisible();
  await question.getByRole('button', { name: labels.common.cancelar }).click();
  await expect(page.getByRole('heading', { level: 1, name: L.novoChatbot })).toBeVisible();
});

test('delete from the list, after a confirm', async ({ page }) => {
  const token = await signedInAs(page, 'gerente@demo.com');
  const name = `Apagar ${project()}`;
  await chatbotMade(token, name);
  await openChatbots(page);
  await rowOf(page, name).getByRole('button', { name: labels.common.apagar }).click();
  const confirm = page.getByRole('dialog', { name: L.apagarChatbot });
  await expect(confirm).toContainText(L.desejaApagarOChatbot(name));
  await confirm.getByRole('button', { name: labels.common.confirmar }).click();
  await expect(toast(page, 'Chatbot apagado com sucesso.')).toBeVisible();
  await expect(rowOf(page, name)).toHaveCount(0);
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
