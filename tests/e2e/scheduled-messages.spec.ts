// /agendamento and the shared scheduling dialog: the spec's validations, a message scheduled a few seconds
// ahead that reaches the simulator customer and turns to sent, editing (the stored 55 comes off), deleting,
// and the same dialog opened from a conversation's menu. Each test files its chip at the end.
import type { Locator, Page } from '@playwright/test';
import type { ScheduledMessage } from '@/shared/contract/scheduled-messages';
import { messages } from '@/shared/messages';
import { calm, connectedChip, shot, signedIn, tokenOf } from './app';
import { type AppServer, expect, test } from './fixtures';

test.use({ seed: 'demo', ...calm });

const OWNER = 'dono@demo.com';
const project = () => test.info().project.name;
/** Numbers of this file and project only. */
const numberOf = (n: number) =>
  `119${project() === 'phone' ? '3' : '4'}${String(n).padStart(3, '0')}${4000 + n}`;

/** A connected simulator chip whose clean-up also files the messages it still has scheduled. */
async function scheduleChip(server: AppServer, token: string) {
  const chip = await connectedChip(server, token, 'Agenda');
  return {
    ...chip,
    async cleanUp() {
      const items = await server.call<ScheduledMessage[]>('get-scheduled-messages-by-user', {}, token);
      for (const item of items.filter((i) => i.chip === chip._id && i.status === 'scheduled'))
        await server.call('update-scheduled-message', { _id: item._id, filed: true }, token);
      await chip.file();
    },
  };
}

/**
 * Picks, in the dialog's pt-BR picker (as on /contatos), the day `days` from today at `time` (HH:mm), in
 * the page's time zone; answers the value the field then shows (dd/mm/aaaa hh:mm).
 */
async function pickWhen(page: Page, dialog: Locator, days: number, time: string) {
  const { day, nextMonth } = await page.evaluate((n) => {
    const now = new Date();
    const d = new Date(now);
    d.setDate(d.getDate() + n);
    const p = (x: number) => String(x).padStart(2, '0');
    return {
      day: `${p(d.getDate())}/${p(d.getMonth() + 1)}/${d.getFullYear()}`,
      nextMonth: d.getMonth() !== now.getMonth(),
    };
  }, days);
  await dialog.getByLabel('Data e hora do agendamento').click();
  if (nextMonth) await page.getByRole('button', { name: messages.dateAriaLabels.nextMonth }).click();
  await page.getByRole('button', { name: day, exact: true }).click();
  const [hours = '', minutes = ''] = time.split(':');
  await page.getByLabel(messages.timeHours).fill(hours);
  await page.getByLabel(messages.timeMinutes).fill(minutes);
  await page.screenshot({ path: `/tmp/shots-config/schedule-picker-${project()}.png` });
  // The time row and the confirm button whole on the screen, a phone's too (issue 33 §28).
  await expect(page.getByLabel(messages.timeMinutes)).toBeInViewport({ ratio: 1 });
  await expect(page.getByRole('button', { name: messages.dateTimeConfirm })).toBeInViewport({ ratio: 1 });
  await page.getByRole('button', { name: messages.dateTimeConfirm }).click();
  const shown = `${day} ${time}`;
  await expect(dialog.getByLabel('Data e hora do agendamento')).toHaveText(shown);
  return shown;
}

async function pickChip(page: Page, dialog: ReturnType<Page['getByRole']>, name: string) {
  await dialog.getByRole('combobox', { name: 'Chip de envio' }).click();
  await page.getByRole('option', { name }).click();
}

test('a message scheduled a few seconds ahead reaches the customer and turns to sent', async ({
  page,
  browser,
  server,
}) => {
  const owner = await tokenOf(server, OWNER);
  const chip = await scheduleChip(server, owner);
  const number = numberOf(1);
  const phoneContext = await browser.newContext({
    viewport: { width: 360, height: 640 },
    ...calm.contextOptions,
  });
  try {
    // The customer's phone is open at the simulator.
    const phone = await phoneContext.newPage();
    await phone.goto(`/simulador/${chip.simulator}`);
    await phone.getByLabel('DDD e número').fill(number);
    await phone.getByLabel('Nome').fill('Cliente Agenda');
    await phone.getByRole('button', { name: 'Abrir conversa' }).click();

    await signedIn(page, server, OWNER);
    await page.goto('/agendamento');
    await expect(page.getByRole('heading', { name: 'Agendamento', level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'Agendar mensagem' }).click();
    const dialog = page.getByRole('dialog', { name: messages.scheduleMessage });
    await expect(dialog).toBeVisible();
    const submit = dialog.getByRole('button', { name: 'Agendar' });

    // The spec's checks, in order, each on its field.
    await submit.click();
    await expect(dialog.getByText(messages.scheduleChipRequired)).toBeVisible();
    await pickChip(page, dialog, chip.name);
    await submit.click();
    await expect(dialog.getByText(messages.scheduleToRequired)).toBeVisible();
    await dialog.getByLabel('Número de destino').fill('11 9999');
    await submit.click();
    await expect(dialog.getByText(messages.scheduleDateRequired)).toBeVisible();
    const when = await pickWhen(page, dialog, 1, '10:00');
    await submit.click();
    await expect(dialog.getByText('Número de telefone inválido.')).toBeVisible();
    await dialog.getByLabel('Número de destino').fill(number);
    await dialog.getByLabel('Código do país').fill('+55');
    await submit.click();
    await expect(dialog.getByText(messages.scheduleCountryCodeInvalid)).toBeVisible();
    await dialog.getByLabel('Código do país').fill('55');
    await submit.click();
    await expect(dialog.getByText(messages.scheduleTextRequired)).toBeVisible();
    await dialog.getByRole('radiogroup', { name: 'Tipo de envio' }).getByText('Fluxo').click();
    await submit.click();
    await expect(dialog.getByText(messages.scheduleFlowRequired)).toBeVisible();
    await dialog.getByRole('radiogroup', { name: 'Tipo de envio' }).getByText('Texto').click();
    await dialog.getByLabel('Mensagem').fill('Seu pedido saiu para entrega hoje!');
    await shot(page, 'schedule-dialog');
    await page.screenshot({ path: `/tmp/shots-config/schedule-dialog-${project()}.png` });
    await submit.click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(messages.scheduleSaved)).toBeVisible();
    const table = page.getByRole('table', { name: 'Mensagens agendadas' });
    const row = table.getByRole('row').filter({ hasText: 'Seu pedido saiu' });
    await expect(row).toContainText('Agendada');
    await expect(row).toContainText(when);
    await expect(row.getByRole('button', { name: 'Editar' })).toBeVisible();
    await shot(page, 'schedule-list');

    // The picker goes by the minute: the test brings the send to a few seconds ahead through the API.
    const saved = (await server.call<ScheduledMessage[]>('get-scheduled-messages-by-user', {}, owner)).find(
      (i) => i.message === 'Seu pedido saiu para entrega hoje!',
    ) as ScheduledMessage;
    await server.call(
      'update-scheduled-message',
      {
        _id: saved._id,
        chip: saved.chip,
        country_code: '55',
        to: number,
        type: 'text',
        message: saved.message,
        scheduledTo: new Date(Date.now() + 6000).toISOString(),
      },
      owner,
    );

    // It arrives at the customer's phone, and the list turns it to sent, without edit or delete.
    const onPhone = phone.getByRole('list', { name: 'Mensagens' }).getByRole('listitem');
    await expect(onPhone.filter({ hasText: 'Seu pedido saiu para entrega hoje!' })).toBeVisible({
      timeout: 20_000,
    });
    await expect(row).toContainText('Enviada', { timeout: 15_000 });
    await expect(row.getByRole('button', { name: 'Editar' })).toHaveCount(0);
    await expect(row.getByRole('button', { name: 'Apagar' })).toHaveCount(0);
    await shot(page, 'schedule-sent');
    await shot(phone, 'schedule-customer');
  } finally {
    await phoneContext.close();
    await chip.cleanUp();
  }
});

test('the table cuts long messages, editing strips the stored 55, and delete asks first', async ({
  page,
  server,
}) => {
  const owner = await tokenOf(server, OWNER);
  const chip = await scheduleChip(server, owner);
  try {
    const long = `${'Mensagem longa '.repeat(6)}fim`;
    expect(long.length).toBeGreaterThan(80);
    const number = numberOf(2);
    await server.call(
      'create-scheduled-message',
      {
        chip: chip._id,
        country_code: '55',
        to: number,
        message: long,
        scheduledTo: new Date(Date.now() + 86_400_000).toISOString(),
      },
      owner,
    );
    await signedIn(page, server, OWNER);
    await page.goto('/agendamento');
    const item = page.getByRole('row').filter({ hasText: long.slice(0, 40) });
    await expect(item).toContainText(`${long.slice(0, 79)}…`);
    await expect(item).not.toContainText(long);

    await item.getByRole('button', { name: 'Editar' }).click();
    const dialog = page.getByRole('dialog', { name: 'Editar agendamento' });
    await expect(dialog.getByLabel('Código do país')).toHaveValue('55');
    await expect(dialog.getByLabel('Número de destino')).toHaveValue(number);
    await dialog.getByLabel('Mensagem').fill('Mensagem curta');
    await dialog.getByRole('button', { name: 'Agendar' }).click();
    await expect(dialog).toBeHidden();
    const edited = page.getByRole('row').filter({ hasText: 'Mensagem curta' });
    await expect(edited).toBeVisible();

    await edited.getByRole('button', { name: 'Apagar' }).click();
    const confirm = page.getByRole('dialog', { name: 'Apagar agendamento' });
    await confirm.getByRole('button', { name: 'Confirmar' }).click();
    await expect(page.getByText(messages.scheduleDeleted)).toBeVisible();
    await expect(edited).toHaveCount(0);
  } finally {
    await chip.cleanUp();
  }
});

test('Agendar mensagem in a conversation opens the same dialog with its chip and number', {
  tag: '@phone',
}, async ({ page, server }) => {
  const owner = await tokenOf(server, OWNER);
  const chip = await scheduleChip(server, owner);
  try {
    const number = numberOf(3);
    const { conversation } = await chip.customer(number, 'Cliente Menu', 'Oi');
    await signedIn(page, server, OWNER);
    await page.goto(`/atendimento?c=${conversation._id}`);
    const pane = page.getByRole('region', { name: 'Cliente Menu' });
    await pane.getByRole('button', { name: messages.paneMenu }).click();
    await page.getByRole('menuitem', { name: messages.scheduleMessage }).click();
    const dialog = page.getByRole('dialog', { name: messages.scheduleMessage });
    await expect(dialog.getByRole('combobox', { name: 'Chip de envio' })).toHaveValue(chip.name);
    await expect(dialog.getByLabel('Código do país')).toHaveValue('55');
    await expect(dialog.getByLabel('Número de destino')).toHaveValue(number);
    await pickWhen(page, dialog, 2, '09:30');
    await dialog.getByLabel('Mensagem').fill('Lembrete pelo menu');
    await shot(page, 'schedule-from-menu');
    await dialog.getByRole('button', { name: 'Agendar' }).click();
    await expect(dialog).toBeHidden();
    const items = await server.call<ScheduledMessage[]>('get-scheduled-messages-by-user', {}, owner);
    expect(items.find((i) => i.message === 'Lembrete pelo menu')).toMatchObject({
      to: `55${number}`,
      chip: chip._id,
    });
  } finally {
    await chip.cleanUp();
  }
});

// Issue 34 item 7 (spec 2 §8): the chip list failing to load says so in the scheduling dialog.
test('a chip list that fails to load says so in the dialog', async ({ page, server }) => {
  await page.route('**/api/get-chip-numbers-by-user', (route) =>
    route.fulfill({ status: 200, json: { error: true, message: 'Falha ao listar.' } }),
  );
  await signedIn(page, server, OWNER);
  await page.goto('/agendamento');
  await page.getByRole('button', { name: 'Agendar mensagem' }).click();
  const dialog = page.getByRole('dialog', { name: messages.scheduleMessage });
  await expect(dialog.getByText(messages.chipsLoadFailed)).toBeVisible();
});
