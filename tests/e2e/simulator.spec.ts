// The simulator page (/simulador/<token>) as a person uses it: the QR code's link opened on a phone connects
// the chip; one plays a customer, writes, sends a picture and a location; the business's answers arrive and
// come back delivered and read. Set-up and checks on the business's side go through the HTTP API and a
// manager's socket, as the panel would see them. Every test makes a chip of its own and files it at the end.
import { mkdirSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import { io } from 'socket.io-client';
import type { Chip } from '@/shared/contract';
import type { Conversation, Message } from '@/shared/contract/conversations';
import type { ReceiveMessage } from '@/shared/contract/events';
import { messages } from '@/shared/messages';
import { calm, DEMO_PASSWORD, isPhone } from './app';
import { type AppServer, expect, test } from './fixtures';

test.use({ seed: 'demo', ...calm });

const project = () => test.info().project.name;
const SHOTS = '/tmp/shots';
mkdirSync(SHOTS, { recursive: true });
const shot = (page: Page, name: string) =>
  page.screenshot({ path: `${SHOTS}/simulator-${name}-${project()}.png` });

let seq = 0;
const localId = () => `e2e${Date.now().toString(36)}${(seq++).toString(36)}xx`;

/** A manager's view of the business: its token, and the conversation events its socket receives. */
async function business(server: AppServer) {
  const { token } = await server.call<{ token: string }>('auth', {
    email: 'gerente@demo.com',
    password: DEMO_PASSWORD,
  });
  const sock = io(server.url, { path: '/sock/', auth: { token }, transports: ['websocket'] });
  const events: ReceiveMessage[] = [];
  sock.on('receive-message', (e: ReceiveMessage) => events.push(e));
  await new Promise<void>((resolve, reject) => {
    sock.once('connect', resolve);
    sock.once('connect_error', reject);
  });
  return { token, events, close: () => sock.close() };
}
type Business = Awaited<ReturnType<typeof business>>;

/** A new simulator chip, connected: its QR code's link (with the pairing code) is ready to be opened. */
async function qrChip(server: AppServer, biz: Business, name: string) {
  const [department] = await server.call<{ _id: string }[]>('get-departments-by-user', {}, biz.token);
  const chip = await server.call<Chip>(
    'create-or-update-chip',
    { name, redirect: 'human', department: department?._id },
    biz.token,
  );
  const link = await readQrLink(server, biz, chip._id);
  return {
    chip,
    link,
    file: () => server.call('create-or-update-chip', { _id: chip._id, filed: true }, biz.token),
  };
}

async function readQrLink(server: AppServer, biz: Business, chipId: string) {
  await server.call('connect-chip', { _id: chipId, connect: true }, biz.token);
  let qrcode: string | null = null;
  await expect
    .poll(async () => {
      const chips = await server.call<Chip[]>('get-chip-numbers-by-user', {}, biz.token);
      qrcode = chips.find((c) => c._id === chipId)?.qrcode ?? null;
      return qrcode;
    })
    .toContain('/simulador/');
  const url = new URL(qrcode as unknown as string, server.url);
  expect(url.searchParams.get('pair')).toBeTruthy();
  return `${url.pathname}${url.search}`;
}

const chipStatus = async (server: AppServer, biz: Business, chipId: string) =>
  (await server.call<Chip[]>('get-chip-numbers-by-user', {}, biz.token)).find((c) => c._id === chipId)
    ?.status;

/** The conversation the customer's first message opened on this chip. */
async function conversationOf(biz: Business, chipId: string) {
  let found: Conversation | undefined;
  await expect
    .poll(() => {
      const e = biz.events.find((x) => x.type === 'new_conversation' && x.message.chip === chipId);
      found = e?.type === 'new_conversation' ? e.message : undefined;
      return Boolean(found);
    })
    .toBe(true);
  return found as Conversation;
}

const serverMessages = (server: AppServer, biz: Business, conversationId: string) =>
  server.call<Message[]>('get-messages-by-conversation', { conversation_id: conversationId }, biz.token);

async function statusOf(server: AppServer, biz: Business, conversationId: string, messageId: string) {
  const list = await serverMessages(server, biz, conversationId);
  return list.find((m) => m._id === messageId)?.status;
}

/** "Quem é você?": the customer this phone plays. */
async function chooseCustomer(page: Page, number: string, name: string) {
  await expect(page.getByRole('heading', { name: 'Quem é você?' })).toBeVisible();
  await expect(page.getByLabel('País')).toHaveValue('55');
  await page.getByLabel('DDD e número').fill(number);
  await page.getByLabel('Nome').fill(name);
  await page.getByRole('button', { name: 'Abrir conversa' }).click();
  await expect(page.getByRole('list', { name: 'Mensagens' })).toBeVisible();
}

const bubbles = (page: Page) => page.getByRole('list', { name: 'Mensagens' }).getByRole('listitem');
const bubble = (page: Page, text: string) => bubbles(page).filter({ hasText: text });

/** Types and sends as a person does: Enter on a desktop, the send button on a phone. */
async function write(page: Page, text: string) {
  const box = page.getByLabel('Mensagem');
  await box.fill(text);
  if (isPhone()) await page.getByRole('button', { name: 'Enviar' }).click();
  else await box.press('Enter');
  await expect(box).toHaveValue('');
}

async function attach(page: Page, item: string) {
  await page.getByRole('button', { name: 'Anexar' }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

type Rgb = [number, number, number];

/** A PNG made here: a diagonal gradient between two colours. */
function png(width: number, height: number, from: Rgb, to: Rgb) {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const pixel = (x: number, y: number) => {
    const t = (x / width + y / height) / 2;
    return from.map((c, i) => Math.round(c + ((to[i] as number) - c) * t));
  };
  const rows = Array.from({ length: height }, (_, y) =>
    Buffer.from([0, ...Array.from({ length: width }, (_, x) => pixel(x, y)).flat()]),
  );
  const pixels = Buffer.concat(rows);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

test('the QR link connects the chip; customer and business talk; delivered and read come back', {
  tag: '@phone',
}, async ({ page, server }) => {
  const biz = await business(server);
  const name = `Loja Simulada ${project()}`;
  const { chip, link, file } = await qrChip(server, biz, name);
  try {
    expect(await chipStatus(server, biz, chip._id)).not.toBe('open');
    await page.goto(link);
    // Opening the link "scanned" the QR code; the pairing code leaves the address.
    await expect(page.getByRole('heading', { name: 'Quem é você?' })).toBeVisible();
    await expect(page).not.toHaveURL(/pair=/);
    await expect.poll(() => chipStatus(server, biz, chip._id)).toBe('open');
    await shot(page, 'identity');

    await chooseCustomer(page, '11 98765-0001', 'Maria Cliente');
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page.getByText('online', { exact: true })).toBeVisible();
    await expect(page.getByText(messages.simulatorNoMessages)).toBeVisible();

    await write(page, 'Olá, quero um orçamento');
    await expect(bubble(page, 'Olá, quero um orçamento').getByRole('img', { name: 'Enviada' })).toBeVisible();
    const conversation = await conversationOf(biz, chip._id);
    expect(conversation.contact).toMatchObject({ phone: '5511987650001', name: 'Maria Cliente' });
    expect(conversation.last_message).toMatchObject({
      origin: 'customer',
      message: 'Olá, quero um orçamento',
    });

    // The business answers; the page is seen, so the answer is read within about a second.
    const first = await server.call<Message>(
      'send-conversation-message',
      { conversation_id: conversation._id, message_id: localId(), text: 'Olá Maria! Como posso ajudar?' },
      biz.token,
    );
    await expect(bubble(page, 'Olá Maria! Como posso ajudar?')).toBeVisible();
    await expect.poll(() => statusOf(server, biz, conversation._id, first._id)).toBe(4);
    await expect(bubble(page, 'Olá Maria!')).not.toContainText('Não lida');

    // Without automatic read receipts the answer stays delivered until the customer marks it read.
    await page.getByRole('switch', { name: 'Confirmação de leitura automática' }).click();
    await expect(page.getByRole('switch', { name: 'Confirmação de leitura automática' })).not.toBeChecked();
    const second = await server.call<Message>(
      'send-conversation-message',
      {
        conversation_id: conversation._id,
        message_id: localId(),
        text: 'Temos várias opções.\nQual produto você procura?',
      },
      biz.token,
    );
    await expect(bubble(page, 'Temos várias opções.')).toContainText('Não lida');
    await expect.poll(() => statusOf(server, biz, conversation._id, second._id)).toBe(3);
    await page.waitForTimeout(1500);
    expect(await statusOf(server, biz, conversation._id, second._id)).toBe(3);
    await write(page, 'Uma mesa de jantar');
    await shot(page, 'chat-unread');

    await page.getByRole('button', { name: 'Marcar como lidas (1)' }).click();
    await expect.poll(() => statusOf(server, biz, conversation._id, second._id)).toBe(4);
    await expect(page.getByRole('button', { name: /Marcar como lidas/ })).toBeHidden();
    await expect(bubble(page, 'Temos várias opções.')).not.toContainText('Não lida');

    // The business deletes its answer: the phone shows it deleted.
    await server.call('delete-conversation-message', { _id: second._id }, biz.token);
    await expect(bubble(page, messages.listDeletedMessage)).toBeVisible();
    await expect(bubble(page, 'Temos várias opções.')).toHaveCount(0);

    // A reload keeps the customer and shows the history, both sides.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page.getByText('Maria Cliente', { exact: true })).toBeVisible();
    await expect(
      bubbles(page).filter({ hasText: /Olá, quero um orçamento|Olá Maria!|Uma mesa de jantar/ }),
    ).toHaveCount(3);
    await expect(bubble(page, messages.listDeletedMessage)).toBeVisible();
    await shot(page, 'chat');

    // Another customer on the same phone: a new conversation of the chip.
    await page.getByRole('button', { name: 'Trocar cliente' }).click();
    await chooseCustomer(page, '21 99876-0002', 'João Cliente');
    await expect(page.getByText(messages.simulatorNoMessages)).toBeVisible();
    await write(page, 'Boa tarde');
    await expect
      .poll(() =>
        biz.events.some(
          (e) =>
            e.type === 'new_conversation' &&
            e.message.chip === chip._id &&
            e.message.contact.phone === '5521998760002',
        ),
      )
      .toBe(true);
  } finally {
    biz.close();
    await file();
  }
});

test('an image, a document, a location and a send retried after a failure each arrive once', {
  tag: '@phone',
}, async ({ page, context, server }) => {
  const biz = await business(server);
  const { chip, link, file } = await qrChip(server, biz, `Loja Mídia ${project()}`);
  try {
    await page.goto(link);
    await chooseCustomer(page, '11 98765-0003', 'Ana Cliente');

    // An image: picked from the attach menu, shown at once, uploaded, then sent.
    const chooser = page.waitForEvent('filechooser');
    await attach(page, 'Imagem');
    await (await chooser).setFiles({
      name: 'foto.png',
      mimeType: 'image/png',
      buffer: png(320, 200, [0, 168, 132], [83, 189, 235]),
    });
    const image = bubbles(page).getByRole('img', { name: 'foto.png' });
    await expect(image).toBeVisible();
    await expect(image).toHaveAttribute('src', /^\/media\//);
    // Loaded from the server (not the local preview) and decoded.
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(320);
    const conversation = await conversationOf(biz, chip._id);
    expect(conversation.last_message).toMatchObject({ origin: 'customer', type: 'image' });
    expect(conversation.last_message?.media_url).toMatch(/^\/media\//);

    // A document: a link with its name.
    const pdfChooser = page.waitForEvent('filechooser');
    await attach(page, 'Documento');
    await (await pdfChooser).setFiles({
      name: 'orçamento.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n'),
    });
    const pdf = bubbles(page).getByRole('link', { name: 'orçamento.pdf' });
    await expect(pdf).toHaveAttribute('href', /^\/media\//);
    await expect(bubble(page, 'orçamento.pdf').getByRole('img', { name: 'Enviada' })).toBeVisible();

    // A location typed by hand, with a comma as the decimal separator. On a phone, Back closes the dialog
    // and stays in the chat (issue 33 §6).
    await attach(page, 'Localização');
    const dialog = page.getByRole('dialog', { name: 'Enviar localização' });
    if (project() === 'phone') {
      await expect(dialog).toBeVisible();
      await page.goBack();
      await expect(dialog).toBeHidden();
      await expect(pdf).toBeVisible();
      await attach(page, 'Localização');
    }
    await dialog.getByLabel('Latitude').fill('-95');
    await dialog.getByLabel('Longitude').fill('-46,633308');
    await dialog.getByRole('button', { name: 'Enviar localização' }).click();
    await expect(dialog.getByText(messages.simulatorLatitudeInvalid)).toBeVisible();
    await dialog.getByLabel('Latitude').fill('-23,55052');
    await dialog.getByLabel('Nome do local').fill('Praça da Sé');
    await dialog.getByRole('button', { name: 'Enviar localização' }).click();
    await expect(dialog).toBeHidden();
    const place = bubble(page, 'Praça da Sé');
    await expect(place).toContainText('-23.550520, -46.633308');
    await expect(place.getByRole('link', { name: 'Ver no mapa' })).toHaveAttribute(
      'href',
      /^https:\/\/www\.openstreetmap\.org\/\?mlat=-23\.55052&mlon=-46\.633308/,
    );
    await expect
      .poll(async () =>
        (await serverMessages(server, biz, conversation._id)).find((m) => m.type === 'location'),
      )
      .toMatchObject({
        origin: 'customer',
        location: { latitude: -23.55052, longitude: -46.633308, name: 'Praça da Sé' },
      });

    // The device's own position.
    await context.grantPermissions(['geolocation'], { origin: server.url });
    await context.setGeolocation({ latitude: -22.9068, longitude: -43.1729 });
    await attach(page, 'Localização');
    await dialog.getByRole('button', { name: 'Usar minha localização' }).click();
    await expect(dialog.getByLabel('Latitude')).toHaveValue('-22.906800');
    await expect(dialog.getByLabel('Longitude')).toHaveValue('-43.172900');
    await shot(page, 'location-dialog');
    await dialog.getByRole('button', { name: 'Enviar localização' }).click();
    await expect(bubbles(page).filter({ hasText: '-22.906800, -43.172900' })).toBeVisible();

    // The answer to a send is lost on the way: the page says so, and trying again makes one message.
    let lost = false;
    await page.route('**/api/simulator-send', async (route) => {
      if (lost) return route.continue();
      lost = true;
      await route.fetch();
      await route.abort('connectionreset');
    });
    await write(page, 'Vocês entregam no sábado?');
    const failed = bubble(page, 'Vocês entregam no sábado?');
    await expect(failed.getByRole('alert')).toContainText(messages.genericServerError);
    await expect(failed.getByRole('img', { name: 'Não enviada' })).toBeVisible();
    await shot(page, 'failed-send');
    await failed.getByRole('button', { name: 'Tentar novamente' }).click();
    await expect(failed.getByRole('img', { name: 'Enviada' })).toBeVisible();
    await expect(failed.getByRole('alert')).toHaveCount(0);
    const stored = await serverMessages(server, biz, conversation._id);
    expect(stored.filter((m) => m.message === 'Vocês entregam no sábado?')).toHaveLength(1);

    // A picture from the business shows inline too.
    const upload = new FormData();
    upload.append('type', 'image');
    upload.append(
      'file',
      new Blob([png(400, 240, [255, 140, 0], [250, 82, 82])], { type: 'image/png' }),
      'catalogo.png',
    );
    const res = await fetch(`${server.url}/api/upload-file`, {
      method: 'POST',
      headers: { authorization: `Bearer ${biz.token}` },
      body: upload,
    });
    const uploaded = (await res.json()) as { error: boolean; message: { url: string; file_name: string } };
    expect(uploaded.error).toBe(false);
    await server.call(
      'send-conversation-message',
      {
        conversation_id: conversation._id,
        message_id: localId(),
        text: 'Nosso catálogo',
        media: { type: 'image', url: uploaded.message.url, file_name: 'catalogo.png' },
      },
      biz.token,
    );
    const answer = bubble(page, 'Nosso catálogo');
    await expect(answer.getByRole('img', { name: 'catalogo.png' })).toBeVisible();
    await page.waitForTimeout(300);
    await shot(page, 'media');
  } finally {
    biz.close();
    await file();
  }
});

test('a link whose token is unknown or malformed shows the error page', async ({ page }) => {
  await page.goto(`/simulador/${'A'.repeat(43)}`);
  await expect(page.getByRole('heading', { name: 'Simulador de WhatsApp' })).toBeVisible();
  await expect(page.getByText(messages.simulatorLinkInvalid)).toBeVisible();
  await expect(page.getByLabel('Mensagem')).toHaveCount(0);
  await shot(page, 'invalid-link');

  await page.goto('/simulador/curto?pair=abc');
  await expect(page.getByText(messages.simulatorLinkInvalid)).toBeVisible();
});

test('a disconnected chip: the page says so and cannot send; connected again, it can', async ({
  page,
  server,
}) => {
  const biz = await business(server);
  const { chip, link, file } = await qrChip(server, biz, `Loja Desligada ${project()}`);
  try {
    await page.goto(link);
    await chooseCustomer(page, '11 98765-0004', 'Bruno Cliente');
    await expect(page.getByText('online', { exact: true })).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: messages.simulatorDisconnected })).toHaveCount(0);

    // The manager disconnects the chip: the open page learns it at once.
    await server.call('connect-chip', { _id: chip._id, connect: false }, biz.token);
    const notice = page.getByRole('alert').filter({ hasText: messages.simulatorDisconnected });
    await expect(notice).toBeVisible();
    await expect(page.getByText('desconectado', { exact: true })).toBeVisible();
    await expect(page.getByLabel('Mensagem')).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Enviar' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Anexar' })).toBeDisabled();
    await shot(page, 'disconnected');

    // Still so after a reload (the link without a pairing code does not connect).
    await page.goto(link.split('?')[0] as string);
    await expect(notice).toBeVisible();
    expect(await chipStatus(server, biz, chip._id)).not.toBe('open');

    // A new QR code, opened: the same page is online again.
    const again = await readQrLink(server, biz, chip._id);
    await page.goto(again);
    await expect(page.getByText('online', { exact: true })).toBeVisible();
    await expect(notice).toHaveCount(0);
    await expect(page.getByLabel('Mensagem')).toBeEnabled();
  } finally {
    biz.close();
    await file();
  }
});
