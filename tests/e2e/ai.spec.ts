// AI summary and follow-up from the Atendimento command bar (spec 2 §2.3, §5, §8), on a server of its own
// configured with a fake OpenAI-compatible provider.
import type { Page } from '@playwright/test';
import type { Conversation } from '@/shared/contract/conversations';
import { formatPhone } from '@/shared/format';
import { labels, messages } from '@/shared/messages';
import { type FakeOpenAi, startFakeOpenAi } from '../fakes/openai';
import { calm, DEMO_PASSWORD, shot } from './app';
import { type AppServer, expect, startServer, test } from './fixtures';

test.use(calm);

let fake: FakeOpenAi;
let app: { server: AppServer; stop(): Promise<void> };

test.beforeAll(async () => {
  fake = await startFakeOpenAi();
  app = await startServer({
    seed: 'busy-account',
    env: { AI_BASE_URL: fake.url, AI_API_KEY: fake.key, AI_MODEL: 'modelo-teste' },
  });
});
test.afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

async function openConversation(page: Page, index: number) {
  const { server } = app;
  const { token } = await server.call<{ token: string }>('auth', {
    email: 'dono@demo.com',
    password: DEMO_PASSWORD,
  });
  const { conversations } = await server.call<{ conversations: Conversation[] }>(
    'get-conversations-with-last-message',
    {},
    token,
  );
  const conversation = conversations[index] as Conversation;
  await server.call(
    'send-conversation-message',
    {
      conversation_id: conversation._id,
      message_id: `ai-${Date.now()}-${index}`,
      text: 'Olá! Seu pedido saiu para entrega.',
    },
    token,
  );
  await page.goto(`${server.url}/login`);
  await page.evaluate((t) => localStorage.setItem('token', t), token);
  const name = formatPhone(conversation.contact.phone);
  await page.goto(`${server.url}/atendimento?c=${conversation._id}`);
  const pane = page.getByRole('region', { name });
  await expect(pane.getByRole('heading', { name })).toBeVisible();
  return pane;
}

test('summary: stored and shown as a summary message, with the monthly balance', async ({ page }) => {
  const index = test.info().project.name === 'phone' ? 0 : 1;
  const pane = await openConversation(page, index);
  fake.reply = 'Cliente aguarda a entrega do pedido.';
  await pane.getByRole('button', { name: messages.aiMenu }).click();
  await page.getByRole('menuitem', { name: messages.aiSummarize }).click();
  await expect(
    page.getByText(messages.aiSummarized(99)).or(page.getByText(messages.aiSummarized(98))),
  ).toBeVisible();
  await expect(pane.getByText('Cliente aguarda a entrega do pedido.')).toBeVisible();
  await expect(pane.getByText(messages.paneSummary)).toBeVisible();
  await shot(page, 'ai-summary');
});

test('follow-up: the text goes into the command bar to edit and send', async ({ page }) => {
  const index = test.info().project.name === 'phone' ? 2 : 3;
  const pane = await openConversation(page, index);
  fake.reply = 'Oi! Conseguiu receber o pedido?';
  await pane.getByRole('button', { name: messages.aiMenu }).click();
  await page.getByRole('menuitem', { name: messages.aiFollowUp }).click();
  await expect(pane.getByRole('textbox', { name: labels.common.message, exact: true })).toHaveValue(
    'Oi! Conseguiu receber o pedido?',
  );
  await expect(
    page.getByText(/^Follow-up criado\. Saldo mensal disponível para novos follow-ups: \d+$/),
  ).toBeVisible();
  await shot(page, 'ai-follow-up');
});
