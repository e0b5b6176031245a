// The Baileys channel at Baileys' boundary: a fake socket (tests/fakes/baileys-socket.ts) emits what WhatsApp
// Web would, and the real adapter, pipeline and database take it from there. Nothing here reached a phone.
import type { WAMessage } from '@whiskeysockets/baileys';
import { and, eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeMp3 } from '@/app/widgets/media/audio/mp3-encoder';
import { createBaileysChannel } from '@/server/channels/baileys';
import { loadAuthState } from '@/server/channels/baileys/auth-state';
import { baileysRepo } from '@/server/channels/baileys/baileys.repo';
import { BAILEYS_MEDIA_JOB, retryBaileysMedia } from '@/server/channels/baileys/media-retry';
import { baileysAuth, baileysKeys, chips, contacts, conversations, messages } from '@/server/db/schema';
import { messages as texts } from '@/shared/messages';
import { baileysMessages as baileysTexts } from '@/shared/messages-baileys';
import { closeError, type FakeBaileysSocket, fakeBaileysFactory } from '../fakes/baileys-socket';
import { listen, until } from './channel-helpers';
import { startTestServer, testServerPerFile } from './helpers';

const ENV = {
  CHANNEL_QR_PROVIDER: 'baileys',
  BAILEYS_SEND_GAP_MS: '150',
  BAILEYS_TYPING_MS: '20',
  // Short for the takeover tests, long enough that a loaded 2-core CI run renews it in time (every third).
  BAILEYS_LEASE_SECONDS: '3',
  BAILEYS_QR_TIMEOUT_SECONDS: '2',
};
/** What WhatsApp does when a socket is made; a test may change it. */
let script: (sock: FakeBaileysSocket) => void = () => undefined;
const defaultScript = (sock: FakeBaileysSocket) => {
  if (sock.creds.registered) sock.open();
  else sock.qr();
};
const fake = fakeBaileysFactory((sock) => script(sock));
const s = testServerPerFile(ENV, { baileysSocketFactory: fake.factory, processId: 'process-a' });
afterEach(() => {
  script = defaultScript;
});
script = defaultScript;

const db = () => s.t.server.services.db;
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
let seq = 0;
const waId = () => `3EB0${Date.now().toString(16).toUpperCase()}${(seq++).toString(16).toUpperCase()}`;
const nowS = () => Math.floor(Date.now() / 1000);

/** A customer's message as Baileys 7 delivers it. */
function wa(
  from: string,
  message: WAMessage['message'],
  extra: Partial<WAMessage['key']> = {},
  id = waId(),
): WAMessage {
  return {
    key: { remoteJid: from, fromMe: false, id, ...extra },
    message,
    messageTimestamp: nowS() + seq,
    pushName: 'Maria Cliente',
  } as WAMessage;
}

/** A Baileys chip created and connected as a user does: Conectar, the QR code, the phone scans. */
async function connectedChip(name = 'Número QR') {
  const owner = await s.t.login('dono@demo.com');
  const events = await listen(s.t, 'dono@demo.com');
  const chip = await s.t.call(
    'create-or-update-chip',
    { name, redirect: 'human', department: s.seed.departments.support },
    owner,
  );
  expect(chip.provider).toBe('baileys');
  await s.t.call('connect-chip', { _id: chip._id, connect: true }, owner);
  const qr = await events.next('qrcode');
  const sock = fake.last();
  sock.scan();
  const status = await events.next('status');
  return { owner, events, chip, sock, qr: qr.message, status: status.message };
}

const chipRow = async (id: string) => (await db().select().from(chips).where(eq(chips.id, id)))[0];
const idle = () => s.t.server.services.channels.baileys.idle();

describe('Baileys connection', () => {
  it('connect shows the QR code (and its rotations) over the socket, then the phone scans and the chip is open', async () => {
    const owner = await s.t.login('dono@demo.com');
    const events = await listen(s.t, 'dono@demo.com');
    const chip = await s.t.call(
      'create-or-update-chip',
      { name: 'QR', redirect: 'human', department: s.seed.departments.support },
      owner,
    );
    await s.t.call('connect-chip', { _id: chip._id, connect: true }, owner);
    const first = await events.next('qrcode');
    expect((await chipRow(chip._id))?.status).toBe('connecting');
    const sock = fake.last();
    const rotated = sock.qr('2@rotated-code');
    expect((await events.next('qrcode')).message).toBe(rotated);
    expect(first.message).not.toBe(rotated);
    sock.scan('5511977776666');
    const status = await events.next('status');
    expect(status).toMatchObject({ chip_number_id: chip._id, message: 'open' });
    const row = await chipRow(chip._id);
    expect(row).toMatchObject({ status: 'open', qrcode: null, displayPhoneNumber: '5511977776666' });
    // The login is in the database, not in files.
    await until(
      async () => (await db().select().from(baileysAuth).where(eq(baileysAuth.chipId, chip._id)))[0],
    );
    const saved = await loadAuthState(db(), chip._id);
    expect(saved.resumed).toBe(true);
    expect(saved.state.creds.me?.id).toBe('5511977776666:1@s.whatsapp.net');
  });

  it('signal keys are written in one transaction and read back as they were; null removes one', async () => {
    const { chip } = await connectedChip();
    const { state } = await loadAuthState(db(), chip._id);
    await state.keys.set({
      session: { 'a.0': new Uint8Array([1, 2, 3]), 'b.0': new Uint8Array([4]) },
      'lid-mapping': { '5511': '99887766' },
    });
    expect(await state.keys.get('session', ['a.0', 'b.0', 'missing'])).toEqual({
      'a.0': Buffer.from([1, 2, 3]),
      'b.0': Buffer.from([4]),
    });
    await state.keys.set({ session: { 'a.0': null } });
    expect(Object.keys(await state.keys.get('session', ['a.0', 'b.0']))).toEqual(['b.0']);
  });

  it('a QR code never scanned times out to Desconectado', async () => {
    const owner = await s.t.login('dono@demo.com');
    const events = await listen(s.t, 'dono@demo.com');
    const chip = await s.t.call(
      'create-or-update-chip',
      { name: 'Sem leitura', redirect: 'human', department: s.seed.departments.support },
      owner,
    );
    await s.t.call('connect-chip', { _id: chip._id, connect: true }, owner);
    await events.next('qrcode');
    const status = await events.next('status', 4000);
    expect(status).toMatchObject({ message: 'close', reason: baileysTexts.qrTimeout });
    expect(fake.last().ended).toBe(true);
    // Given back at once, not left to run out (3 s): also when a renewal was on its way as the session ended.
    await until(async () => (await baileysRepo.leaseHolder(db(), chip._id)) === null, 1000);
  });

  it('logout on the phone (401): status close with a clear message, the credentials cleared', async () => {
    const { chip, sock, events } = await connectedChip();
    await until(
      async () => (await db().select().from(baileysAuth).where(eq(baileysAuth.chipId, chip._id)))[0],
    );
    sock.close(401);
    const status = await events.next('status');
    expect(status).toMatchObject({ message: 'close', reason: baileysTexts.loggedOut });
    expect(await db().select().from(baileysAuth).where(eq(baileysAuth.chipId, chip._id))).toEqual([]);
    expect(await db().select().from(baileysKeys).where(eq(baileysKeys.chipId, chip._id))).toEqual([]);
    expect((await chipRow(chip._id))?.status).toBe('close');
    // The chips list says why, until the chip opens again.
    const owner = await s.t.login('dono@demo.com');
    const listed = (await s.t.call('get-chip-numbers-by-user', {}, owner)).find((c) => c._id === chip._id);
    expect(listed).toMatchObject({ status: 'close', status_reason: baileysTexts.loggedOut });
  });

  it('a network loss reconnects with backoff and the chip comes back open without a QR', async () => {
    const { chip, sock, events } = await connectedChip();
    const made = fake.sockets.length;
    sock.close(408);
    expect((await events.next('status')).message).toBe('connecting');
    expect((await events.next('status', 4000)).message).toBe('open');
    expect(fake.sockets.length).toBe(made + 1);
    expect(events.events.filter((e) => e.type === 'qrcode')).toEqual([]);
    expect((await chipRow(chip._id))?.status).toBe('open');
  });

  it('disconnect keeps the session (Conectar resumes it); reset clears it and asks for a new QR', async () => {
    const { chip, owner, events } = await connectedChip();
    await s.t.call('connect-chip', { _id: chip._id, connect: false }, owner);
    expect((await events.next('status')).message).toBe('close');
    await s.t.call('connect-chip', { _id: chip._id, connect: true }, owner);
    expect((await events.next('status')).message).toBe('open');
    expect(events.events.filter((e) => e.type === 'qrcode')).toEqual([]);
    const sock = fake.last();
    await s.t.call('reset-chip-connection', { _id: chip._id }, owner);
    expect(sock.loggedOut).toBe(true);
    expect(await db().select().from(baileysAuth).where(eq(baileysAuth.chipId, chip._id))).toEqual([]);
    await s.t.call('connect-chip', { _id: chip._id, connect: true }, owner);
    await events.next('qrcode');
  });

  it('a corrupted credentials row starts a new session (a QR) instead of failing', async () => {
    const { chip, owner, events } = await connectedChip();
    await s.t.call('connect-chip', { _id: chip._id, connect: false }, owner);
    await events.next('status');
    await db()
      .update(baileysAuth)
      .set({ creds: '{"noiseKey": {"private": ' })
      .where(eq(baileysAuth.chipId, chip._id));
    await s.t.call('connect-chip', { _id: chip._id, connect: true }, owner);
    await events.next('qrcode');
    await db()
      .update(baileysAuth)
      .set({ creds: '{"registered": true}' })
      .where(eq(baileysAuth.chipId, chip._id));
    const partial = await loadAuthState(db(), chip._id);
    expect(partial.resumed).toBe(false);
  });

  it('pairing by phone number code instead of the QR', async () => {
    const owner = await s.t.login('dono@demo.com');
    const chip = await s.t.call(
      'create-or-update-chip',
      { name: 'Código', redirect: 'human', department: s.seed.departments.support },
      owner,
    );
    const { code } = await s.t.call(
      'request-pairing-code',
      { _id: chip._id, phone: '+55 11 98888-7777' },
      owner,
    );
    expect(code).toBe('FAKE7777');
    expect(fake.last().pairingCodes).toEqual(['FAKE7777']);
    const bad = await s.t.post('request-pairing-code', { _id: chip._id, phone: '12' }, owner);
    expect(bad.body).toEqual({ error: true, message: baileysTexts.pairingPhoneInvalid });
  });

  it('two processes, one holder: the second does not open the socket until the first dies and its lease runs out', async () => {
    const { chip } = await connectedChip();
    const other = fakeBaileysFactory((sock) => sock.open());
    const b = createBaileysChannel({
      sink: s.t.server.services.channels.sink,
      services: () => s.t.server.services,
      socketFactory: other.factory,
      processId: 'process-b',
    });
    try {
      const row = await chipRow(chip._id);
      if (!row) throw new Error('chip missing');
      await b.adapter.start?.([row]);
      await expect(b.adapter.connect(row)).rejects.toThrow(baileysTexts.heldElsewhere);
      await new Promise((r) => setTimeout(r, 3500)); // longer than the lease: process A renews it
      expect(other.sockets).toHaveLength(0);
      expect(await baileysRepo.leaseHolder(db(), chip._id)).toBe('process-a');
      // Process A dies: nothing renews its lease; B takes the chip over once it has run out.
      s.t.server.services.channels.baileys.abandon(chip._id);
      await until(() => other.sockets.length === 1, 10_000);
      expect(await baileysRepo.leaseHolder(db(), chip._id)).toBe('process-b');
      // It resumed the saved login: no QR code.
      expect(other.sockets[0]?.creds.registered).toBe(true);
    } finally {
      await b.adapter.stop?.();
    }
  });
});

describe('Baileys messages', () => {
  it('@lid and phone-number messages of one person land in one contact and one conversation', async () => {
    const { chip, sock } = await connectedChip();
    const phone = '5511999990001';
    sock.lids.set('777000111@lid', `${phone}@s.whatsapp.net`);
    sock.upsert([wa(`${phone}@s.whatsapp.net`, { conversation: 'Oi pelo número' })]);
    sock.upsert([
      wa(
        '555000222@lid',
        { conversation: 'Oi pelo lid com alt' },
        { remoteJidAlt: `${phone}@s.whatsapp.net` },
      ),
    ]);
    sock.upsert([wa('777000111@lid', { conversation: 'Oi pelo lid mapeado' })]);
    await idle();
    const rows = await db()
      .select({ phone: contacts.phone, conversation: messages.conversationId, text: messages.message })
      .from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .innerJoin(contacts, eq(contacts.id, conversations.contactId))
      .where(eq(messages.chipId, chip._id));
    expect(rows.map((r) => r.text).sort()).toEqual([
      'Oi pelo lid com alt',
      'Oi pelo lid mapeado',
      'Oi pelo número',
    ]);
    expect(new Set(rows.map((r) => r.phone))).toEqual(new Set([phone]));
    expect(new Set(rows.map((r) => r.conversation)).size).toBe(1);
  });

  it('each message type is stored as the team sees it; groups and status broadcasts are ignored', async () => {
    const { chip, sock } = await connectedChip();
    const jid = '5511999990002@s.whatsapp.net';
    const first = wa(jid, { conversation: 'Primeira' });
    const image = wa(jid, {
      imageMessage: { caption: 'Foto', mimetype: 'image/png', fileLength: PNG.length },
    });
    const voice = wa(jid, { audioMessage: { mimetype: 'audio/ogg; codecs=opus', ptt: true, fileLength: 4 } });
    const video = wa(jid, { videoMessage: { mimetype: 'video/mp4', caption: 'Vídeo', fileLength: 5 } });
    const doc = wa(jid, {
      documentMessage: { mimetype: 'application/pdf', fileName: 'nota.pdf', caption: 'Nota', fileLength: 8 },
    });
    const sticker = wa(jid, { stickerMessage: { mimetype: 'image/webp', fileLength: 3 } });
    sock.media.set(image.key.id ?? '', PNG);
    sock.media.set(voice.key.id ?? '', Buffer.from('OggS'));
    sock.media.set(video.key.id ?? '', Buffer.from('video'));
    sock.media.set(doc.key.id ?? '', Buffer.from('%PDF-1.4'));
    sock.media.set(sticker.key.id ?? '', Buffer.from('RIFF'));
    const location = wa(jid, {
      locationMessage: { degreesLatitude: -23.5, degreesLongitude: -46.6, name: 'Loja', address: 'Rua A, 1' },
    });
    const contact = wa(jid, {
      contactMessage: {
        displayName: 'Ana',
        vcard: 'BEGIN:VCARD\nFN:Ana\nTEL;type=CELL;waid=5511911112222:+55 11 91111-2222\nEND:VCARD',
      },
    });
    const reaction = wa(jid, { reactionMessage: { key: { id: first.key.id, remoteJid: jid }, text: '👍' } });
    const reply = wa(jid, {
      extendedTextMessage: { text: 'Respondendo', contextInfo: { stanzaId: first.key.id } },
    });
    const group = wa('120363000000000000@g.us', { conversation: 'No grupo' }, { participant: jid });
    const status = wa('status@broadcast', { conversation: 'Status' }, { participant: jid });
    sock.upsert([
      first,
      image,
      voice,
      video,
      doc,
      sticker,
      location,
      contact,
      reaction,
      reply,
      group,
      status,
    ]);
    await idle();
    const rows = await db().select().from(messages).where(eq(messages.chipId, chip._id));
    const by = (id: string | null | undefined) => rows.find((r) => r.platformMessageId === id);
    expect(rows).toHaveLength(10);
    expect(by(first.key.id)).toMatchObject({ type: 'text', message: 'Primeira', origin: 'customer' });
    expect(by(image.key.id)).toMatchObject({ type: 'image', message: 'Foto' });
    expect(by(image.key.id)?.mediaUrl).toMatch(/^\/media\//);
    expect(by(voice.key.id)).toMatchObject({ type: 'audio', ptt: true });
    expect(by(video.key.id)).toMatchObject({ type: 'video', message: 'Vídeo' });
    expect(by(doc.key.id)).toMatchObject({ type: 'document', fileName: 'nota.pdf', message: 'Nota' });
    expect(by(sticker.key.id)).toMatchObject({ type: 'image' });
    expect(by(location.key.id)).toMatchObject({
      type: 'location',
      location: { latitude: -23.5, longitude: -46.6, name: 'Loja' },
    });
    expect(by(contact.key.id)).toMatchObject({ type: 'contact', message: 'Ana: 5511911112222' });
    expect(by(reaction.key.id)).toMatchObject({
      message: texts.cloudApiReaction('👍'),
      replyMessage: { message: 'Primeira' },
    });
    expect(by(reply.key.id)).toMatchObject({ message: 'Respondendo', replyMessage: { message: 'Primeira' } });
    // Stored in WhatsApp's order.
    const order = rows
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
      .map((r) => r.platformMessageId);
    expect(order[0]).toBe(first.key.id);
    expect(order.at(-1)).toBe(reply.key.id);
  });

  it('edits and deletes-for-everyone change the stored message; a duplicate upsert stores nothing twice', async () => {
    const { chip, sock } = await connectedChip();
    const jid = '5511999990003@s.whatsapp.net';
    const m = wa(jid, { conversation: 'Texto original' });
    sock.upsert([m]);
    sock.upsert([m]);
    await idle();
    sock.emit('messages.update', [
      { key: m.key, update: { message: { editedMessage: { message: { conversation: 'Texto editado' } } } } },
    ]);
    await idle();
    const read = async () =>
      await db()
        .select()
        .from(messages)
        .where(eq(messages.platformMessageId, m.key.id ?? ''));
    expect((await read()).map((r) => r.message)).toEqual(['Texto editado']);
    // The protocol message form (as it also arrives in messages.upsert) for the delete.
    sock.upsert([wa(jid, { protocolMessage: { type: 0, key: { id: m.key.id, remoteJid: jid } } })]);
    await idle();
    expect((await read())[0]?.deleted).toBe(true);
    sock.upsert([m]);
    await idle();
    expect(await read()).toHaveLength(1);
    const count = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(messages)
      .where(eq(messages.chipId, chip._id));
    expect(count[0]?.n).toBe(1);
  });

  it('a failed media download is stored as a notice with a retry queued; a 100 MB video is refused by size', async () => {
    const { chip, sock } = await connectedChip();
    const jid = '5511999990004@s.whatsapp.net';
    const lost = wa(jid, { imageMessage: { mimetype: 'image/png', caption: 'Perdida', fileLength: 10 } });
    const huge = wa(jid, { videoMessage: { mimetype: 'video/mp4', fileLength: 100 * 1024 * 1024 } });
    sock.upsert([lost, huge]);
    await idle();
    const rows = await db().select().from(messages).where(eq(messages.chipId, chip._id));
    const lostRow = rows.find((r) => r.platformMessageId === lost.key.id);
    expect(lostRow).toMatchObject({ type: 'text', message: `${texts.cloudApiMediaUnavailable}\nPerdida` });
    expect(rows.find((r) => r.platformMessageId === huge.key.id)?.message).toBe(
      baileysTexts.mediaTooLarge(64),
    );
    const jobs = (await s.t.server.services.db.execute(
      sql`select data from pgboss.job where name = ${BAILEYS_MEDIA_JOB}`,
    )) as unknown as { rows: { data: Parameters<typeof retryBaileysMedia>[1] }[] };
    const queued = (jobs.rows as { data: { platformMessageId: string } }[]).map(
      (j) => j.data.platformMessageId,
    );
    expect(queued).toContain(lost.key.id);
    // The retry, once the file can be had: the notice becomes the image.
    sock.media.set(lost.key.id ?? '', PNG);
    const job = jobs.rows.find((j) => j.data.platformMessageId === lost.key.id)?.data;
    if (!job) throw new Error('no job');
    await retryBaileysMedia(s.t.server.services, job);
    const [after] = await db()
      .select()
      .from(messages)
      .where(eq(messages.platformMessageId, lost.key.id ?? ''));
    expect(after).toMatchObject({ type: 'image', message: 'Perdida' });
  });

  it('outbound: text with typing and the per-chip gap, voice notes as push-to-talk, replies, deletes, receipts 3 and 4', async () => {
    const { chip, sock } = await connectedChip();
    const jid = '5511999990005@s.whatsapp.net';
    const first = wa(jid, { conversation: 'Quero falar' });
    sock.upsert([first]);
    await idle();
    const [conversation] = await db().select().from(conversations).where(eq(conversations.chipId, chip._id));
    if (!conversation) throw new Error('no conversation');
    const agent = await s.t.login('atendente@demo.com');
    const [customerMsg] = await db()
      .select()
      .from(messages)
      .where(eq(messages.platformMessageId, first.key.id ?? ''));
    const a = await s.t.call(
      'send-conversation-message',
      {
        conversation_id: conversation.id,
        message_id: `bl${waId()}`.slice(0, 28),
        text: 'Olá!',
        reply_message: customerMsg?.id,
      },
      agent,
    );
    const b = await s.t.call(
      'send-conversation-message',
      { conversation_id: conversation.id, message_id: `bm${waId()}`.slice(0, 28), text: 'Segunda' },
      agent,
    );
    expect([a.status, b.status]).toEqual([1, 1]);
    expect(sock.sent.map((m) => m.jid)).toEqual([jid, jid]);
    expect(sock.sent[0]?.content).toEqual({ text: 'Olá!' });
    expect(sock.sent[0]?.options?.quoted?.key).toMatchObject({ id: first.key.id, fromMe: false });
    expect((sock.sent[1]?.at ?? 0) - (sock.sent[0]?.at ?? 0)).toBeGreaterThanOrEqual(140);
    expect(sock.presences.filter((p) => p.type === 'composing')).toHaveLength(2);
    expect(a.platform_message_id).toBe(sock.sent[0]?.options?.messageId);
    // Receipts: delivered (3) from messages.update, read (4) from message-receipt.update.
    sock.emit('messages.update', [
      { key: { remoteJid: jid, fromMe: true, id: a.platform_message_id }, update: { status: 3 } },
    ]);
    await until(
      async () => (await db().select().from(messages).where(eq(messages.id, a._id)))[0]?.status === 3,
    );
    sock.emit('message-receipt.update', [
      {
        key: { remoteJid: jid, fromMe: true, id: a.platform_message_id },
        receipt: { userJid: jid, readTimestamp: nowS() },
      },
    ]);
    await until(
      async () => (await db().select().from(messages).where(eq(messages.id, a._id)))[0]?.status === 4,
    );
    // Delete for everyone.
    await s.t.call('delete-conversation-message', { _id: b._id }, agent);
    await until(() => sock.sent.length === 3);
    expect(sock.sent[2]?.content).toEqual({
      delete: { remoteJid: jid, fromMe: true, id: b.platform_message_id },
    });
    // A voice note goes as push-to-talk; the file is read from our media store.
    const adapter = s.t.server.services.channels.adapter((await chipRow(chip._id)) as never);
    const voice = Buffer.from('OggS voice');
    const file = await s.t.server.services.media.save(voice, 'ogg', 'audio/ogg');
    const row = await chipRow(chip._id);
    if (!row) throw new Error('no chip');
    await adapter.send(row, '5511999990005', {
      type: 'audio',
      url: file.url,
      mime: 'audio/ogg',
      fileName: 'voz.ogg',
      voice: true,
    });
    expect(sock.sent[3]?.content).toMatchObject({ audio: voice, ptt: true, mimetype: 'audio/ogg' });
    // A recorded MP3 goes as Ogg/Opus push-to-talk (ffmpeg), as WhatsApp shows voice notes (issue 34).
    const mp3 = Buffer.from(
      encodeMp3(
        new Float32Array(44100).map((_, i) => Math.sin(i / 10) / 2),
        44100,
      ),
    );
    const recorded = await s.t.server.services.media.save(mp3, 'mp3', 'audio/mpeg');
    await adapter.send(row, '5511999990005', {
      type: 'audio',
      url: recorded.url,
      mime: 'audio/mpeg',
      fileName: 'recado.mp3',
      voice: true,
    });
    await until(() => sock.sent.length === 5);
    const sent = sock.sent[4]?.content as { audio: Buffer; mimetype: string; ptt: boolean };
    expect(sent).toMatchObject({ ptt: true, mimetype: 'audio/ogg; codecs=opus' });
    expect(sent.audio.subarray(0, 4).toString('latin1')).toBe('OggS');
  });

  it('WhatsApp closing the socket mid-send: retried once with the same message id, never sent twice', async () => {
    const { chip, sock } = await connectedChip();
    sock.failNextSends.push(closeError(428));
    const row = await chipRow(chip._id);
    if (!row) throw new Error('no chip');
    const adapter = s.t.server.services.channels.adapter(row);
    const sent = await adapter.send(row, '5511999990006', { type: 'text', text: 'Uma vez' });
    expect(sock.sent).toHaveLength(1);
    expect(sock.sent[0]?.options?.messageId).toBe(sent.platformMessageId);
    // Two closes in a row: the send fails with a reason, and nothing went out.
    sock.failNextSends.push(closeError(428), closeError(428));
    await expect(adapter.send(row, '5511999990006', { type: 'text', text: 'Falha' })).rejects.toThrow(
      texts.providerFailed,
    );
    expect(sock.sent).toHaveLength(1);
  });
});

describe('Baileys session dropping (issue 35 item 3)', () => {
  it("while the session is away the team's sends wait as enviando; once it is back each goes once, in order, with an id fixed by the send; what the customer wrote meanwhile, replayed by WhatsApp, is stored once", async () => {
    const { chip, sock, owner, events } = await connectedChip();
    const phone = '5511999990007';
    sock.upsert([wa(`${phone}@s.whatsapp.net`, { conversation: 'Oi antes da queda' })]);
    await idle();
    const [conversation] = await db().select().from(conversations).where(eq(conversations.chipId, chip._id));
    if (!conversation) throw new Error('no conversation');
    // The network drops; WhatsApp's next socket opens only when this test says so.
    const made = fake.sockets.length;
    script = () => undefined;
    sock.close(408);
    expect((await events.next('status')).message).toBe('connecting');
    const typed = ['Um', 'Dois', 'Três'];
    for (const [i, text] of typed.entries()) {
      const answer = await s.t.call(
        'send-conversation-message',
        { conversation_id: conversation.id, message_id: `drop-send-000${i}`, text },
        owner,
      );
      expect(answer, text).toMatchObject({ status: 0, failure: null });
    }
    await until(() => fake.sockets.length > made, 10_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(sock.sent).toEqual([]);
    // Back: the customer's message written meanwhile arrives, and again (WhatsApp replays what it delivered
    // to a session that went away).
    const back = fake.last();
    back.open();
    expect((await events.next('status', 5000)).message).toBe('open');
    const meanwhile = wa(`${phone}@s.whatsapp.net`, { conversation: 'Escrevi enquanto caiu' });
    back.upsert([meanwhile]);
    back.upsert([meanwhile]);
    await until(() => back.sent.length === 3, 15_000);
    await idle();
    await new Promise((r) => setTimeout(r, 500));
    expect(back.sent.map((x) => (x.content as { text: string }).text)).toEqual(typed);
    const rows = await db()
      .select()
      .from(messages)
      .where(eq(messages.conversationId, conversation.id))
      .orderBy(messages.createdAt, messages.id);
    const sent = rows.filter((m) => m.origin === 'user');
    expect(sent.map((m) => [m.message, m.status, m.failure])).toEqual(typed.map((t) => [t, 1, null]));
    expect(sent.map((m) => m.platformMessageId)).toEqual(back.sent.map((x) => x.options?.messageId));
    expect(rows.filter((m) => m.message === 'Escrevi enquanto caiu')).toHaveLength(1);
  });
});

describe('Baileys restart', () => {
  it('a restart resumes the session from the database without a new QR', async () => {
    const first = fakeBaileysFactory(defaultScript);
    const dir = await (await import('node:fs/promises')).mkdtemp(
      (await import('node:path')).join((await import('node:os')).tmpdir(), 'painel-baileys-'),
    );
    const a = await startTestServer(ENV, dir, { baileysSocketFactory: first.factory, processId: 'before' });
    const seed = await a.reset();
    const owner = await a.login('dono@demo.com');
    const events = await listen(a, 'dono@demo.com');
    const chip = await a.call(
      'create-or-update-chip',
      { name: 'Reinício', redirect: 'human', department: seed.departments.support },
      owner,
    );
    await a.call('connect-chip', { _id: chip._id, connect: true }, owner);
    await events.next('qrcode');
    first.last().scan('5511955554444');
    expect((await events.next('status')).message).toBe('open');
    await until(
      async () =>
        (await a.server.services.db.select().from(baileysAuth).where(eq(baileysAuth.chipId, chip._id)))[0],
    );
    await a.close({ keepDatabase: true });

    const second = fakeBaileysFactory(defaultScript);
    const b = await startTestServer({ ...ENV, ...(a.databaseUrl && { DATABASE_URL: a.databaseUrl }) }, dir, {
      baileysSocketFactory: second.factory,
      processId: 'after',
    });
    try {
      await until(() => second.sockets.length === 1, 15_000);
      const sock = second.last();
      expect(sock.creds.me?.id).toBe('5511955554444:1@s.whatsapp.net');
      await until(async () => {
        const [row] = await b.server.services.db.select().from(chips).where(eq(chips.id, chip._id));
        return row?.status === 'open' && row.qrcode === null;
      });
      // A message that arrives after the restart is handled.
      sock.upsert([wa('5511999990007@s.whatsapp.net', { conversation: 'Depois do reinício' })]);
      await b.server.services.channels.baileys.idle();
      const stored = await b.server.services.db
        .select()
        .from(messages)
        .where(and(eq(messages.chipId, chip._id), eq(messages.message, 'Depois do reinício')));
      expect(stored).toHaveLength(1);
    } finally {
      await b.close();
      await (await import('node:fs/promises')).rm(dir, { recursive: true, force: true });
    }
  });
});
