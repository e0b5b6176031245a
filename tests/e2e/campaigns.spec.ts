// The campaigns screen (/campanhas, issue 18; spec 3 §2.10, §4, §5 Campaign, §9) as a manager uses it: a
// simulator chip connected and an audience imported through the API, a campaign made in the dialog (every
// validation message first), followed live while it sends (the progress moves), the customer's phone gets
// the message with {nome} resolved, the report and its export; a scheduled campaign edited and cancelled; a
// duplicate saved and deleted; a sending campaign paused by its chip's disconnection, then cancelled; an
// attendant refused and a plan without campaigns noticed. A server of its own per worker, its campaign
// intervals shortened (CAMPAIGN_INTERVAL_SCALE, tests only): 60 s takes 6 s.
import { mkdir, readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { messages } from '@/shared/messages';
import { campaignMessages as M } from '@/shared/messages-campaigns';
import { makeXlsx, readXlsx } from '../xlsx';
import {
  calm,
  connectedChip,
  DEMO_PASSWORD,
  digitsOf,
  isPhone,
  mainMenu,
  newCustomer,
  phoneOf,
  type TestChip,
  tokenOf,
} from './app';
import { type AppServer, expect, startServer, test } from './fixtures';

test.use(calm);

const MANAGER = 'gerente@demo.com';
let app: { server: AppServer; stop(): Promise<void> };

test.beforeAll(async () => {
  await mkdir('test-results/screens', { recursive: true });
  app = await startServer({ seed: 'demo', env: { CAMPAIGN_INTERVAL_SCALE: '0.1' } });
});
test.afterAll(async () => {
  await app?.stop();
});

const project = () => test.info().project.name;
const unique = () => `${project()} ${Date.now().toString(36)}`;
const shot = (page: Page, name: string) =>
  page.screenshot({ path: `test-results/screens/campaigns-${name}-${project()}.png`, fullPage: true });

async function signedInAs(page: Page, email: string) {
  const { token } = await app.server.call<{ token: string }>('auth', { email, password: DEMO_PASSWORD });
  await page.goto(`${app.server.url}/login`);
  await page.evaluate((t) => localStorage.setItem('token', t), token);
  return token;
}

async function openCampaigns(page: Page) {
  await page.goto(`${app.server.url}/atendimento`);
  const menu = await mainMenu(page);
  await menu.getByRole('link', { name: 'Campanhas', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Campanhas' })).toBeVisible();
}

/** An audience imported as the audiences screen does it: an xlsx upload (telefone, nome). */
async function importAudience(token: string, name: string, people: [string, string][]) {
  const form = new FormData();
  const sheet = await makeXlsx([['telefone', 'nome'], ...people]);
  form.append('file', new Blob([new Uint8Array(sheet)]), 'publico.xlsx');
  form.append('name', name);
  form.append('create_contacts', 'true');
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
    ? page.getByRole('list', { name: 'Campanhas' }).getByRole('listitem')
    : page.getByRole('table', { name: 'Campanhas' }).getByRole('row');
const rowOf = (page: Page, name: string) => rows(page).filter({ hasText: name });
/** A row's action: an icon button (desktop) or a labelled button (phone), both named by the action. */
const rowAction = (page: Page, name: string, action: string) =>
  rowOf(page, name).getByRole('button', { name: action, exact: true });

async function pick(page: Page, dialog: Locator, field: string, option: string) {
  await dialog.getByRole('combobox', { name: field, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Picks tomorrow at `time` in the pt-BR picker; answers the value the field shows (dd/mm/aaaa hh:mm). */
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
  const shown = `${day} ${time}`;
  await expect(dialog.getByLabel('Data e hora do envio')).toHaveText(shown);
  return shown;
}

/** A success toast is shown; then closed, so on a phone it does not cover what comes next. */
async function toastSeen(page: Page, text: string) {
  const toast = page.getByRole('alert').filter({ hasText: text });
  await expect(toast).toBeVisible();
  await toast
    .getByRole('button', { name: 'Fechar' })
    .click({ timeout: 2000 })
    .catch(() => undefined);
}

/** A segment of a segmented control, clicked as a person does (its radio is hidden under the label). */
const choose = (dialog: Locator, option: string) =>
  dialog
    .locator('label')
    .filter({ hasText: new RegExp(`^${option}$`) })
    .click();
const save = (dialog: Locator) => dialog.getByRole('button', { name: 'Salvar' }).click();
/** The message a field shows (Mantine links it to the field as its description of the error). */
const fieldError = (dialog: Locator, text: string) => dialog.getByText(text, { exact: true });

test('create with every validation, follow live, the customer gets {nome}; report, export; edit, cancel, duplicate, pause', {
  tag: '@phone',
}, async ({ page, browser }) => {
  test.setTimeout(120_000);
  const token = await signedInAs(page, MANAGER);
  const chip: TestChip = await connectedChip(app.server, token, 'Campanhas');
  const name = `Promoção ${unique()}`;
  let scheduledName = `Lançamento ${unique()}`;
  const audienceName = `Clientes VIP ${unique()}`;
  const clara = phoneOf(9, 1);
  const audience = await importAudience(token, audienceName, [
    [digitsOf(clara), 'Clara Campos'],
    [digitsOf(phoneOf(9, 2)), 'Bruno Lima'],
    [digitsOf(phoneOf(9, 3)), 'Dora Reis'],
  ]);
  const made: string[] = [];
  // The customer's phone, at the simulator's page: who the campaign writes to.
  const phoneContext = await browser.newContext({
    viewport: { width: 360, height: 640 },
    ...calm.contextOptions,
  });
  const customer = await phoneContext.newPage();
  try {
    await customer.goto(`${app.server.url}/simulador/${chip.simulator}`);
    await customer.getByLabel('DDD e número').fill(clara);
    await customer.getByLabel('Nome').fill('Clara Campos');
    await customer.getByRole('button', { name: 'Abrir conversa' }).click();
    await expect(customer.getByRole('list', { name: 'Mensagens' })).toBeVisible();

    await openCampaigns(page);
    await page.getByRole('button', { name: 'Saiba mais' }).click();
    const help = page.getByRole('dialog', { name: 'Campanhas' });
    await expect(help).toContainText('uma pessoa a cada intervalo');
    await page.keyboard.press('Escape');
    await expect(help).toBeHidden();
    await page.getByRole('button', { name: 'Nova campanha' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nova campanha' });
    await expect(dialog.getByText(M.campaignBanWarning)).toBeVisible();
    await expect(dialog.getByText(/uma destas versões, sorteada/)).toBeVisible();

    // Every message of spec 3 §5 Campaign, each on its field: all the missing ones at once, the first focused.
    await save(dialog);
    for (const missing of [
      M.campaignNameRequired,
      messages.scheduleChipRequired,
      M.campaignAudienceRequired,
      M.campaignVersionsBlank,
    ])
      await expect(fieldError(dialog, missing)).toBeVisible();
    await expect(dialog.getByLabel('Nome da campanha')).toBeFocused();
    await shot(page, 'dialog-error');
    await dialog.getByLabel('Nome da campanha').fill(name);
    await expect(fieldError(dialog, M.campaignNameRequired)).toHaveCount(0);
    await pick(page, dialog, 'Chip de envio', chip.name);
    await choose(dialog, 'Agendado');
    await save(dialog);
    await expect(fieldError(dialog, M.campaignScheduleRequired)).toBeVisible();
    await choose(dialog, 'Imediato');
    await save(dialog);
    await expect(fieldError(dialog, M.campaignAudienceRequired)).toBeVisible();
    await choose(dialog, 'Tags');
    await save(dialog);
    await expect(fieldError(dialog, M.campaignTagsRequired)).toBeVisible();
    await choose(dialog, 'Audiência');
    await pick(page, dialog, 'Audiência', audienceName);
    await expect(dialog.getByText('3 pessoas')).toBeVisible();
    await save(dialog);
    await expect(fieldError(dialog, M.campaignVersionsBlank)).toBeVisible();
    await choose(dialog, 'Fluxo');
    await save(dialog);
    await expect(fieldError(dialog, M.campaignFlowRequired)).toBeVisible();
    await choose(dialog, 'Texto');

    // Two versions, each with the audience's {nome} put in at the cursor; the first cannot be removed.
    const first = dialog.getByRole('textbox', { name: 'Versão 1', exact: true });
    await first.fill('Oi ! Chegou a promoção.');
    await first.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(3, 3));
    await dialog.getByRole('button', { name: 'Inserir {nome}' }).click();
    await expect(first).toHaveValue('Oi {nome}! Chegou a promoção.');
    await dialog.getByRole('button', { name: 'Adicionar versão' }).click();
    await expect(dialog.getByRole('button', { name: 'Remover versão 1' })).toHaveCount(0);
    await save(dialog);
    await expect(fieldError(dialog, M.campaignVersionsBlank)).toBeVisible();
    const second = dialog.getByRole('textbox', { name: 'Versão 2', exact: true });
    await second.fill('Olá , a promoção chegou.');
    await second.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(4, 4));
    await dialog.getByRole('button', { name: 'Inserir {nome}' }).click();
    await expect(second).toHaveValue('Olá {nome}, a promoção chegou.');
    await pick(page, dialog, 'Intervalo entre envios', '60 segundos');
    await shot(page, 'dialog');
    await save(dialog);
    await toastSeen(page, M.campaignSaved);
    await expect(dialog).toBeHidden();
    made.push(name);
    await expect(rowOf(page, name).getByText('Iniciada', { exact: true })).toBeVisible();
    await shot(page, 'started');

    // While it sends, the sent count is the follow dialog: the progress moves live.
    const row = rowOf(page, name);
    await expect(row.getByText('Imediato', { exact: true })).toBeVisible();
    await expect(row.getByText(audienceName)).toBeVisible();
    await row.getByRole('button', { name: 'Acompanhar' }).click();
    const follow = page.getByRole('dialog', { name: `Acompanhar: ${name}` });
    const bar = follow.getByRole('progressbar', { name: 'Progresso do envio' });
    await expect(bar).toBeVisible();
    const seen = new Set<string>();
    await expect
      .poll(
        async () => {
          const now = (await bar.getAttribute('aria-valuenow')) ?? '';
          // Halfway: the next send and the estimated finish show.
          if (!seen.has(now) && Number(now) > 0 && Number(now) < 100) await shot(page, 'follow-live');
          seen.add(now);
          return seen.has('100') && seen.size >= 2;
        },
        { timeout: 60_000, intervals: [200] },
      )
      .toBe(true)
      .catch(async (e) => {
        await shot(page, 'follow-failed');
        throw new Error(`progress seen: ${[...seen].join(' | ')}; ${e}`);
      });
    await expect(follow.getByText('3 de 3')).toBeVisible();
    await shot(page, 'follow');
    await expect(follow.getByRole('group', { name: 'Restantes' })).toContainText('0');
    await page.keyboard.press('Escape');
    await expect(follow).toBeHidden();

    // The customer's phone: one of the versions, with {nome} resolved.
    const bubble = customer
      .getByRole('list', { name: 'Mensagens' })
      .getByRole('listitem')
      .filter({ hasText: /(Oi Clara Campos! Chegou a promoção\.|Olá Clara Campos, a promoção chegou\.)/ });
    await expect(bubble).toHaveCount(1, { timeout: 15_000 });
    await customer.screenshot({ path: `test-results/screens/campaigns-customer-${project()}.png` });

    await expect(rowOf(page, name).getByText('Concluída', { exact: true })).toBeVisible({ timeout: 15_000 });
    await expect(rowOf(page, name).getByText('3', { exact: true }).first()).toBeVisible();

    // The report, and its spreadsheet.
    await rowAction(page, name, 'Relatório').click();
    const report = page.getByRole('dialog', { name: `Relatório: ${name}` });
    await expect(report.getByRole('group', { name: 'Alcance estimado' })).toContainText('3');
    await shot(page, 'report');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      report.getByRole('button', { name: 'Exportar' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^Campanha_.*\.xlsx$/);
    const sheet = await readXlsx(await readFile(await download.path()));
    expect(sheet).toHaveLength(4);
    expect(sheet.some((r) => r.includes(digitsOf(clara)))).toBe(true);
    await page.keyboard.press('Escape');
    await expect(report).toBeHidden();

    // A campaign scheduled for tomorrow, then cancelled.
    await page.getByRole('button', { name: 'Nova campanha' }).click();
    const second2 = page.getByRole('dialog', { name: 'Nova campanha' });
    await second2.getByLabel('Nome da campanha').fill(scheduledName);
    await pick(page, second2, 'Chip de envio', chip.name);
    await pick(page, second2, 'Audiência', audienceName);
    await second2
      .getByRole('textbox', { name: 'Versão 1', exact: true })
      .fill('Amanhã tem novidade, {nome}.');
    await choose(second2, 'Agendado');
    // 'Agendado' without a date, all else filled: its field is brought into view and focused (it used to
    // scroll to the ban warning at the top, the message left below the fold).
    await save(second2);
    await expect(fieldError(second2, M.campaignScheduleRequired)).toBeInViewport();
    await expect(second2.getByLabel('Data e hora do envio')).toBeFocused();
    await shot(page, 'dialog-schedule-error');
    const when = await pickTomorrow(page, second2, '10:30');
    await save(second2);
    await toastSeen(page, M.campaignSaved);
    made.push(scheduledName);
    await expect(rowOf(page, scheduledName).getByText(when)).toBeVisible();
    await expect(rowOf(page, scheduledName).getByText('Agendada', { exact: true })).toBeVisible();
    await shot(page, 'list');
    // A scheduled campaign is edited: its fields come back as saved.
    await rowAction(page, scheduledName, 'Editar').click();
    const edit = page.getByRole('dialog', { name: 'Editar campanha' });
    await expect(edit.getByLabel('Data e hora do envio')).toHaveText(when);
    await expect(edit.getByRole('textbox', { name: 'Versão 1', exact: true })).toHaveValue(
      'Amanhã tem novidade, {nome}.',
    );
    scheduledName = `${scheduledName} editada`;
    await edit.getByLabel('Nome da campanha').fill(scheduledName);
    await save(edit);
    await toastSeen(page, M.campaignUpdated);
    made.push(scheduledName);
    await expect(rowOf(page, scheduledName).getByText('Agendada', { exact: true })).toBeVisible();
    await rowAction(page, scheduledName, 'Cancelar campanha').click();
    const ask = page.getByRole('dialog', { name: 'Cancelar campanha' });
    await expect(ask).toContainText(scheduledName);
    // The buttons say what they do: 'Voltar' keeps the campaign ('Cancelar' read as cancelling it).
    await expect(ask.getByRole('button')).toContainText(['Voltar', 'Cancelar campanha']);
    await ask.getByRole('button', { name: 'Cancelar campanha' }).click();
    await toastSeen(page, M.campaignCanceled);
    await expect(rowOf(page, scheduledName).getByText('Cancelada', { exact: true })).toBeVisible();
    await expect(rowAction(page, scheduledName, 'Cancelar campanha')).toHaveCount(0);
    await expect(rowAction(page, scheduledName, 'Editar')).toHaveCount(0);

    // Duplicar: the same content under a new name, no schedule; saved for later, then deleted.
    await rowAction(page, name, 'Duplicar').click();
    const copy = page.getByRole('dialog', { name: 'Nova campanha' });
    await expect(copy.getByLabel('Nome da campanha')).toHaveValue(`Cópia de ${name}`);
    await expect(copy.getByRole('textbox', { name: 'Versão 2', exact: true })).toHaveValue(
      'Olá {nome}, a promoção chegou.',
    );
    await expect(copy.getByRole('radio', { name: 'Imediato' })).toBeChecked();
    await choose(copy, 'Agendado');
    await pickTomorrow(page, copy, '11:00');
    await save(copy);
    await toastSeen(page, M.campaignSaved);
    const copyName = `Cópia de ${name}`;
    made.push(copyName);
    await expect(rowOf(page, copyName).getByText('Agendada', { exact: true })).toBeVisible();
    await expect(rowOf(page, copyName).getByText('0', { exact: true }).first()).toBeVisible();
    await rowAction(page, copyName, 'Apagar').click();
    await page
      .getByRole('dialog', { name: 'Apagar campanha' })
      .getByRole('button', { name: 'Confirmar' })
      .click();
    await toastSeen(page, M.campaignDeleted);
    await expect(rowOf(page, copyName)).toHaveCount(0);

    // A campaign sending when its chip disconnects: the follow dialog says it is paused; it is cancelled.
    const slowName = `Lenta ${unique()}`;
    await app.server.call(
      'create-campaign',
      {
        name: slowName,
        chip: chip._id,
        audience_type: 'audience',
        audience: audience._id,
        message_type: 'text',
        message: ['Última chamada, {nome}!'],
        interval: 240,
        scheduledTo: null,
      },
      token,
    );
    made.push(slowName);
    // Made elsewhere (the API): the screen shows it when opened again.
    await page.reload();
    await rowOf(page, slowName).getByRole('button', { name: 'Acompanhar' }).click();
    const slow = page.getByRole('dialog', { name: `Acompanhar: ${slowName}` });
    // The chip keeps one pace (the slowest interval of its running campaigns): this one's first send waits
    // its 240 s (24 s here) after the chip's last campaign send.
    await expect(slow.getByRole('group', { name: 'Enviadas' })).toContainText('1', { timeout: 40_000 });
    await app.server.call('connect-chip', { _id: chip._id, connect: false }, token);
    await expect(slow.getByText(M.campaignChipPaused)).toBeVisible();
    await shot(page, 'follow-paused');
    await page.keyboard.press('Escape');
    await rowAction(page, slowName, 'Cancelar campanha').click();
    await page
      .getByRole('dialog', { name: 'Cancelar campanha' })
      .getByRole('button', { name: 'Cancelar campanha' })
      .click();
    await toastSeen(page, M.campaignCanceled);
    await expect(rowOf(page, slowName).getByText('Cancelada', { exact: true })).toBeVisible();
    // Its report calls the two never sent 'Não enviadas', not 'Aguardando'.
    await rowAction(page, slowName, 'Relatório').click();
    const slowReport = page.getByRole('dialog', { name: `Relatório: ${slowName}` });
    await expect(slowReport.getByRole('group', { name: 'Não enviadas' })).toContainText('2');
    await expect(slowReport.getByRole('group', { name: 'Aguardando' })).toHaveCount(0);
    await shot(page, 'report-canceled');
  } finally {
    await phoneContext.close();
    // File what this test made.
    const list = await app.server
      .call<{ _id: string; name: string }[]>('get-campaigns-by-user', {}, token)
      .catch(() => []);
    for (const c of list.filter((c) => made.includes(c.name)))
      await app.server.call('update-campaign', { _id: c._id, filed: true }, token).catch(() => undefined);
    await app.server.call('create-or-update-audience', { _id: audience._id, filed: true }, token);
    await chip.file();
  }
});

test("an attendant opening /campanhas gets 'Permissões insuficientes.'; a plan without campaigns, the notice", async ({
  page,
}) => {
  await signedInAs(page, 'atendente@demo.com');
  await page.goto(`${app.server.url}/campanhas`);
  await expect(page.getByRole('alert').filter({ hasText: messages.insufficientPermissions })).toBeVisible();
  await expect(page).toHaveURL(/\/atendimento$/);
  const menu = await mainMenu(page);
  await expect(menu.getByRole('link', { name: 'Campanhas', exact: true })).toHaveCount(0);

  const { email, password } = await newCustomer(app.server, 'campanhas-plano');
  const token = await tokenOf(app.server, email, password);
  await page.evaluate((t) => localStorage.setItem('token', t), token);
  await page.goto(`${app.server.url}/campanhas`);
  await expect(page.getByRole('heading', { level: 1, name: 'Campanhas' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: M.campaignsNotInPlan })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Nova campanha' })).toHaveCount(0);
  await shot(page, 'plan-gate');
});
