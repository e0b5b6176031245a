// Meus chips with a Baileys chip (a real WhatsApp number by QR code), as a manager sees it. WhatsApp cannot be
// reached from here: the server runs with BAILEYS_FAKE=1, which puts the fake socket of tests/fakes in
// Baileys' place (a QR code, "scanned" BAILEYS_FAKE_SCAN_MS later). The screens are the real ones.
import { mkdir } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { baileysMessages } from '@/shared/messages-baileys';
import { chipLabels, chipMessages } from '@/shared/messages-chips';
import { calm, createChip, DEMO_PASSWORD, isPhone } from './app';
import { type AppServer, expect, startServer, test } from './fixtures';

test.use(calm);

let app: { server: AppServer; stop(): Promise<void> };
test.beforeAll(async () => {
  app = await startServer({
    seed: 'demo',
    env: { BAILEYS_FAKE: '1', BAILEYS_FAKE_SCAN_MS: '8000', CHANNEL_QR_PROVIDER: 'baileys' },
  });
});
test.afterAll(async () => {
  await app?.stop();
});

const project = () => test.info().project.name;
const SHOTS = 'tests/screenshots';
async function look(page: Page, name: string) {
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/baileys-${name}-${project()}.png` });
}

const rows = (page: Page) =>
  isPhone()
    ? page.getByRole('list', { name: 'Chips' }).getByRole('listitem')
    : page.getByRole('table', { name: 'Chips' }).getByRole('row');
const action = (row: Locator, name: string) => row.getByRole('button', { name, exact: true });

/** The manager's token, stored as the app stores it; answers the token. */
async function signedInAsManager(page: Page) {
  const { server } = app;
  const { token } = await server.call<{ token: string }>('auth', {
    email: 'gerente@demo.com',
    password: DEMO_PASSWORD,
  });
  await page.goto(`${server.url}/login`);
  await page.evaluate((t) => localStorage.setItem('token', t), token);
  return token;
}

test('a Baileys chip: Conectar shows WhatsApp’s QR code, the scan turns it Conectado live; disconnect and resume without a QR', async ({
  page,
}) => {
  const { server } = app;
  const token = await signedInAsManager(page);
  const name = `WhatsApp ${project()}`;
  const chip = await createChip(server, token, { name, department: 'Vendas' });
  try {
    const chips = await server.call<{ _id: string; provider: string }[]>(
      'get-chip-numbers-by-user',
      {},
      token,
    );
    expect(chips.find((c) => c._id === chip._id)?.provider).toBe('baileys');
    await page.goto(`${server.url}/chips`);
    const row = rows(page).filter({ hasText: name });
    await expect(row).toContainText('Desconectado');

    await action(row, 'Conectar').click();
    const dialog = page.getByRole('dialog', { name: 'Conectar número' });
    await expect(dialog.getByRole('img', { name: 'QR code de conexão' })).toBeVisible();
    await look(page, 'qr');
    // WhatsApp's instructions, and no simulator link.
    await expect(dialog).toContainText(chipMessages.whatsappQrInstructions);
    await expect(dialog.getByRole('link', { name: 'Abrir o simulador' })).toHaveCount(0);

    // The (fake) phone scans: the status arrives over the socket, the dialog closes, the row and top bar say so.
    await expect(dialog).toBeHidden({ timeout: 20_000 });
    await expect(row).toContainText('Conectado');
    await expect(
      page
        .getByRole('group', { name: 'Chips' })
        .getByRole('button', { name: `${name}: conectado`, exact: true }),
    ).toBeVisible();
    await look(page, 'connected');

    await action(row, 'Desconectar').click();
    const confirm = page.getByRole('dialog', { name: 'Desconectar' });
    await confirm.getByRole('button', { name: 'Confirmar' }).click();
    await expect(row).toContainText('Desconectado');
    // The session is in the database: Conectar resumes it, with no QR code to scan.
    await action(row, 'Conectar').click();
    await expect(row).toContainText('Conectado');
    await expect(dialog).toBeHidden();
  } finally {
    await server.call('create-or-update-chip', { _id: chip._id, filed: true }, token);
  }
});

test('a pairing code instead of the QR code; removed on the phone, the row says why', {
  tag: '@phone',
}, async ({ page }) => {
  const { server } = app;
  const token = await signedInAsManager(page);
  const name = `Pareado ${project()}`;
  const chip = await createChip(server, token, { name, department: 'Vendas' });
  try {
    await page.goto(`${server.url}/chips`);
    const row = rows(page).filter({ hasText: name });
    await action(row, 'Conectar').click();
    const dialog = page.getByRole('dialog', { name: 'Conectar número' });
    await expect(dialog.getByText(chipLabels.connectWithNumber)).toBeVisible();
    const phone = dialog.getByLabel(chipLabels.chipNumber);
    // A number WhatsApp cannot take: the server's message under the field.
    await phone.fill('12');
    await dialog.getByRole('button', { name: chipLabels.generateCode }).click();
    await expect(dialog.getByText(baileysMessages.pairingPhoneInvalid)).toBeVisible();
    // The fake phone ends in 0401: its owner removes the device on the phone once it is connected.
    await phone.fill('+55 11 98765-0401');
    await dialog.getByRole('button', { name: chipLabels.generateCode }).click();
    await expect(dialog.getByLabel(chipLabels.pairingCode)).toHaveText('FAKE-0401');
    await expect(dialog).toContainText(chipMessages.pairingInstructions);
    await look(page, 'pairing-code');

    // The code is typed on the phone: connected live, the dialog closes.
    await expect(dialog).toBeHidden({ timeout: 20_000 });
    await expect(row).toContainText('Conectado');
    // Removed on the phone: Desconectado, with WhatsApp's reason in pt-BR, live.
    await expect(row).toContainText('Desconectado', { timeout: 20_000 });
    await expect(row).toContainText(baileysMessages.loggedOut);
    await look(page, 'logged-out');
    // The session was cleared: Conectar asks for a new QR code.
    await action(row, 'Conectar').click();
    await expect(dialog.getByRole('img', { name: 'QR code de conexão' })).toBeVisible();
    await expect(row).not.toContainText(baileysMessages.loggedOut);
  } finally {
    await server.call('create-or-update-chip', { _id: chip._id, filed: true }, token);
  }
});
