// The official campaigns screen (/campanhas-api-oficial, issue 19; spec 3 §2.11, §4, §5 Official campaign, §6)
// as a manager uses it, against a server of its own talking to a fake Graph API: an official number connected
// through the API, its WABA holding an APPROVED template with variables and quick replies, a PENDING one (never
// offered) and an APPROVED one with an image header. A campaign made in the dialog (every message of §5 first,
// each on its field), listed with its chip and saved as chosen; an image-header campaign (the upload refused
// for a wrong type, then a png); cancel and delete. An account without official numbers sees the plan notice
// with the contact-support link.
import { mkdir } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import type { Campaign } from '@/shared/contract/campaigns';
import type { Conversation } from '@/shared/contract/conversations';
import { newId } from '@/shared/ids';
import { labels, messages } from '@/shared/messages';
import {
  campaignMessages as C,
  CAMPAIGN_STATUS_LABELS,
  officialCampaignMessages as M,
  officialCampaignLabels as O,
  templateLabels,
} from '@/shared/messages-campaigns';
import { type FakeGraph, graphEnv, messagesNotification, startFakeGraph } from '../fakes/graph-api';
import { makeXlsx } from '../xlsx';
import { calm, connectedOfficialChip, DEMO_PASSWORD, isPhone, mainMenu, newCustomer, tokenOf } from './app';
import { type AppServer, expect, startServer, test } from './fixtures';

test.use(calm);

const MANAGER = 'gerente@demo.com';
const WABA = '5647382910';
const SUPPORT_URL = 'https://wa.me/5511900000000';
let app: { server: AppServer; stop(): Promise<void> };
let graph: FakeGraph;
let chipName = '';

// A 1×1 png, and a gif the upload must refuse.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

test.beforeAll(async () => {
  // A server of its own with a seed, and an official number connected: slow on a busy 2-core machine.
  test.setTimeout(150_000);
  await mkdir('test-results/screens', { recursive: true });
  graph = await startFakeGraph();
  graph.templates[WABA] = [
    {
      name: 'promo_cupom',
      status: 'APPROVED',
      language: 'pt_BR',
      category: 'MARKETING',
      components: [
        { type: 'BODY', text: 'Oi {{1}}, seu cupom é {{2}}. Aproveite!' },
        { type: 'FOOTER', text: 'Loja Demo' },
        {
          type: 'BUTTONS',
          buttons: [
            { type: 'QUICK_REPLY', text: 'Quero' },
            { type: 'QUICK_REPLY', text: 'Parar' },
          ],
        },
      ],
    },
    {
      name: 'em_analise',
      status: 'PENDING',
      language: 'pt_BR',
      category: 'MARKETING',
      components: [{ type: 'BODY', text: 'Ainda não' }],
    },
    {
      name: 'vitrine',
      status: 'APPROVED',
      language: 'pt_BR',
      category: 'MARKETING',
      components: [
        { type: 'HEADER', format: 'IMAGE' },
        { type: 'BODY', text: 'Chegaram as novidades da semana.' },
      ],
    },
  ];
  app = await startServer({
    seed: 'demo',
    env: {
      ...graphEnv(graph),
      SUPPORT_URL,
    },
  });
  // The demo plan allows one official number: this worker's server has its own.
  chipName = 'Oficial';
  await connectedOfficialChip(app.server, { name: chipName, phoneNumberId: '1029384756', waba: WABA });
});
test.afterAll(async () => {
  await app?.stop();
  await graph?.close();
});

const project = () => test.info().project.name;
const unique = () => `${project()} ${Date.now().toString(36)}`;
const shot = (page: Page, name: string) =>
  page.screenshot({
    path: `test-results/screens/official-campaigns-${name}-${project()}.png`,
    fullPage: true,
  });

async function signedInAs(page: Page, email: string, password = DEMO_PASSWORD) {
  const token = await tokenOf(app.server, email, password);
  await page.goto(`${app.server.url}/login`);
  await page.evaluate((t) => localStorage.setItem('token', t), token);
  return token;
}

async function importAudience(token: string, name: string, people: [string, string][]) {
  const form = new FormData();
  const sheet = await makeXlsx([['telefone', 'nome'], ...people]);
  // The fields before the file: the server reads the fields sent ahead of it.
  form.append('name', name);
  form.append('create_contacts', 'true');
  form.append('file', new Blob([new Uint8Array(sheet)]), 'publico.xlsx');
  const res = await fetch(`${app.server.url}/api/import-audience`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const answer = (await res.json()) as { error: boolean; message: { _id: string } | string };
  if (answer.error) throw new Error(`import-audience: ${String(answer.message)}`);
  return answer.message as { _id: string };
}

const rows = (page: Page) =>
  isPhone()
    ? page.getByRole('list', { name: labels.common.officialApiCampaigns }).getByRole('listitem')
    : page.getByRole('table', { name: labels.common.officialApiCampaigns }).getByRole('row');
const rowOf = (page: Page, name: string) => rows(page).filter({ hasText: name });
const rowAction = (page: Page, name: string, action: string) =>
  rowOf(page, name).getByRole('button', { name: action, exact: true });

async function pick(page: Page, dialog: Locator, field: string, option: string) {
  await dialog.getByRole('combobox', { name: field, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}
const choose = (dialog: Locator, option: string) =>
  dialog
    .locator('label')
    .filter({ hasText: new RegExp(`^${option}$`) })
    .click();
const save = (dialog: Locator) => dialog.getByRole('button', { name: 'Salvar' }).click();
const fieldError = (dialog: Locator, text: string) => dialog.getByText(text, { exact: true });

async function toastSeen(page: Page, text: string) {
  const toast = page.getByRole('alert').filter({ hasText: text });
  await expect(toast).toBeVisible();
  await toast
    .getByRole('button', { name: 'Fechar' })
    .click({ timeout: 2000 })
    .catch(() => undefined);
}

/** Picks tomorrow at `time` in the pt-BR picker. */
async function pickTomorrow(page: Page, dialog: Locator, time: string) {
  const { day, nextMonth } = await page.evaluate(() => {
    const now = new Date();
    const d = new Date(now);
    d.setDate(d.getDate() + 1);
    const p = (x: number) => String(x).padStart(2, '0');
    return {
      day: `${p(d.getDate())}/${p(d.getMonth() + 1)}/${d.getFullYear()}`,
      nextMonth: d.getMonth() !== now.getMonth(),
    };
  });
  await dialog.getByLabel('Data e hora do envio').click();
  if (nextMonth) await page.getByRole('button', { name: messages.dateAriaLabels.nextMonth }).click();
  await page.getByRole('button', { name: day, exact: true }).click();
  const [hours = '', minutes = ''] = time.split(':');
  await page.getByLabel(messages.timeHours).fill(hours);
  await page.getByLabel(messages.timeMinutes).fill(minutes);
  await page.getByRole('button', { name: messages.dateTimeConfirm }).click();
  await expect(dialog.getByLabel('Data e hora do envio')).toHaveText(`${day} ${time}`);
}

const officialCampaigns = (token: string) =>
  app.server.call<Campaign[]>('get-campaigns-by-user', { official: true }, token);

test('a campaign made with every message of the dialog, listed with its chip; an image header; cancel and delete', {
  tag: '@phone',
}, async ({ page }) => {
  test.setTimeout(150_000);
  const token = await signedInAs(page, MANAGER);
  const audienceName = `Clientes ${unique()}`;
  await importAudience(token, audienceName, [
    ['5511987650001', 'Clara Campos'],
    ['5511987650002', 'Bruno Lima'],
  ]);
  const flows = await app.server.call<{ _id: string; name: string }[]>('get-flows-by-user', {}, token);
  const welcome = flows.find((f) => f.name === 'Boas-vindas');
  const departments = await app.server.call<{ _id: string; name: string }[]>(
    'get-departments-by-user',
    {},
    token,
  );
  const sales = departments.find((d) => d.name === 'Vendas');
  const name = `Cupom ${unique()}`;

  await page.goto(`${app.server.url}/atendimento`);
  const menu = await mainMenu(page);
  await menu.getByRole('link', { name: 'Campanhas API Oficial' }).click();
  await expect(page).toHaveURL(/\/campanhas-api-oficial$/);
  // The screen's chunk is loaded on demand: on a busy machine it may take a while the first time.
  await expect(page.getByRole('heading', { level: 1, name: labels.common.officialApiCampaigns })).toBeVisible(
    {
      timeout: 30_000,
    },
  );
  await expect(page.getByRole('link', { name: templateLabels.templates })).toHaveAttribute(
    'href',
    '/templates',
  );
  await expect(page.getByText(O.noCampaignRegistered)).toBeVisible();
  await shot(page, 'empty');

  await page.getByRole('button', { name: 'Nova campanha' }).click();
  const dialog = page.getByRole('dialog', { name: O.newCampaign });
  await expect(
    dialog.getByRole('combobox', { name: labels.common.messageTemplate, exact: true }),
  ).toBeDisabled();

  // Every message of spec 3 §5 Official campaign, each on its field, as each one is put right.
  await save(dialog);
  await expect(fieldError(dialog, C.campaignNameRequired)).toBeVisible();
  await dialog.getByLabel('Nome da campanha').fill(name);
  await save(dialog);
  await expect(fieldError(dialog, messages.scheduleChipRequired)).toBeVisible();
  await pick(page, dialog, O.sendingNumber, chipName);
  await choose(dialog, 'Agendado');
  await save(dialog);
  await expect(fieldError(dialog, C.campaignScheduleRequired)).toBeVisible();
  await choose(dialog, 'Imediato');
  await save(dialog);
  await expect(fieldError(dialog, C.campaignAudienceRequired)).toBeVisible();
  await choose(dialog, 'Tags');
  await save(dialog);
  await expect(fieldError(dialog, C.campaignTagsRequired)).toBeVisible();
  await choose(dialog, 'Audiência');
  await pick(page, dialog, 'Audiência', audienceName);
  await save(dialog);
  await expect(fieldError(dialog, M.templateRequired)).toBeVisible();
  await shot(page, 'dialog-error');

  // Only the approved templates of the number are offered (the pending one is not).
  await dialog.getByRole('combobox', { name: labels.common.messageTemplate, exact: true }).click();
  await expect(page.getByRole('option')).toHaveText(['promo_cupom', 'vitrine']);
  await page.getByRole('option', { name: 'promo_cupom', exact: true }).click();
  await expect(dialog.getByLabel(labels.common.templatePreview)).toContainText(
    'Oi {{1}}, seu cupom é {{2}}. Aproveite!',
  );
  await save(dialog);
  await expect(fieldError(dialog, M.parameterRequired('{{1}}'))).toBeVisible();
  await pick(page, dialog, O.audienceColumn('{{1}}'), '{nome}');
  await save(dialog);
  await expect(fieldError(dialog, M.parameterRequired('{{2}}'))).toBeVisible();
  await dialog.getByLabel(O.defaultValue('{{2}}')).fill('BF10');
  await dialog.getByLabel(labels.common.templatePreview).scrollIntoViewIfNeeded();
  await shot(page, 'dialog-variables');

  // Rule 'all' (the default) asks the conversation's type, its flow and its department.
  await save(dialog);
  await expect(fieldError(dialog, M.redirectRequired)).toBeVisible();
  await pick(page, dialog, O.conversationType, 'Chatbot de fluxo');
  await save(dialog);
  await expect(fieldError(dialog, M.flowRequired)).toBeVisible();
  await pick(page, dialog, 'Fluxo', 'Boas-vindas');
  await save(dialog);
  await expect(fieldError(dialog, M.departmentRequired)).toBeVisible();
  await pick(page, dialog, O.department, 'Vendas');
  // A flow for the quick reply 'Quero'; 'Parar' starts none.
  await pick(page, dialog, O.ifContactClick('Quero'), 'Boas-vindas');
  await expect(dialog.getByRole('combobox', { name: O.ifContactClick('Parar') })).toHaveValue('');
  await choose(dialog, 'Agendado');
  await pickTomorrow(page, dialog, '10:30');
  await shot(page, 'dialog-filled');
  await save(dialog);
  await toastSeen(page, C.campaignSaved);
  await expect(dialog).toBeHidden();

  const row = rowOf(page, name);
  await expect(row).toBeVisible();
  await expect(row).toContainText(chipName);
  await expect(row).toContainText('Agendada');
  // The row's actions fit the screen (no sideways scrolling to reach them).
  await expect(rowAction(page, name, 'Relatório')).toBeInViewport();
  await shot(page, 'list');
  const saved = (await officialCampaigns(token)).find((c) => c.name === name);
  expect(saved).toMatchObject({
    official: true,
    status: 'scheduled',
    conversation_creation_rule: 'all',
    redirect: 'flow_chatbot',
    flow: welcome?._id,
    department: sales?._id,
    template: { name: 'promo_cupom', language: 'pt_BR' },
  });
  expect(saved?.template_parameters.map((p) => [p.location, p.index, p.var, p.fallback])).toEqual([
    ['body', 1, 'nome', ''],
    ['body', 2, '', 'BF10'],
  ]);
  expect(saved?.template_payloads.map((p) => [p.button, p.payload ?? null])).toEqual([
    ['Quero', welcome?._id],
    ['Parar', null],
  ]);

  // An image header: the upload takes only jpeg or png; 'on_response' needs no type or department.
  const imageName = `Vitrine ${unique()}`;
  await page.getByRole('button', { name: 'Nova campanha' }).click();
  const second = page.getByRole('dialog', { name: O.newCampaign });
  await second.getByLabel('Nome da campanha').fill(imageName);
  await pick(page, second, O.sendingNumber, chipName);
  await pick(page, second, 'Audiência', audienceName);
  await pick(page, second, labels.common.messageTemplate, 'vitrine');
  await choose(second, O.ruleAnswer);
  await expect(second.getByRole('combobox', { name: O.conversationType })).toHaveCount(0);
  await save(second);
  await expect(fieldError(second, M.imageRequired)).toBeVisible();
  const file = second.locator('input[type="file"]');
  await file.setInputFiles({ name: 'banner.gif', mimeType: 'image/gif', buffer: GIF });
  await expect(fieldError(second, O.imageTypeInvalid)).toBeVisible();
  await file.setInputFiles({ name: 'banner.png', mimeType: 'image/png', buffer: PNG });
  await expect(second.getByText(O.imageSent('banner.png'))).toBeVisible();
  await expect(second.getByRole('img', { name: O.imagePreview })).toBeVisible();
  await shot(page, 'dialog-image');
  await choose(second, 'Agendado');
  await pickTomorrow(page, second, '11:00');
  await save(second);
  await toastSeen(page, C.campaignSaved);
  await expect(rowOf(page, imageName)).toContainText('Agendada');
  const withImage = (await officialCampaigns(token)).find((c) => c.name === imageName);
  expect(withImage?.conversation_creation_rule).toBe('on_response');
  expect(withImage?.template_parameters).toMatchObject([{ location: 'header', type: 'image' }]);
  expect(withImage?.template_parameters[0]?.link).toMatch(/\.png$|\/media\//);

  // The report of an official campaign adds the button taps, failures by reason and pricing categories.
  await rowAction(page, name, 'Relatório').click();
  const report = page.getByRole('dialog', { name: `Relatório: ${name}` });
  await expect(report.getByText(O.clicks)).toBeVisible();
  await expect(report.getByText(O.failuresByReason)).toBeVisible();
  await expect(report.getByText(O.billingCategories)).toBeVisible();
  await shot(page, 'report');
  await page.keyboard.press('Escape');
  await expect(report).toBeHidden();

  // Cancel the first, delete the second.
  await rowAction(page, name, 'Cancelar campanha').click();
  await page
    .getByRole('dialog', { name: 'Cancelar campanha' })
    // Issue 33 item 8: 'Voltar' keeps it, 'Cancelar campanha' cancels.
    .getByRole('button', { name: 'Cancelar campanha' })
    .click();
  await toastSeen(page, C.campaignCanceled);
  await expect(rowOf(page, name)).toContainText('Cancelada');
  await rowAction(page, imageName, 'Apagar').click();
  await page
    .getByRole('dialog', { name: 'Apagar campanha' })
    .getByRole('button', { name: 'Confirmar' })
    .click();
  await toastSeen(page, C.campaignDeleted);
  await expect(rowOf(page, imageName)).toHaveCount(0);
  expect(graph.to('/messages')).toHaveLength(0);
});

test('an account without official numbers sees the plan notice with the contact-support link', async ({
  page,
}) => {
  const { email, password } = await newCustomer(app.server, 'oficial-plano');
  await signedInAs(page, email, password);
  await page.goto(`${app.server.url}/campanhas-api-oficial`);
  await expect(
    page.getByRole('heading', { level: 1, name: labels.common.officialApiCampaigns }),
  ).toBeVisible();
  const notice = page.getByRole('status').filter({ hasText: C.officialNotInPlan });
  await expect(notice).toBeVisible();
  const support = notice.getByRole('link', { name: O.talkWithSupport });
  await expect(support).toHaveAttribute('href', SUPPORT_URL);
  await expect(support).toHaveAttribute('target', '_blank');
  await expect(page.getByRole('button', { name: 'Nova campanha' })).toHaveCount(0);
  await shot(page, 'plan-gate');
});

test('a campaign sent at once ends Concluída with its deliveries, live; a reply opens its conversation (on_response)', async ({
  page,
}) => {
  test.setTimeout(150_000);
  // Meta's side: its status webhooks (sent, delivered, read) reach the server, as a customer's reply does.
  graph.webhookTarget = { url: app.server.url, secret: 'secret' };
  graph.statusWebhooks = 'read';
  const token = await signedInAs(page, MANAGER);
  const base = project() === 'phone' ? '55119876502' : '55119876503';
  const people: [string, string][] = [
    [`${base}01`, 'Clara Campos'],
    [`${base}02`, 'Bruno Lima'],
  ];
  const audienceName = `Envio ${unique()}`;
  const audience = await importAudience(token, audienceName, people);
  const chips = await app.server.call<{ _id: string; name: string }[]>('get-chip-numbers-by-user', {}, token);
  const chip = chips.find((c) => c.name === chipName);
  const name = `Agora ${unique()}`;
  const sent = graph.to('/messages').length;
  await app.server.call(
    'create-or-update-official-campaign',
    {
      _id: newId(),
      name,
      chip: chip?._id,
      audience_type: 'audience',
      audience: audience._id,
      template: { name: 'promo_cupom', language: 'pt_BR' },
      template_parameters: [
        { index: 1, par: '{{1}}', var: 'nome', fallback: 'cliente', location: 'body', type: 'text' },
        { index: 2, par: '{{2}}', var: '', fallback: 'BF10', location: 'body', type: 'text' },
      ],
      template_payloads: [],
      conversation_creation_rule: 'on_response',
      scheduledTo: null,
    },
    token,
  );

  await page.goto(`${app.server.url}/campanhas-api-oficial`);
  // Finished with both people's deliveries counted from Meta's status webhooks, live (no reload).
  await expect(rowOf(page, name)).toContainText(CAMPAIGN_STATUS_LABELS.finished, { timeout: 60_000 });
  await expect(rowOf(page, name)).toContainText(O.deliveredRead(2, 2), { timeout: 30_000 });
  await shot(page, 'sent');
  const sends = graph.to('/messages').slice(sent);
  expect(sends.map((r) => r.json?.to).sort()).toEqual(people.map(([phone]) => phone).sort());
  expect(JSON.stringify(sends[0]?.json?.template)).toContain('BF10');

  // on_response: no conversation until the person replies; the reply opens it with the template first.
  const [phone] = people[0] ?? [''];
  const find = async () =>
    (
      await app.server.call<{ conversations: Conversation[] }>(
        'get-conversations-with-last-message',
        { filter: { text: phone.slice(-8) } },
        token,
      )
    ).conversations;
  expect(await find()).toHaveLength(0);
  await graph.notify(
    messagesNotification(
      { waba: WABA, phoneNumberId: '1029384756' },
      {
        contacts: [{ profile: { name: 'Clara Campos' }, wa_id: phone }],
        messages: [
          {
            from: phone,
            id: `wamid.REPLY${Date.now()}`,
            timestamp: String(Math.floor(Date.now() / 1000)),
            type: 'text',
            text: { body: 'Quero o cupom!' },
          },
        ],
      },
    ),
  );
  await expect.poll(async () => (await find()).length, { timeout: 30_000 }).toBe(1);
  const report = await app.server.call<{ replied: number }>(
    'get-campaign-report',
    { _id: (await officialCampaigns(token)).find((c) => c.name === name)?._id },
    token,
  );
  expect(report.replied).toBe(1);
  graph.statusWebhooks = false;
});
