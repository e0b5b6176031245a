// The WhatsApp Cloud API channel against a fake Graph API: an official chip set up as support and the owner do
// it, the signed webhook (verification, signatures, replays, every message type, statuses) and sends (text,
// media by upload, templates) with Meta's errors turned into pt-BR reasons on the message.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { encodeMp3 } from '@/app/widgets/media/audio/mp3-encoder';
import { channelInbox, chips, contacts, conversations, messages } from '@/server/db/schema';
import { showTyping } from '@/server/domains/conversations/typing';
import { MESSAGE_STATUS } from '@/shared/constants';
import { messages as texts } from '@/shared/messages';
import { type FakeGraph, messagesNotification, postWebhook, startFakeGraph } from '../fakes/graph-api';
import { listen, until } from './channel-helpers';
import { testServerPerFile } from './helpers';

const SECRET = 'app-secret-for-tests';
const VERIFY_TOKEN = 'verify-token-for-tests';
const PHONE_NUMBER_ID = '1029384756';
const WABA = '5647382910';
const CUSTOMER = { wa_id: '5511987654321', name: 'Maria Cliente' };

// Smallest valid PNG (1×1): real magic bytes, so the media store accepts it.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

// One second of tone as MP3: the media store checks audio by content.
const MP3 = Buffer.from(
  encodeMp3(
    new Float32Array(44100).map((_, i) => Math.sin(i / 10) / 2),
    44100,
  ),
);

const graph: FakeGraph = await startFakeGraph();
const env = {
  WHATSAPP_GRAPH_URL: graph.url,
  WHATSAPP_GRAPH_VERSION: graph.version,
  WHATSAPP_ACCESS_TOKEN: graph.token,
  WHATSAPP_APP_SECRET: SECRET,
  WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
  // A failed media download is tried again 1 s later, twice (in production: minutes, then hours, ~7 days).
  MEDIA_RETRY_SECONDS: '1,1',
};
const s = testServerPerFile(env);
afterAll(() => graph.close());
beforeEach(() => graph.clear());

let seq = 0;
const localId = () => `c${Date.now().toString(36)}${(seq++).toString(36)}xxxx`;
const wamid = () => `wamid.IN${Date.now().toString(36)}${(seq++).toString(36)}`;
const now = () => Math.floor(Date.now() / 1000);

/** An official chip as the product sets one up: the owner creates it, support configures and registers it. */
async function officialChip() {
  const owner = await s.t.login('dono@demo.com');
  const admin = await s.t.login('admin@demo.com');
  const created = await s.t.call(
    'create-or-update-chip',
    { name: 'Oficial', redirect: 'human', department: s.seed.departments.support, official: true },
    owner,
  );
  expect(created).toMatchObject({ official: true, provider: 'cloud-api', status: 'new' });
  await s.t.call(
    'admin-update-chip',
    { _id: created._id, phone_number_id: PHONE_NUMBER_ID, waba: WABA },
    admin,
  );
  await s.t.call('register-phone-number', { _id: created._id, register: true }, admin);
  const chip = await s.t.call('connect-chip', { _id: created._id, connect: true }, owner);
  return { owner, admin, chip };
}

/** A notification as Meta sends it, for one change of our phone number. */
const notification = (value: Record<string, unknown>, phoneNumberId = PHONE_NUMBER_ID) =>
  messagesNotification({ waba: WABA, phoneNumberId }, value);

/** The customer's messages: each gets `from`, and a timestamp one second after the previous one. */
function fromCustomer(list: Record<string, unknown>[], phoneNumberId?: string) {
  const start = now() - list.length;
  return notification(
    {
      contacts: [{ profile: { name: CUSTOMER.name }, wa_id: CUSTOMER.wa_id }],
      messages: list.map((m, i) => ({ from: CUSTOMER.wa_id, timestamp: String(start + i), ...m })),
    },
    phoneNumberId,
  );
}

const statuses = (list: Record<string, unknown>[]) =>
  notification({
    statuses: list.map((st) => ({ timestamp: String(now()), recipient_id: CUSTOMER.wa_id, ...st })),
  });

/** Posts a signed notification, expects 200, and waits until the server has processed it. */
async function deliver(body: unknown) {
  const res = await postWebhook(s.t.url, body, { secret: SECRET });
  expect(res.status).toBe(200);
  await s.t.server.services.channels.cloudApi.idle();
}

const storedMessages = () =>
  s.t.server.services.db.select().from(messages).orderBy(asc(messages.createdAt), asc(messages.id));

async function conversationOf(chipId: string) {
  const [row] = await s.t.server.services.db
    .select()
    .from(conversations)
    .where(eq(conversations.chipId, chipId));
  if (!row) throw new Error('no conversation');
  return row;
}

/** The customer writes first (opening the 24 h window), so the team has a conversation to answer in. */
async function customerWrote() {
  const setup = await officialChip();
  const id = wamid();
  await deliver(fromCustomer([{ id, type: 'text', text: { body: 'Oi, tudo bem?' } }]));
  const conversation = await conversationOf(setup.chip._id);
  return { ...setup, conversation, inboundId: id };
}

describe('setting up an official number', () => {
  it('registers with a 6-digit PIN kept on the chip, connects (number fields, WABA subscription) and opens', async () => {
    const { chip, admin } = await officialChip();
    expect(chip).toMatchObject({
      status: 'open',
      registered: true,
      phone_number_id: PHONE_NUMBER_ID,
      waba: WABA,
      display_phone_number: graph.phone.display_phone_number,
      phone_number_quality: 'GREEN',
    });
    const [register] = graph.to('/register');
    expect(register?.json).toEqual({ messaging_product: 'whatsapp', pin: expect.stringMatching(/^\d{6}$/) });
    expect(register?.headers.authorization).toBe(`Bearer ${graph.token}`);
    const [row] = await s.t.server.services.db.select().from(chips).where(eq(chips.id, chip._id));
    expect(row?.credentials).toEqual({ pin: register?.json?.pin });

    const [fields] = graph.requests.filter((r) => r.method === 'GET' && r.path === `/${PHONE_NUMBER_ID}`);
    expect(fields?.query.fields).toBe('display_phone_number,quality_rating,verified_name');
    expect(graph.to('/subscribed_apps').map((r) => [r.method, r.path])).toEqual([
      ['POST', `/${WABA}/subscribed_apps`],
    ]);

    // Registering again keeps the same PIN; unregistering calls deregister.
    await s.t.call('register-phone-number', { _id: chip._id, register: true }, admin);
    expect(graph.to('/register')[1]?.json?.pin).toBe(register?.json?.pin);
    const off = await s.t.call('register-phone-number', { _id: chip._id, register: false }, admin);
    expect(off).toMatchObject({ registered: false, status: 'configuring' });
    expect(graph.to('/deregister').map((r) => r.path)).toEqual([`/${PHONE_NUMBER_ID}/deregister`]);
  });

  it('a Graph failure while connecting is a pt-BR error and the chip stays closed', async () => {
    const owner = await s.t.login('dono@demo.com');
    const admin = await s.t.login('admin@demo.com');
    const chip = await s.t.call(
      'create-or-update-chip',
      { name: 'Oficial', redirect: 'human', department: s.seed.departments.support, official: true },
      owner,
    );
    await s.t.call('admin-update-chip', { _id: chip._id, phone_number_id: PHONE_NUMBER_ID }, admin);
    await s.t.call('register-phone-number', { _id: chip._id, register: true }, admin);
    graph.failNext({ code: 190, status: 401 });
    const res = await s.t.post('connect-chip', { _id: chip._id, connect: true }, owner);
    expect(res.body).toEqual({ error: true, message: texts.cloudApiTokenInvalid });
    const [listed] = await s.t.call('get-chip-numbers-by-user', {}, owner);
    expect(listed?.status).toBe('close');
    // Without a WABA there is nothing to subscribe to.
    await s.t.call('connect-chip', { _id: chip._id, connect: true }, owner);
    expect(graph.to('/subscribed_apps')).toEqual([]);
    const closed = await s.t.call('connect-chip', { _id: chip._id, connect: false }, owner);
    expect(closed.status).toBe('close');
  });
});

describe('webhook verification (GET)', () => {
  const verify = (query: Record<string, string>) =>
    fetch(`${s.t.url}/webhooks/whatsapp?${new URLSearchParams(query)}`);

  it('echoes the challenge as text for the right verify token', async () => {
    const res = await verify({
      'hub.mode': 'subscribe',
      'hub.verify_token': VERIFY_TOKEN,
      'hub.challenge': '1158201444',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toBe('1158201444');
  });

  it('refuses a wrong token, a wrong mode or no token with 403', async () => {
    const refused: Record<string, string>[] = [
      { 'hub.mode': 'subscribe', 'hub.verify_token': 'wrong', 'hub.challenge': '1' },
      { 'hub.mode': 'subscribe', 'hub.verify_token': `${VERIFY_TOKEN}x`, 'hub.challenge': '1' },
      { 'hub.mode': 'unsubscribe', 'hub.verify_token': VERIFY_TOKEN, 'hub.challenge': '1' },
      { 'hub.mode': 'subscribe', 'hub.challenge': '1' },
    ];
    for (const query of refused) {
      const res = await verify(query);
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: true, message: texts.webhookVerifyFailed });
    }
  });
});

describe('webhook notifications (POST)', () => {
  it('refuses a bad, tampered or missing signature with 403 and stores nothing', async () => {
    await officialChip();
    const body = fromCustomer([{ id: wamid(), type: 'text', text: { body: 'Oi' } }]);
    const refused = { error: true, message: texts.webhookSignatureInvalid };
    const wrongSecret = await postWebhook(s.t.url, body, { secret: 'not-the-secret' });
    expect(wrongSecret).toEqual({ status: 403, body: refused });
    const other = fromCustomer([{ id: wamid(), type: 'text', text: { body: 'outro' } }]);
    const { createHmac } = await import('node:crypto');
    const signedOther = `sha256=${createHmac('sha256', SECRET).update(JSON.stringify(other)).digest('hex')}`;
    expect(await postWebhook(s.t.url, body, { signature: signedOther })).toEqual({
      status: 403,
      body: refused,
    });
    expect(await postWebhook(s.t.url, body, { signature: 'sha256=abc' })).toEqual({
      status: 403,
      body: refused,
    });
    expect(await postWebhook(s.t.url, body, {})).toEqual({ status: 403, body: refused });
    await s.t.server.services.channels.cloudApi.idle();
    expect(await storedMessages()).toEqual([]);
    expect(await s.t.server.services.db.select().from(contacts)).toEqual([]);

    // The same body, rightly signed, is stored: the /api JSON parser is untouched by the webhook's raw one.
    await deliver(body);
    expect((await storedMessages()).map((m) => m.message)).toEqual(['Oi']);
    expect((await s.t.post('get-user', {}, await s.t.login('dono@demo.com'))).body.error).toBe(false);
  });

  it('refuses a signed body that is not a notification object (null, list, text, number, too deep) with 400, storing nothing', async () => {
    await officialChip();
    const refused = { status: 400, body: { error: true, message: texts.webhookNotANotification } };
    // null hit the inbox's not-null column: a 500. The others were kept and handed on as notifications.
    for (const body of [null, [], [fromCustomer([])], 'texto', '', 42, 0, true]) {
      expect(await postWebhook(s.t.url, body, { secret: SECRET }), JSON.stringify(body)).toEqual(refused);
    }
    // 10,000 levels: written by hand (JSON.stringify itself overflows on it), signed over the raw text.
    const { createHmac } = await import('node:crypto');
    const deep = `{"object":"whatsapp_business_account","entry":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const res = await fetch(`${s.t.url}/webhooks/whatsapp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': `sha256=${createHmac('sha256', SECRET).update(deep).digest('hex')}`,
      },
      body: deep,
    });
    expect({ status: res.status, body: await res.json() }).toEqual(refused);
    await s.t.server.services.channels.cloudApi.idle();
    expect(await s.t.server.services.db.select().from(channelInbox)).toEqual([]);
    // An object, even one with nothing for us, is a notification: kept and answered 200 as Meta expects.
    await deliver({ object: 'whatsapp_business_account', entry: [] });
    await deliver(fromCustomer([{ id: wamid(), type: 'text', text: { body: 'Depois' } }]));
    expect((await storedMessages()).map((m) => m.message)).toEqual(['Depois']);
  });

  it('a replayed notification stores one message, also when both copies arrive at once', async () => {
    await officialChip();
    const manager = await listen(s.t, 'gerente@demo.com');
    const body = fromCustomer([{ id: wamid(), type: 'text', text: { body: 'Primeira' } }]);
    await deliver(body);
    await deliver(body);
    expect((await storedMessages()).map((m) => m.message)).toEqual(['Primeira']);
    await manager.next('new_conversation');

    const again = fromCustomer([{ id: wamid(), type: 'text', text: { body: 'Segunda' } }]);
    const answers = await Promise.all([
      postWebhook(s.t.url, again, { secret: SECRET }),
      postWebhook(s.t.url, again, { secret: SECRET }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    await s.t.server.services.channels.cloudApi.idle();
    expect((await storedMessages()).map((m) => m.message).sort()).toEqual(['Primeira', 'Segunda']);
    expect(await s.t.server.services.db.select().from(conversations)).toHaveLength(1);
  });

  it('keeps each notification before answering 200; one left unhandled by a restart is handled at start', async () => {
    await officialChip();
    const db = s.t.server.services.db;
    await deliver(fromCustomer([{ id: wamid(), type: 'text', text: { body: 'Guardada' } }]));
    const kept = await db.select().from(channelInbox);
    expect(kept).toHaveLength(1);
    expect(kept[0]?.processedAt).not.toBeNull();

    // The process died after answering Meta and before handling: the row is there, unhandled.
    await db.insert(channelInbox).values({
      id: 'INBOXLEFTBYACRASH00000000001',
      provider: 'cloud-api',
      body: fromCustomer([{ id: wamid(), type: 'text', text: { body: 'Depois do reinício' } }]),
    });
    await s.t.server.services.channels.start();
    await until(async () => (await storedMessages()).some((m) => m.message === 'Depois do reinício'));
    await until(async () => {
      const [row] = await db
        .select()
        .from(channelInbox)
        .where(eq(channelInbox.id, 'INBOXLEFTBYACRASH00000000001'));
      return row?.processedAt ? row : undefined;
    });
  });

  it('maps every message type: text, media with download, location, contacts, interactive, button, reaction, unsupported', async () => {
    const { chip } = await officialChip();
    graph.addMedia('media-img', PNG, 'image/png');
    graph.addMedia('media-doc', Buffer.from('%PDF-1.4\n%fake\n'), 'application/pdf');
    // A voice note's head: Ogg with an Opus stream.
    const opus = Buffer.concat([
      Buffer.from('OggS\0\x02'),
      Buffer.alloc(22),
      Buffer.from('OpusHead'),
      Buffer.alloc(40),
    ]);
    graph.addMedia('media-voice', opus, 'audio/ogg; codecs=opus');
    const first = wamid();
    await deliver(
      fromCustomer([
        { id: first, type: 'text', text: { body: 'Olá!' } },
        {
          id: wamid(),
          type: 'image',
          image: { id: 'media-img', mime_type: 'image/png', caption: 'Meu pedido' },
        },
        {
          id: wamid(),
          type: 'document',
          document: { id: 'media-doc', mime_type: 'application/pdf', filename: 'nota.pdf' },
        },
        {
          id: wamid(),
          type: 'audio',
          audio: { id: 'media-voice', mime_type: 'audio/ogg; codecs=opus', voice: true },
        },
        {
          id: wamid(),
          type: 'location',
          location: {
            latitude: -23.5505,
            longitude: -46.6333,
            name: 'Loja Centro',
            address: 'Praça da Sé, 1',
          },
        },
        {
          id: wamid(),
          type: 'contacts',
          contacts: [
            {
              name: { formatted_name: 'João Silva' },
              phones: [{ phone: '+55 11 91234-5678', wa_id: '5511912345678' }],
            },
          ],
        },
        {
          id: wamid(),
          type: 'interactive',
          interactive: { type: 'button_reply', button_reply: { id: 'b1', title: 'Sim, confirmo' } },
        },
        {
          id: wamid(),
          type: 'interactive',
          interactive: {
            type: 'list_reply',
            list_reply: { id: 'l2', title: 'Segunda via', description: 'x' },
          },
        },
        { id: wamid(), type: 'button', button: { text: 'Quero saber mais', payload: 'MAIS' } },
        { id: wamid(), type: 'reaction', reaction: { message_id: first, emoji: '👍' } },
        { id: wamid(), type: 'reaction', reaction: { message_id: first } },
        {
          id: wamid(),
          type: 'unsupported',
          errors: [{ code: 131051, title: 'Message type unknown' }],
        },
        {
          id: wamid(),
          type: 'text',
          text: { body: 'Respondendo' },
          context: { from: CUSTOMER.wa_id, id: first },
        },
      ]),
    );

    const rows = await storedMessages();
    expect(rows.map((m) => [m.type, m.message])).toEqual([
      ['text', 'Olá!'],
      ['image', 'Meu pedido'],
      ['document', ''],
      ['audio', ''],
      ['location', 'Loja Centro\nPraça da Sé, 1'],
      ['contact', 'João Silva: +55 11 91234-5678'],
      ['text', 'Sim, confirmo'],
      ['text', 'Segunda via'],
      ['text', 'Quero saber mais'],
      ['text', texts.cloudApiReaction('👍')],
      ['text', texts.cloudApiUnsupportedMessage],
      ['text', 'Respondendo'],
    ]);
    expect(rows.every((m) => m.origin === 'customer' && m.chipId === chip._id)).toBe(true);

    const image = rows[1];
    expect(image?.mediaUrl).toMatch(/^\/media\/[0-9a-z]{28}\.png$/);
    const file = path.join(s.t.dataDir, 'media', image?.mediaUrl?.slice('/media/'.length) ?? '');
    expect(await readFile(file)).toEqual(PNG);
    // The media's URL asked of Graph, then the file fetched with the token.
    const imageCalls = graph.requests.filter((r) => r.path.endsWith('media-img'));
    expect(imageCalls.map((r) => [r.method, r.path, r.headers.authorization])).toEqual([
      ['GET', '/media-img', `Bearer ${graph.token}`],
      ['GET', '/files/media-img', `Bearer ${graph.token}`],
    ]);
    expect(rows[2]).toMatchObject({ fileName: 'nota.pdf', mediaUrl: expect.stringMatching(/\.pdf$/) });
    // The customer's voice note stays one: an Ogg file, marked ptt (the only one).
    expect(rows[3]?.mediaUrl).toMatch(/^\/media\/[0-9a-z]{28}\.ogg$/);
    expect(rows.map((m) => m.ptt)).toEqual(rows.map((_, i) => i === 3));
    expect(rows[4]?.location).toEqual({ latitude: -23.5505, longitude: -46.6333, name: 'Loja Centro' });
    expect(rows[9]?.replyMessage).toMatchObject({ type: 'text', message: 'Olá!' });
    expect(rows[11]?.replyMessage).toMatchObject({ type: 'text', message: 'Olá!' });

    const [contact] = await s.t.server.services.db.select().from(contacts);
    expect(contact).toMatchObject({
      phone: CUSTOMER.wa_id,
      name: CUSTOMER.name,
      channelContactId: CUSTOMER.wa_id,
    });
    const conversation = await conversationOf(chip._id);
    expect(conversation).toMatchObject({ channelType: 'whatsapp_api_oficial', waitingResponse: true });
    expect(conversation.contextWindow?.getTime()).toBeGreaterThan(Date.now() + 23 * 3600 * 1000);
  });

  it('stores a received file name without bidi control characters (a disguised name)', async () => {
    await officialChip();
    graph.addMedia('media-spoof', Buffer.from('%PDF-1.4\n%%EOF\n'), 'application/pdf');
    await deliver(
      fromCustomer([
        {
          id: wamid(),
          type: 'document',
          // Shown as 'faturaexe.pdf' while it is 'faturafdp.exe'.
          document: { id: 'media-spoof', mime_type: 'application/pdf', filename: 'fatura\u202Efdp.exe' },
        },
      ]),
    );
    expect((await storedMessages()).map((m) => m.fileName)).toEqual(['faturafdp.exe']);
  });

  it('a media that cannot be downloaded still arrives, as a text saying so', async () => {
    await officialChip();
    await deliver(
      fromCustomer([
        { id: wamid(), type: 'image', image: { id: 'media-gone', mime_type: 'image/jpeg', caption: 'Foto' } },
      ]),
    );
    expect((await storedMessages()).map((m) => [m.type, m.message])).toEqual([
      ['text', `${texts.cloudApiMediaUnavailable}\nFoto`],
    ]);
  });

  it('a media whose download failed once is downloaded again by the job runner and replaces the notice', async () => {
    await officialChip();
    const manager = await listen(s.t, 'gerente@demo.com');
    graph.addMedia('media-flaky', PNG, 'image/png');
    graph.failDownload('media-flaky', 1);
    const id = wamid();
    await deliver(
      fromCustomer([
        { id, type: 'image', image: { id: 'media-flaky', mime_type: 'image/png', caption: 'Meu pedido' } },
      ]),
    );
    const [notice] = await storedMessages();
    expect(notice).toMatchObject({ type: 'text', message: `${texts.cloudApiMediaUnavailable}\nMeu pedido` });

    // The retry: the file replaces the notice on the same message, and open screens are told.
    const { message: updated } = await manager.next('message_updated', 10_000);
    expect(updated.message).toMatchObject({
      _id: notice?.id,
      type: 'image',
      message: 'Meu pedido',
      media_url: expect.stringMatching(/^\/media\/[0-9a-z]{28}\.png$/),
    });
    const [row] = await storedMessages();
    expect(row).toMatchObject({ id: notice?.id, type: 'image', message: 'Meu pedido' });
    const file = path.join(s.t.dataDir, 'media', row?.mediaUrl?.slice('/media/'.length) ?? '');
    expect(await readFile(file)).toEqual(PNG);
    expect(graph.to('/files/media-flaky')).toHaveLength(2);
  });

  it('a media that never downloads keeps its notice, and the retries stop', async () => {
    await officialChip();
    graph.addMedia('media-down', PNG, 'image/png');
    graph.failDownload('media-down', 100);
    await deliver(
      fromCustomer([
        {
          id: wamid(),
          type: 'document',
          document: { id: 'media-down', mime_type: 'application/pdf', filename: 'nota.pdf' },
        },
      ]),
    );
    // The first try and the two retries of MEDIA_RETRY_SECONDS, then nothing more.
    await until(() => graph.to('/files/media-down').length >= 3, 15_000);
    await new Promise((r) => setTimeout(r, 4000));
    expect(graph.to('/files/media-down')).toHaveLength(3);
    expect((await storedMessages()).map((m) => [m.type, m.message, m.mediaUrl])).toEqual([
      ['text', texts.cloudApiMediaUnavailable, null],
    ]);
  });

  it('a media id Meta no longer has is not tried again', async () => {
    await officialChip();
    graph.addMedia('media-expired', PNG, 'image/png');
    graph.failDownload('media-expired', 100, 404);
    await deliver(
      fromCustomer([{ id: wamid(), type: 'image', image: { id: 'media-expired', mime_type: 'image/png' } }]),
    );
    await new Promise((r) => setTimeout(r, 4000));
    expect(graph.to('/files/media-expired')).toHaveLength(1);
    expect((await storedMessages()).map((m) => m.message)).toEqual([texts.cloudApiMediaUnavailable]);
  });

  it('ignores a phone_number_id no chip has, and a filed chip', async () => {
    const { chip, admin } = await officialChip();
    await deliver(fromCustomer([{ id: wamid(), type: 'text', text: { body: 'Perdido' } }], '999000111'));
    expect(await storedMessages()).toEqual([]);
    await s.t.call('admin-update-chip', { _id: chip._id, filed: true }, admin);
    await deliver(fromCustomer([{ id: wamid(), type: 'text', text: { body: 'Arquivado' } }]));
    expect(await storedMessages()).toEqual([]);
  });

  it('statuses move our message forward (sent, delivered, read) and never back', async () => {
    const { owner, conversation } = await customerWrote();
    const manager = await listen(s.t, 'gerente@demo.com');
    const sent = await s.t.call(
      'send-conversation-message',
      { conversation_id: conversation.id, message_id: localId(), text: 'Olá, Maria!' },
      owner,
    );
    expect(sent).toMatchObject({
      status: MESSAGE_STATUS.sent,
      platform_message_id: expect.stringMatching(/^wamid\./),
    });
    const id = sent.platform_message_id ?? '';
    const status = async () =>
      (await s.t.server.services.db.select().from(messages).where(eq(messages.id, sent._id)))[0]?.status;

    await deliver(statuses([{ id, status: 'sent' }]));
    expect(await status()).toBe(MESSAGE_STATUS.sent);
    await deliver(statuses([{ id, status: 'delivered' }]));
    expect(await status()).toBe(MESSAGE_STATUS.delivered);
    await deliver(statuses([{ id, status: 'read' }]));
    expect(await status()).toBe(MESSAGE_STATUS.read);
    expect((await manager.next('message_read')).message).toMatchObject({ _id: sent._id, status: 4 });
    await deliver(
      statuses([
        { id, status: 'delivered' },
        { id, status: 'failed', errors: [{ code: 131026 }] },
      ]),
    );
    expect(await status()).toBe(MESSAGE_STATUS.read);
  });

  it('a failed status marks the message failed with the pt-BR reason of its error code', async () => {
    const { owner, conversation } = await customerWrote();
    const sent = await s.t.call(
      'send-conversation-message',
      { conversation_id: conversation.id, message_id: localId(), text: 'Ainda está aí?' },
      owner,
    );
    await deliver(
      statuses([
        {
          id: sent.platform_message_id,
          status: 'failed',
          errors: [{ code: 131047, title: 'Re-engagement message' }],
        },
      ]),
    );
    const [row] = await s.t.server.services.db.select().from(messages).where(eq(messages.id, sent._id));
    expect(row).toMatchObject({ status: MESSAGE_STATUS.failed, failure: texts.cloudApiReengagement });
  });
});

describe('sending', () => {
  it('sends a text (as a reply too) to the customer wa_id with the token', async () => {
    const { owner, conversation, inboundId } = await customerWrote();
    const [quoted] = await s.t.server.services.db
      .select()
      .from(messages)
      .where(eq(messages.platformMessageId, inboundId));
    const sent = await s.t.call(
      'send-conversation-message',
      {
        conversation_id: conversation.id,
        message_id: localId(),
        text: 'Tudo ótimo, e com você?',
        reply_message: quoted?.id,
      },
      owner,
    );
    const [call] = graph.to('/messages');
    expect(call?.path).toBe(`/${PHONE_NUMBER_ID}/messages`);
    expect(call?.headers.authorization).toBe(`Bearer ${graph.token}`);
    expect(call?.json).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: CUSTOMER.wa_id,
      context: { message_id: inboundId },
      type: 'text',
      text: { body: 'Tudo ótimo, e com você?' },
    });
    expect(sent.platform_message_id).toMatch(/^wamid\.FAKE/);
  });

  it("shows 'digitando…' with Meta's typing indicator on the customer's last message (a chatbot's or a flow's wait)", async () => {
    const { conversation, inboundId } = await customerWrote();
    await showTyping(s.t.server.services, conversation.id, 5);
    expect(graph.to('/messages').map((r) => r.json)).toEqual([
      {
        messaging_product: 'whatsapp',
        status: 'read',
        message_id: inboundId,
        typing_indicator: { type: 'text' },
      },
    ]);
    // Best effort: a Graph error is only logged, the caller's answer goes on.
    graph.failNext({ code: 131000, status: 500 });
    await expect(showTyping(s.t.server.services, conversation.id, 5)).resolves.toBeUndefined();
  });

  it('sends an image: uploads the file first, then sends it by media id with its caption', async () => {
    const { owner, conversation } = await customerWrote();
    const form = new FormData();
    form.append('type', 'image');
    form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'foto.png');
    const res = await fetch(`${s.t.url}/api/upload-file`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner}` },
      body: form,
    });
    const upload = (await res.json()) as { error: boolean; message: { url: string } };
    expect(upload.error).toBe(false);
    const sent = await s.t.call(
      'send-conversation-message',
      {
        conversation_id: conversation.id,
        message_id: localId(),
        text: 'Veja a foto',
        media: { type: 'image', url: upload.message.url, file_name: 'foto.png' },
      },
      owner,
    );
    expect(sent).toMatchObject({ status: MESSAGE_STATUS.sent, type: 'image' });
    const [uploaded] = graph.to('/media');
    expect(uploaded?.path).toBe(`/${PHONE_NUMBER_ID}/media`);
    expect(uploaded?.fields?.messaging_product).toBe('whatsapp');
    expect(uploaded?.fields?.type).toBe('image/png');
    expect(uploaded?.fields?.file).toMatchObject({ fileName: 'foto.png', type: 'image/png', bytes: PNG });
    const [call] = graph.to('/messages');
    expect(call?.json).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: CUSTOMER.wa_id,
      type: 'image',
      image: { id: expect.stringMatching(/^media-up-/), caption: 'Veja a foto' },
    });
  });

  it('sends a recorded audio as a voice note (audio.voice) and an audio file without the flag', async () => {
    const { owner, conversation } = await customerWrote();
    const form = new FormData();
    form.append('type', 'audio');
    form.append('file', new Blob([new Uint8Array(MP3)], { type: 'audio/mpeg' }), 'recado.mp3');
    const res = await fetch(`${s.t.url}/api/upload-file`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner}` },
      body: form,
    });
    const upload = (await res.json()) as { error: boolean; message: { url: string } };
    expect(upload.error).toBe(false);
    const send = (ptt: boolean) =>
      s.t.call(
        'send-conversation-message',
        {
          conversation_id: conversation.id,
          message_id: localId(),
          media: { type: 'audio', url: upload.message.url, file_name: 'recado.mp3', ptt },
        },
        owner,
      );
    const voice = await send(true);
    expect(voice).toMatchObject({ status: MESSAGE_STATUS.sent, type: 'audio', ptt: true });
    const file = await send(false);
    expect(file).toMatchObject({ status: MESSAGE_STATUS.sent, type: 'audio', ptt: false });
    const [voiceCall, fileCall] = graph.to('/messages');
    expect(voiceCall?.json).toMatchObject({
      type: 'audio',
      audio: { id: expect.stringMatching(/^media-up-/), voice: true },
    });
    expect(fileCall?.json).toMatchObject({ type: 'audio' });
    expect(fileCall?.json?.audio).not.toHaveProperty('voice');
    const [row] = await s.t.server.services.db.select().from(messages).where(eq(messages.id, voice._id));
    expect(row?.ptt).toBe(true);
    // Issue 34: the voice note was uploaded as Ogg/Opus (ffmpeg), the audio file as the MP3 it is.
    const [voiceUpload, fileUpload] = graph.to('/media').map((r) => r.fields?.file);
    if (typeof voiceUpload !== 'object' || typeof fileUpload !== 'object') throw new Error('no uploads');
    expect(voiceUpload.type).toBe('audio/ogg; codecs=opus');
    expect(voiceUpload.fileName).toBe('recado.ogg');
    expect(voiceUpload.bytes.subarray(0, 4).toString('latin1')).toBe('OggS');
    expect(voiceUpload.bytes.includes(Buffer.from('OpusHead'))).toBe(true);
    expect(fileUpload.type).toBe('audio/mpeg');
    expect(fileUpload.bytes.equals(MP3)).toBe(true);

    // Without ffmpeg the voice note still goes, as the MP3 (and the log says why, once).
    const config = s.t.server.services.config;
    const ffmpeg = config.FFMPEG_PATH;
    config.FFMPEG_PATH = '/nao/existe/ffmpeg';
    try {
      graph.clear();
      expect(await send(true)).toMatchObject({ status: MESSAGE_STATUS.sent, ptt: true });
      const part = graph.to('/media')[0]?.fields?.file;
      expect(typeof part === 'object' && part.type).toBe('audio/mpeg');
      expect(graph.to('/messages')[0]?.json).toMatchObject({ audio: { voice: true } });
    } finally {
      config.FFMPEG_PATH = ffmpeg;
    }
  });

  it('sends a template and a document with its file name (through the adapter)', async () => {
    await officialChip();
    const [chip] = await s.t.server.services.db.select().from(chips).where(eq(chips.official, true));
    if (!chip) throw new Error('no chip');
    const adapter = s.t.server.services.channels.cloudApi.adapter;
    const components = [{ type: 'body', parameters: [{ type: 'text', text: 'Maria' }] }];
    const template = await adapter.send(chip, CUSTOMER.wa_id, {
      type: 'template',
      name: 'boas_vindas',
      language: 'pt_BR',
      components,
      preview: 'Olá Maria, bem-vinda!',
    });
    expect(template.platformMessageId).toMatch(/^wamid\./);
    expect(graph.to('/messages')[0]?.json).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: CUSTOMER.wa_id,
      type: 'template',
      template: { name: 'boas_vindas', language: { code: 'pt_BR' }, components },
    });

    // The file is read from the media store by its URL.
    const pdf = await s.t.server.services.media.save(
      Buffer.from('%PDF-1.4\n%fake\n'),
      'pdf',
      'application/pdf',
    );
    await adapter.send(chip, CUSTOMER.wa_id, {
      type: 'document',
      url: pdf.url,
      mime: 'application/pdf',
      fileName: 'nota fiscal.pdf',
      caption: 'Sua nota',
    });
    expect(graph.to('/media')[0]?.fields?.file).toMatchObject({
      fileName: 'nota fiscal.pdf',
      bytes: Buffer.from('%PDF-1.4\n%fake\n'),
    });
    expect(graph.to('/messages')[1]?.json).toMatchObject({
      type: 'document',
      document: { id: expect.stringMatching(/^media-up-/), caption: 'Sua nota', filename: 'nota fiscal.pdf' },
    });
    // No contacts lookup on the Cloud API; deleting is only ours.
    expect(await adapter.checkPhone(chip, '5511912345678')).toEqual({ exists: true, id: '5511912345678' });
    await adapter.deleteMessage(chip, CUSTOMER.wa_id, 'wamid.X');
  });

  it("sends a flow's menu as interactive reply buttons or a list, never as its numbered text", async () => {
    await officialChip();
    const [chip] = await s.t.server.services.db.select().from(chips).where(eq(chips.official, true));
    if (!chip) throw new Error('no chip');
    const adapter = s.t.server.services.channels.cloudApi.adapter;
    const sent = await adapter.send(chip, CUSTOMER.wa_id, {
      type: 'interactive',
      body: 'Podemos confirmar?',
      menu: {
        kind: 'buttons',
        button: null,
        options: [
          { id: 'sim', title: 'Sim' },
          { id: 'nao', title: 'Não' },
        ],
      },
      text: 'Podemos confirmar?\n\n1. Sim\n2. Não',
    });
    expect(sent.platformMessageId).toMatch(/^wamid\./);
    await adapter.send(chip, CUSTOMER.wa_id, {
      type: 'interactive',
      body: 'Escolha um assunto',
      menu: {
        kind: 'list',
        button: 'Ver assuntos',
        options: [
          { id: 'fin', title: 'Financeiro', description: 'Boletos' },
          { id: 'sup', title: 'Suporte' },
        ],
      },
      text: 'Escolha um assunto\n\n1. Financeiro\n2. Suporte',
    });
    const [buttons, list] = graph.to('/messages').map((r) => r.json);
    expect(buttons).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: CUSTOMER.wa_id,
      type: 'interactive',
      interactive: {
        type: 'button',
        body: { text: 'Podemos confirmar?' },
        action: {
          buttons: [
            { type: 'reply', reply: { id: 'sim', title: 'Sim' } },
            { type: 'reply', reply: { id: 'nao', title: 'Não' } },
          ],
        },
      },
    });
    expect(list).toMatchObject({
      type: 'interactive',
      interactive: {
        type: 'list',
        body: { text: 'Escolha um assunto' },
        action: {
          button: 'Ver assuntos',
          sections: [
            {
              rows: [
                { id: 'fin', title: 'Financeiro', description: 'Boletos' },
                { id: 'sup', title: 'Suporte' },
              ],
            },
          ],
        },
      },
    });
  });

  it('a tap on a reply button or a list row is stored as the customer text of its title', async () => {
    const { chip } = await officialChip();
    await deliver(
      fromCustomer([
        {
          id: wamid(),
          type: 'interactive',
          interactive: { type: 'button_reply', button_reply: { id: 'sim', title: 'Sim' } },
        },
        {
          id: wamid(),
          type: 'interactive',
          interactive: {
            type: 'list_reply',
            list_reply: { id: 'fin', title: 'Financeiro', description: 'Boletos' },
          },
        },
      ]),
    );
    const rows = await storedMessages();
    expect(rows.map((m) => [m.origin, m.type, m.message, m.chipId])).toEqual([
      ['customer', 'text', 'Sim', chip._id],
      ['customer', 'text', 'Financeiro', chip._id],
    ]);
  });

  // Errors Meta calls transient (5xx, codes 1, 2…) and its rate limits make a send wait instead:
  // provider-outage.test.ts. A dropped connection may have been taken: not repeated, failed.
  it('a Graph error marks the message failed (-1) with the pt-BR reason', async () => {
    const { owner, conversation } = await customerWrote();
    const cases: [Parameters<FakeGraph['failNext']>[0], string][] = [
      [{ code: 131047 }, texts.cloudApiReengagement],
      [{ code: 131026 }, texts.cloudApiUndeliverable],
      [{ code: 190, status: 401 }, texts.cloudApiTokenInvalid],
      [{ code: 100 }, texts.cloudApiInvalidParameter],
      [{ code: 132001 }, texts.cloudApiTemplateMissing],
      [{ code: 135000 }, texts.cloudApiFailed(135000)],
      ['network', texts.cloudApiUnreachable],
    ];
    for (const [failure, reason] of cases) {
      graph.failNext(failure);
      const sent = await s.t.call(
        'send-conversation-message',
        { conversation_id: conversation.id, message_id: localId(), text: 'Olá?' },
        owner,
      );
      expect(sent, JSON.stringify(failure)).toMatchObject({
        status: MESSAGE_STATUS.failed,
        failure: reason,
        platform_message_id: null,
      });
    }
  });
});

describe('without the webhook secrets', () => {
  it('refuses every POST and the GET verification with 403', async () => {
    await officialChip();
    // The routes read the configuration on each request: unset here as a server started without them.
    const config = s.t.server.services.config;
    config.WHATSAPP_APP_SECRET = undefined;
    config.WHATSAPP_VERIFY_TOKEN = undefined;
    try {
      const body = fromCustomer([{ id: wamid(), type: 'text', text: { body: 'Oi' } }]);
      const post = await postWebhook(s.t.url, body, { secret: SECRET });
      expect(post).toEqual({ status: 403, body: { error: true, message: texts.webhookSignatureInvalid } });
      const get = await fetch(
        `${s.t.url}/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=&hub.challenge=1`,
      );
      expect(get.status).toBe(403);
      await s.t.server.services.channels.cloudApi.idle();
      expect(await storedMessages()).toEqual([]);
    } finally {
      config.WHATSAPP_APP_SECRET = SECRET;
      config.WHATSAPP_VERIFY_TOKEN = VERIFY_TOKEN;
    }
  });
});
