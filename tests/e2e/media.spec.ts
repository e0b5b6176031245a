// The media library and audio recording from Atendimento's command bar (spec 2 §2.5): upload with a
// required name, refusal by content, delete in two clicks, a library picture sent into the conversation and
// opened in the viewer; an audio recorded with Chromium's fake microphone, encoded to MP3 at 128 kbps in a
// Web Worker, sent, and received by the simulator's customer as a playable MP3.
import { mkdirSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { labels, messages } from '@/shared/messages';
import { parseMp3 } from '../mp3-frames';
import { calm, connectedChip, digitsOf, phoneOf, signedIn, tokenOf } from './app';
import { type AppServer, expect, test } from './fixtures';

// Chromium's fake microphone (a beep) and no permission prompt, for this file only.
test.use({
  seed: 'demo',
  ...calm,
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      '--autoplay-policy=no-user-gesture-required',
    ],
  },
});

const ANA = 'atendente@demo.com'; // Suporte
const MANAGER = 'gerente@demo.com';
const project = () => test.info().project.name;
const SHOTS = '/tmp/shots';
mkdirSync(SHOTS, { recursive: true });
const shot = (page: Page, name: string) =>
  page.screenshot({ path: `${SHOTS}/media-${name}-${project()}.png` });

/** A connected simulator chip entering by Suporte, and a customer's open conversation on it. */
async function conversationWith(server: AppServer, n: number, name: string) {
  const manager = await tokenOf(server, MANAGER);
  const chip = await connectedChip(server, manager, 'Mídia');
  const { phone, conversation } = await chip.customer(phoneOf(6, n), name, 'Oi!');
  return { conversation, simulator: chip.simulator, phone, file: chip.file };
}

async function openPane(page: Page, server: AppServer, conversationId: string, name: string) {
  const token = await signedIn(page, server, ANA);
  await page.goto(`/atendimento?c=${conversationId}`);
  const pane = page.getByRole('region', { name });
  await expect(pane.getByRole('heading', { name })).toBeVisible();
  return { pane, token };
}

async function attachMenu(page: Page, pane: Locator, entry: string) {
  await pane.getByRole('button', { name: messages.attach }).click();
  await page.getByRole('menuitem', { name: entry }).click();
  const dialog = page.getByRole('dialog', { name: entry });
  await expect(dialog).toBeVisible();
  return dialog;
}

const toast = (page: Page, text: string) =>
  page.locator('.mantine-Notification-root').filter({ hasText: text });
const bubbles = (pane: Locator) =>
  pane.getByRole('list', { name: messages.messagesTitle }).getByRole('listitem');

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAIklEQVR42mNk+M9AEmAcVTCqYFTBqIJRBaMKRhWMKiBDAQAE9wgRzE4c0QAAAABJRU5ErkJggg==',
  'base64',
);

test('media library: upload needs a file and a name, refuses by content, sends a picture, deletes in two clicks', async ({
  page,
  server,
}) => {
  const c = await conversationWith(server, 1, 'Lia Cliente');
  const { pane, token } = await openPane(page, server, c.conversation._id, 'Lia Cliente');
  try {
    const library = await attachMenu(page, pane, messages.mediaLibraryTitle);
    await expect(library.getByRole('tab')).toHaveText([
      messages.mediaTabImages,
      messages.mediaTabAudios,
      messages.mediaTabVideos,
      messages.mediaTabDocuments,
    ]);
    const upload = library.getByRole('button', { name: messages.mediaUpload });
    const fileInput = library.locator('input[type=file]');

    // No file, then no name: the spec's messages; nothing was sent.
    await upload.click();
    await expect(library.getByRole('alert')).toHaveText(messages.fileRequired);
    await fileInput.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    await upload.click();
    await expect(library.getByRole('alert')).toHaveText(messages.mediaNameRequired);

    // Text dressed as a PNG: the server reads the bytes and refuses.
    await fileInput.setInputFiles({
      name: 'falsa.png',
      mimeType: 'image/png',
      buffer: Buffer.from('não sou imagem'),
    });
    await library.getByLabel(labels.common.name).fill('Falsa');
    await upload.click();
    await expect(library.getByRole('alert')).toHaveText(messages.mediaLibraryType);

    await fileInput.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    await library.getByLabel(labels.common.name).fill('Logo da loja');
    await upload.click();
    await expect(toast(page, messages.uploadDone)).toBeVisible();
    const item = library.getByRole('listitem', { name: 'Logo da loja' });
    await expect(item).toBeVisible();
    await expect(library.getByLabel(labels.common.name)).toHaveValue('');

    // A document in its own tab.
    await library.getByRole('tab', { name: messages.mediaTabDocuments }).click();
    await expect(library.getByText(messages.mediaEmpty)).toBeVisible();
    await library.locator('input[type=file]').setInputFiles({
      name: 'tabela.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4\n%%EOF\n'),
    });
    await library.getByLabel(labels.common.name).fill('Tabela de preços');
    await library.getByRole('button', { name: messages.mediaUpload }).click();
    await expect(library.getByRole('listitem', { name: 'Tabela de preços' })).toBeVisible();
    await shot(page, 'library-documents');
    const listed = await server.call<{ type: string; name: string }[]>('get-medias-by-user', {}, token);
    expect(listed.map((m) => [m.type, m.name])).toEqual([
      ['document', 'Tabela de preços'],
      ['image', 'Logo da loja'],
    ]);

    // The picker: Enviar sends the picture into the conversation; the customer gets it.
    await library.getByRole('tab', { name: messages.mediaTabImages }).click();
    await shot(page, 'library-images');
    await library
      .getByRole('listitem', { name: 'Logo da loja' })
      .getByRole('button', { name: messages.send })
      .click();
    await expect(library).toBeHidden();
    const sent = bubbles(pane).filter({ has: page.getByRole('img', { name: 'Logo da loja' }) });
    await expect(sent.getByRole('img', { name: messages.statusSent })).toBeVisible();
    let received: { from_me: boolean; type: string; media_url: string | null } | undefined;
    await expect
      .poll(async () => {
        const onPhone = await server.call<NonNullable<typeof received>[]>('simulator-get-messages', {
          token: c.simulator,
          phone: digitsOf(c.phone),
        });
        received = onPhone.find((m) => m.from_me && m.type === 'image');
        return received?.media_url ?? '';
      })
      .toMatch(/^\/media\//);

    // The image viewer opens it from the pane.
    await sent.getByRole('button', { name: messages.paneOpenImage }).click();
    const viewer = page.getByRole('dialog', { name: 'Logo da loja' });
    await expect(viewer.getByRole('img', { name: 'Logo da loja' })).toBeVisible();
    await viewer.getByRole('button', { name: 'Fechar' }).click();

    // Deleting takes two clicks: Apagar arms it, Confirmar deletes.
    const again = await attachMenu(page, pane, messages.mediaLibraryTitle);
    const logo = again.getByRole('listitem', { name: 'Logo da loja' });
    await logo.getByRole('button', { name: labels.common.delete }).click();
    await expect(logo.getByRole('button', { name: labels.common.confirm })).toBeVisible();
    await shot(page, 'library-confirm-delete');
    expect(await server.call<unknown[]>('get-medias-by-user', { type: 'image' }, token)).toHaveLength(1);
    await logo.getByRole('button', { name: labels.common.confirm }).click();
    await expect(toast(page, messages.mediaDeleted)).toBeVisible();
    await expect(again.getByText(messages.mediaEmpty)).toBeVisible();
    expect(await server.call<unknown[]>('get-medias-by-user', { type: 'image' }, token)).toEqual([]);
    // The sent picture still shows: the file stays while a message uses it.
    expect((await page.request.get(`${server.url}${received?.media_url}`)).status()).toBe(200);
  } finally {
    for (const m of await server.call<{ _id: string }[]>('get-medias-by-user', {}, token)) {
      await server.call('delete-media', { _id: m._id }, token);
    }
    await c.file();
  }
});

test('audio: recorded with the microphone, MP3 at 128 kbps, sent as a voice note, and the customer can play it', async ({
  page,
  browser,
  server,
}) => {
  // Two recordings, two pages and a customer's phone: more than the default minute on a loaded 2-core machine.
  test.setTimeout(150_000);
  const c = await conversationWith(server, 2, 'Rui Cliente');
  const customer = await browser.newContext({
    viewport: { width: 360, height: 640 },
    ...calm.contextOptions,
  });
  const { pane, token } = await openPane(page, server, c.conversation._id, 'Rui Cliente');
  try {
    const phone = await customer.newPage();
    await phone.goto(`${server.url}/simulador/${c.simulator}`);
    await phone.getByLabel('DDD e número').fill(c.phone);
    await phone.getByLabel('Nome').fill('Rui Cliente');
    await phone.getByRole('button', { name: 'Abrir conversa' }).click();

    const recorder = await attachMenu(page, pane, messages.recorderTitle);
    await shot(page, 'recorder-idle');
    // Nothing recorded yet: Enviar waits for a recording.
    await expect(recorder.getByRole('button', { name: messages.send })).toBeDisabled();

    // Record, cancel: back to idle with nothing kept.
    await recorder.getByRole('button', { name: messages.recorderStart, exact: true }).click();
    await expect(recorder.getByText(messages.recorderRecording)).toBeVisible();
    await recorder.getByRole('button', { name: labels.common.cancel }).click();
    await expect(recorder.getByRole('button', { name: messages.recorderStart, exact: true })).toBeVisible();

    // Record about 2.5 s: the elapsed time runs.
    await recorder.getByRole('button', { name: messages.recorderStart, exact: true }).click();
    const elapsed = recorder.getByLabel('Tempo de gravação');
    await expect(elapsed).toHaveText('00:02', { timeout: 10_000 });
    await shot(page, 'recorder-recording');
    await page.waitForTimeout(500);
    await recorder.getByRole('button', { name: messages.stop }).click();
    const player = recorder.locator('audio');
    await expect(player).toBeVisible({ timeout: 20_000 });
    // Playable in the dialog: the browser reads its length.
    const seconds = await player.evaluate(
      (el: HTMLAudioElement) =>
        new Promise<number>((resolve) => {
          if (el.readyState >= 1) resolve(el.duration);
          el.addEventListener('loadedmetadata', () => resolve(el.duration), { once: true });
          el.load();
        }),
    );
    expect(seconds).toBeGreaterThan(2);
    expect(seconds).toBeLessThan(5);
    await shot(page, 'recorder-recorded');

    // Saved to the library, it carries the ptt flag.
    await recorder.getByLabel(labels.common.name).fill('Recado de voz');
    await recorder.getByRole('button', { name: messages.recorderSaveToLibrary }).click();
    await expect(toast(page, messages.recorderSaved)).toBeVisible();
    const [saved] = await server.call<{ name: string; ptt: boolean; mime: string; url: string }[]>(
      'get-medias-by-user',
      { type: 'audio' },
      token,
    );
    expect(saved).toMatchObject({ name: 'Recado de voz', ptt: true, mime: 'audio/mpeg' });

    // Saved, it is sent by its library address: nothing is uploaded again.
    const uploads: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/upload-file')) uploads.push(r.url());
    });
    await recorder.getByRole('button', { name: messages.send }).click();
    await expect(recorder).toBeHidden();
    const sent = bubbles(pane)
      .filter({ has: page.locator('audio') })
      .last();
    // The customer's page is open: it may already show as read.
    await expect(
      sent.getByRole('img', { name: new RegExp(`${messages.statusSent}|${messages.paneStatusRead}`) }),
    ).toBeVisible();
    // A voice note: the microphone mark beside the player, on the team's side and on the customer's phone.
    await expect(sent.getByRole('img', { name: messages.paneVoiceNote })).toBeVisible();
    await shot(page, 'pane-voice-note');
    // The list's preview says how long it is, as WhatsApp's list does (the server read it from the MP3).
    const item = page
      .getByRole('list', { name: labels.common.conversations })
      .getByRole('listitem')
      .filter({ hasText: 'Rui Cliente' });
    await expect(item).toContainText(/Áudio \(0:0[2-4]\)/);
    await item.screenshot({ path: `${SHOTS}/list-audio-length-${project()}.png` });
    expect(await sent.locator('audio').getAttribute('src')).toBe(saved?.url);
    expect(uploads).toEqual([]);
    // Its length shows before anyone plays it (the player reads the metadata), not '0:00 / 0:00'.
    await expect
      .poll(() => sent.locator('audio').evaluate((el: HTMLAudioElement) => el.duration), { timeout: 10_000 })
      .toBeGreaterThan(2);
    await sent.screenshot({ path: `/tmp/shots-config/voice-note-length-${project()}.png` });
    const phoneList = phone.getByRole('list', { name: 'Mensagens' });
    await expect(phoneList.getByRole('img', { name: messages.paneVoiceNote })).toHaveCount(1);

    // The customer's phone shows it and can play it; its bytes are MPEG-1 Layer III at 128 kbps.
    const audio = phone.getByRole('list', { name: 'Mensagens' }).locator('audio').last();
    await expect(audio).toBeAttached();
    const src = (await audio.getAttribute('src')) ?? '';
    const played = await audio.evaluate(
      (el: HTMLAudioElement) =>
        new Promise<{ duration: number; error: number | null }>((resolve) => {
          el.addEventListener('canplaythrough', () => resolve({ duration: el.duration, error: null }), {
            once: true,
          });
          el.addEventListener('error', () => resolve({ duration: 0, error: el.error?.code ?? -1 }), {
            once: true,
          });
          el.preload = 'auto';
          el.load();
        }),
    );
    expect(played.error).toBeNull();
    expect(played.duration).toBeGreaterThan(2);
    const bytes = new Uint8Array(await (await page.request.get(new URL(src, server.url).toString())).body());
    const stream = parseMp3(bytes);
    expect(stream).toMatchObject({ version: 'MPEG-1', layer: 'Layer III', sampleRate: 44100 });
    expect([...stream.bitrates]).toEqual([128]);
    expect(stream.seconds).toBeGreaterThan(2);
    expect(stream.seconds).toBeLessThan(5);
    test.info().annotations.push({
      type: 'recorded MP3',
      description: `${stream.seconds.toFixed(2)} s, ${bytes.length} bytes`,
    });
    await phone.screenshot({ path: `${SHOTS}/media-customer-audio-${project()}.png` });

    // A fresh recording from the composer's microphone (shown while the text is empty, as in WhatsApp): the
    // recorder opens already recording; not saved, it is uploaded once and sent as a voice note too.
    const box = pane.getByRole('textbox', { name: labels.common.message, exact: true });
    await box.fill('Um momento');
    await expect(pane.getByRole('button', { name: messages.recorderTitle })).toHaveCount(0);
    await box.fill('');
    await expect(pane.getByRole('button', { name: messages.send })).toHaveCount(0);
    await pane.getByRole('button', { name: messages.recorderTitle }).click();
    const fresh = page.getByRole('dialog', { name: messages.recorderTitle });
    await expect(fresh.getByLabel('Tempo de gravação')).toHaveText('00:01', { timeout: 10_000 });
    await expect(fresh.getByRole('button', { name: messages.send })).toBeDisabled();
    await fresh.getByRole('button', { name: messages.stop }).click();
    await expect(fresh.locator('audio')).toBeVisible({ timeout: 20_000 });
    await fresh.getByRole('button', { name: messages.send }).click();
    await expect(fresh).toBeHidden();
    await expect(bubbles(pane).getByRole('img', { name: messages.paneVoiceNote })).toHaveCount(2);
    await expect(phoneList.getByRole('img', { name: messages.paneVoiceNote })).toHaveCount(2);
    expect(uploads).toHaveLength(1);
    const onPhone = await server.call<{ from_me: boolean; type: string; ptt: boolean }[]>(
      'simulator-get-messages',
      { token: c.simulator, phone: digitsOf(c.phone) },
    );
    expect(onPhone.filter((m) => m.from_me && m.type === 'audio').map((m) => m.ptt)).toEqual([true, true]);
  } finally {
    for (const m of await server.call<{ _id: string }[]>('get-medias-by-user', {}, token)) {
      await server.call('delete-media', { _id: m._id }, token);
    }
    await customer.close();
    await c.file();
  }
});

test('a denied microphone says so in Portuguese, and nothing is recorded', async ({ playwright, server }) => {
  const c = await conversationWith(server, 3, 'Eva Cliente');
  // A browser of its own with the fake microphone but without the flag that accepts every prompt, and the
  // site's microphone permission blocked, as when the user clicked "Bloquear".
  const browser = await playwright.chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--use-fake-device-for-media-stream'],
  });
  try {
    const cdp = await browser.newBrowserCDPSession();
    await cdp.send('Browser.setPermission', {
      permission: { name: 'microphone' },
      setting: 'denied',
      origin: server.url,
    });
    const context = await browser.newContext({
      baseURL: server.url,
      ...test.info().project.use,
      ...calm.contextOptions,
    });
    const page = await context.newPage();
    const { pane } = await openPane(page, server, c.conversation._id, 'Eva Cliente');
    const recorder = await attachMenu(page, pane, messages.recorderTitle);
    await recorder.getByRole('button', { name: messages.recorderStart, exact: true }).click();
    await expect(recorder.getByRole('alert')).toHaveText(messages.microphoneDenied);
    await expect(recorder.getByRole('button', { name: messages.recorderStart, exact: true })).toBeVisible();
    await shot(page, 'recorder-denied');
  } finally {
    await browser.close();
    await c.file();
  }
});

// Issue 34 item 7 (spec 2 §8): an attached image the server refuses to store says 'Erro ao enviar imagem.',
// and the refused message leaves the pane.
test('an image whose upload is refused says so in the spec’s words', async ({ page, server }) => {
  const c = await conversationWith(server, 4, 'Bia Cliente');
  const { pane } = await openPane(page, server, c.conversation._id, 'Bia Cliente');
  await page.route('**/api/upload-file', (route) =>
    route.fulfill({ status: 200, json: { error: true, message: 'Arquivo recusado pelo servidor.' } }),
  );
  await pane.getByRole('button', { name: messages.attach }).click();
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('menuitem', { name: messages.image }).click();
  await (await chooser).setFiles({ name: 'foto.png', mimeType: 'image/png', buffer: PNG });
  await pane.getByRole('button', { name: messages.send }).click();
  await expect(toast(page, messages.imageUploadFailed)).toBeVisible();
  await expect(bubbles(pane).filter({ has: page.locator('img') })).toHaveCount(0);
});
