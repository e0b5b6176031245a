// A webhook on an official number (issue 20; spec 3 §2.13, §5: only APPROVED templates with fixed content),
// as a manager sets it up, against a server of its own talking to a fake Graph API: the number chosen, its
// fixed template (the one with a variable and the pending one are not offered) shown read-only with a flow
// for its quick reply and the conversation rule; mapped from the Exemplo and made active; an event posted
// to the URL goes out as that template, once.
import { mkdir } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { labels } from '@/shared/messages';
import { officialCampaignLabels as O } from '@/shared/messages-campaigns';
import { webhookLabels as L, webhookMessages as M } from '@/shared/messages-webhooks';
import { type FakeGraph, graphEnv, startFakeGraph } from '../fakes/graph-api';
import { calm, connectedOfficialChip, tokenOf } from './app';
import { type AppServer, expect, startServer, test } from './fixtures';

test.use(calm);

const WABA = '5647382910';
let app: { server: AppServer; stop(): Promise<void> };
let graph: FakeGraph;

test.beforeAll(async () => {
  test.setTimeout(150_000);
  await mkdir('test-results/screens', { recursive: true });
  graph = await startFakeGraph();
  graph.templates[WABA] = [
    {
      name: 'cupom',
      status: 'APPROVED',
      language: 'pt_BR',
      category: 'MARKETING',
      components: [{ type: 'BODY', text: 'Oi {{1}}', example: { body_text: [['Ana']] } }],
    },
    { name: 'pendente', status: 'PENDING', language: 'pt_BR', components: [{ type: 'BODY', text: 'x' }] },
    {
      name: 'pedido_recebido',
      status: 'APPROVED',
      language: 'pt_BR',
      category: 'UTILITY',
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'Pedido recebido' },
        { type: 'BODY', text: 'Recebemos seu pedido e já estamos separando os produtos. Obrigado!' },
        { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Acompanhar' }] },
      ],
    },
  ];
  app = await startServer({
    seed: 'demo',
    env: {
      ...graphEnv(graph),
    },
  });
  await connectedOfficialChip(app.server, { name: 'Oficial', phoneNumberId: '1029384756', waba: WABA });
});
test.afterAll(async () => {
  await app?.stop();
  await graph?.close();
});

async function pick(page: Page, field: string, option: string) {
  await page.getByRole('combobox', { name: field, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('an official number sends its fixed template with a flow per quick reply', async ({ page }) => {
  test.setTimeout(120_000);
  const token = await tokenOf(app.server, 'gerente@demo.com');
  await page.goto(`${app.server.url}/login`);
  await page.evaluate((t) => localStorage.setItem('token', t), token);
  await page.goto(`${app.server.url}/webhooks`);
  await page.getByRole('button', { name: L.newWebhook }).click();
  await expect(page).toHaveURL(/\/webhooks\/[0-9A-Z]{28}$/);
  const url = await page.getByLabel(L.webhookUrl).inputValue();
  await page.getByLabel(L.webhookName).fill(`Pedidos ${test.info().project.name}`);

  await pick(page, labels.schedule.sendingChip, 'Oficial');
  await page.getByRole('combobox', { name: labels.common.messageTemplate, exact: true }).click();
  // Only the fixed approved template is offered.
  await expect(page.getByRole('option')).toHaveText(['pedido_recebido']);
  await page.getByRole('option', { name: 'pedido_recebido' }).click();
  const preview = page.getByLabel(labels.common.templatePreview);
  await expect(preview).toContainText('Pedido recebido');
  await expect(preview).toContainText('Recebemos seu pedido');
  await pick(page, O.ifContactClick('Acompanhar'), 'Boas-vindas');
  await page.getByText(O.ruleAnswer).click();
  await pick(page, labels.common.status, L.statusLabels.active);

  await page.getByRole('button', { name: L.example }).click();
  await page.getByRole('group', { name: 'telefone' }).getByRole('combobox', { name: L.sourceFields }).click();
  await page.getByRole('option', { name: /^cliente\.telefone( |$)/ }).click();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('group', { name: 'telefone' }).getByLabel(L.exampleValue)).toHaveValue(
    '+55 11 98765-4321',
  );
  await page.screenshot({
    path: `test-results/screens/webhook-official-${test.info().project.name}.png`,
    fullPage: true,
  });
  await page.getByRole('button', { name: labels.common.save }).click();
  await expect(page.getByRole('alert').filter({ hasText: M.updated })).toBeVisible();

  // A store posts an order: the template goes to the phone, once for the retried event.
  const phone = test.info().project.name === 'phone' ? '+55 21 99111-0001' : '+55 21 99111-0002';
  const post = () =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ cliente: { telefone: phone }, pedido: 1 }),
    });
  expect((await post()).status).toBe(202);
  expect((await post()).status).toBe(202);
  const to = `55${phone.replace(/\D/g, '').slice(2)}`;
  await expect.poll(() => graph.sent.filter((s) => s.to === to).length, { timeout: 20_000 }).toBe(1);
});
