// The channel end to end, as people do it: a manager creates a simulator chip on Meus chips and connects
// it; the QR code on the screen is read (decoded from its pixels) and its link opened on another device
// (a second browser context), which connects the chip; a customer writes from that simulated phone and the
// message reaches the server, seen through the team's socket and the API.
import jsQR from 'jsqr';
import { io } from 'socket.io-client';
import type { Conversation, Message } from '@/shared/contract/conversations';
import type { ReceiveMessage } from '@/shared/contract/events';
import { chipMessages } from '@/shared/messages-chips';
import { calm } from './app';
import { expect, test } from './fixtures';

test.use({ seed: 'demo', ...calm });

test('a manager connects a simulator chip by its QR code; a customer message reaches the server', async ({
  page,
  browser,
  signIn,
  server,
}) => {
  const token = await signIn(page, 'gerente@demo.com');
  const name = `Loja Simulada ${test.info().project.name}`;
  await page.goto('/chips');
  await expect(page.getByRole('heading', { level: 1, name: 'Meus chips' })).toBeVisible();

  // Create it through the dialog.
  await page.getByRole('button', { name: 'Novo chip' }).click();
  const dialog = page.getByRole('dialog', { name: 'Novo chip' });
  await dialog.getByLabel('Nome').fill(name);
  await dialog.getByRole('combobox', { name: 'Tipo do primeiro atendimento' }).click();
  await page.getByRole('option', { name: 'Atendimento humano', exact: true }).click();
  await dialog.getByRole('combobox', { name: 'Departamento de entrada' }).click();
  await page.getByRole('option', { name: 'Suporte', exact: true }).click();
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByRole('alert').filter({ hasText: chipMessages.chipCreated })).toBeVisible();
  await expect(dialog).toBeHidden();

  const rows = page.getByRole('table', { name: 'Chips' }).getByRole('row');
  const row = rows.filter({ hasText: name });
  await expect(row).toContainText('Desconectado');
  const chips = await server.call<{ _id: string; name: string }[]>('get-chip-numbers-by-user', {}, token);
  const chipId = chips.find((c) => c.name === name)?._id as string;

  try {
    // Connect: the QR code shows; read it from the canvas as a phone camera would.
    await row.getByRole('button', { name: 'Conectar', exact: true }).click();
    const qrDialog = page.getByRole('dialog', { name: 'Conectar número' });
    const canvas = qrDialog.getByRole('img', { name: 'QR code de conexão' });
    await expect(canvas).toBeVisible();
    const pixels = await canvas.evaluate((el) => {
      const c = el as HTMLCanvasElement;
      const data = c.getContext('2d')?.getImageData(0, 0, c.width, c.height).data ?? new Uint8ClampedArray();
      return { width: c.width, height: c.height, data: Array.from(data) };
    });
    const code = jsQR(new Uint8ClampedArray(pixels.data), pixels.width, pixels.height);
    expect(code, 'the QR code decodes').not.toBeNull();
    const link = new URL(code?.data ?? '');
    expect(link.pathname).toMatch(/^\/simulador\/[A-Za-z0-9_-]{43}$/);
    expect(link.searchParams.get('pair')).toBeTruthy();

    // The team listens, as the service screen will.
    const team = io(server.url, { path: '/sock/', auth: { token }, transports: ['websocket'] });
    const arrived = new Promise<Conversation>((resolve) =>
      team.on('receive-message', (e: ReceiveMessage) => {
        if (e.type === 'new_conversation') resolve(e.message);
      }),
    );
    await new Promise<void>((resolve) => team.once('connect', () => resolve()));

    // Another device opens the link: the chip connects, the dialog closes, the row says Conectado.
    const phoneContext = await browser.newContext({
      viewport: { width: 360, height: 640 },
      ...calm.contextOptions,
    });
    try {
      const phone = await phoneContext.newPage();
      await phone.goto(link.toString());
      await expect(qrDialog).toBeHidden();
      await expect(row).toContainText('Conectado');
      await expect(
        page
          .getByRole('group', { name: 'Chips' })
          .getByRole('button', { name: `${name}: conectado`, exact: true }),
      ).toBeVisible();

      // The customer introduces themself and writes.
      await expect(phone.getByRole('heading', { name: 'Quem é você?' })).toBeVisible();
      await phone.getByLabel('DDD e número').fill('11 98765-1234');
      await phone.getByLabel('Nome').fill('Carla Cliente');
      await phone.getByRole('button', { name: 'Abrir conversa' }).click();
      const box = phone.getByLabel('Mensagem');
      await box.fill('Boa tarde! Vocês entregam no sábado?');
      await phone.getByRole('button', { name: 'Enviar' }).click();

      const conversation = await arrived;
      expect(conversation).toMatchObject({
        chip: chipId,
        is_manual: true,
        waiting_response: true,
        contact: { phone: '5511987651234', name: 'Carla Cliente' },
      });
      const stored = await server.call<Message[]>(
        'get-messages-by-conversation',
        { conversation_id: conversation._id },
        token,
      );
      expect(stored.map((m) => [m.origin, m.message])).toEqual([
        ['customer', 'Boa tarde! Vocês entregam no sábado?'],
      ]);

      // And the answer travels back to the phone.
      await server.call(
        'send-conversation-message',
        {
          conversation_id: conversation._id,
          message_id: `e2e-answer-${Date.now()}`,
          text: 'Entregamos sim!',
        },
        token,
      );
      await expect(
        phone
          .getByRole('list', { name: 'Mensagens' })
          .getByRole('listitem')
          .filter({ hasText: 'Entregamos sim!' }),
      ).toBeVisible();
    } finally {
      team.close();
      await phoneContext.close();
    }
  } finally {
    await server.call('create-or-update-chip', { _id: chipId, filed: true }, token);
  }
});
