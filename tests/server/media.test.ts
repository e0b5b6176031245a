// The media library: upload checked by content (magic bytes) and size (MEDIA_MAX_MB), a required name,
// generated stored names, list by type, delete scoped to the account.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeMp3 } from '@/app/widgets/media/audio/mp3-encoder';
import type { Envelope } from '@/shared/contract';
import type { LibraryMedia } from '@/shared/contract/media';
import { messages as texts } from '@/shared/messages';
import { connected, connectedSimulatorChip, listen, simulatorSocket, until } from './channel-helpers';
import { statusOf, testServerPerFile } from './helpers';

const PHONE = '5511987654321';

// A 2 MB limit keeps the over-the-limit file small.
const s = testServerPerFile({ MEDIA_MAX_MB: '2' });

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const MP3 = Buffer.from(
  encodeMp3(
    new Float32Array(44100).map((_, i) => Math.sin(i / 10) / 2),
    44100,
  ),
);

async function upload(token: string, fields: Record<string, string>, file?: { data: Buffer; name: string }) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append('file', new Blob([new Uint8Array(file.data)]), file.name);
  const res = await fetch(`${s.t.url}/api/upload-media`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as Envelope<LibraryMedia> };
}

describe('upload-media', () => {
  it('stores a named image under a generated name, lists it by type, deletes it with its file', async () => {
    const agent = await s.t.login('atendente@demo.com');
    const ok = await upload(agent, { type: 'image', name: 'Cardápio' }, { data: PNG, name: '../../etc.png' });
    expect(ok.body.error).toBe(false);
    const item = ok.body.message as LibraryMedia;
    expect(item).toMatchObject({
      type: 'image',
      name: 'Cardápio',
      mime: 'image/png',
      size: PNG.length,
      ptt: false,
    });
    expect(item.url).toMatch(/^\/media\/[0-9a-z]{28}\.png$/);
    const file = path.join(s.t.dataDir, 'media', path.basename(item.url));
    expect(existsSync(file)).toBe(true);
    expect(await statusOf(`${s.t.url}${item.url}`)).toBe(200);

    expect(await s.t.call('get-medias-by-user', { type: 'image' }, agent)).toEqual([item]);
    expect(await s.t.call('get-medias-by-user', { type: 'audio' }, agent)).toEqual([]);
    // Another account sees nothing of it and cannot delete it.
    const other = await s.t.login('admin@demo.com');
    expect(await s.t.call('get-medias-by-user', {}, other)).toEqual([]);
    expect((await s.t.post('delete-media', { _id: item._id }, other)).body).toEqual({
      error: true,
      message: texts.notFound,
    });

    expect(await s.t.call('delete-media', { _id: item._id }, agent)).toEqual({ _id: item._id });
    expect(await s.t.call('get-medias-by-user', {}, agent)).toEqual([]);
    expect(existsSync(file)).toBe(false);
  });

  it('keeps the ptt flag of a recorded MP3, only for audio', async () => {
    const agent = await s.t.login('atendente@demo.com');
    const voice = await upload(
      agent,
      { type: 'audio', name: 'Boas-vindas', ptt: 'true' },
      { data: MP3, name: 'a.mp3' },
    );
    expect(voice.body).toMatchObject({
      error: false,
      message: { type: 'audio', mime: 'audio/mpeg', ptt: true },
    });
    const picture = await upload(
      agent,
      { type: 'image', name: 'Logo', ptt: 'true' },
      { data: PNG, name: 'l.png' },
    );
    expect(picture.body).toMatchObject({ error: false, message: { ptt: false } });
  });

  it('refuses by content, not by name: wrong magic bytes, the wrong type, an audio that is not MP3', async () => {
    const agent = await s.t.login('atendente@demo.com');
    const refused = { error: true, message: texts.mediaLibraryType };
    // Text renamed .png, a PNG offered as a document, a PNG renamed .mp3.
    expect(
      (await upload(agent, { type: 'image', name: 'x' }, { data: Buffer.from('olá'), name: 'x.png' })).body,
    ).toEqual(refused);
    expect((await upload(agent, { type: 'document', name: 'x' }, { data: PNG, name: 'x.pdf' })).body).toEqual(
      refused,
    );
    expect((await upload(agent, { type: 'audio', name: 'x' }, { data: PNG, name: 'x.mp3' })).body).toEqual(
      refused,
    );
    // An Ogg voice note is sendable in a conversation, but the library keeps audio as MP3 only.
    const ogg = Buffer.concat([
      Buffer.from('OggS\0\x02'),
      Buffer.alloc(22),
      Buffer.from('\x01\x1evorbis'),
      Buffer.alloc(40),
    ]);
    expect((await upload(agent, { type: 'audio', name: 'x' }, { data: ogg, name: 'x.ogg' })).body).toEqual(
      refused,
    );
    expect(await s.t.call('get-medias-by-user', {}, agent)).toEqual([]);
  });

  it('reads an Ogg/Opus voice note (WhatsApp’s) as audio/ogg stored in a .ogg file', async () => {
    const opus = Buffer.concat([
      Buffer.from('OggS\0\x02'),
      Buffer.alloc(22),
      Buffer.from('OpusHead'),
      Buffer.alloc(40),
    ]);
    const store = s.t.server.services.media;
    expect(await store.classify(opus, 'voz')).toEqual({ kind: 'audio', mime: 'audio/ogg', ext: 'ogg' });
    expect(await store.sniff(opus, ['audio/ogg'])).toEqual({ mime: 'audio/ogg', ext: 'ogg' });
  });

  it('refuses a missing name or file, and a file over MEDIA_MAX_MB, with the spec’s messages', async () => {
    const agent = await s.t.login('atendente@demo.com');
    expect((await upload(agent, { type: 'image' }, { data: PNG, name: 'x.png' })).body).toEqual({
      error: true,
      message: texts.mediaNameRequired,
    });
    expect((await upload(agent, { type: 'image', name: '   ' }, { data: PNG, name: 'x.png' })).body).toEqual({
      error: true,
      message: texts.mediaNameRequired,
    });
    expect((await upload(agent, { type: 'image', name: 'x' })).body.error).toBe(true);
    expect(
      (await upload(agent, { type: 'image', name: 'x' }, { data: Buffer.alloc(0), name: 'x.png' })).body,
    ).toEqual({
      error: true,
      message: texts.fileRequired,
    });
    const big = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]);
    const tooBig = await upload(agent, { type: 'image', name: 'Grande' }, { data: big, name: 'g.png' });
    expect(tooBig).toEqual({ status: 413, body: { error: true, message: texts.mediaTooLarge(2) } });
    // Just under the limit passes: the limit is the configured one, not the default 16 MB.
    const under = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024 - PNG.length - 1)]);
    expect(
      (await upload(agent, { type: 'image', name: 'Quase' }, { data: under, name: 'q.png' })).body.error,
    ).toBe(false);
    // The attachments' upload-file has the same configured limit.
    const form = new FormData();
    form.append('type', 'image');
    form.append('file', new Blob([new Uint8Array(big)]), 'g.png');
    const res = await fetch(`${s.t.url}/api/upload-file`, {
      method: 'POST',
      headers: { authorization: `Bearer ${agent}` },
      body: form,
    });
    expect(await res.json()).toEqual({ error: true, message: texts.mediaTooLarge(2) });
  });

  it('a library item is sent into a conversation by its URL (a recording as a voice note); deleted, its file stays while the message shows it', async () => {
    const owner = await s.t.login('dono@demo.com');
    const { simulatorToken } = await connectedSimulatorChip(s.t, owner, {
      department: s.seed.departments.support,
    });
    const phone = simulatorSocket(s.t, simulatorToken, PHONE);
    await connected(phone.sock);
    const manager = await listen(s.t, 'gerente@demo.com');
    await s.t.call('simulator-send', {
      token: simulatorToken,
      phone: PHONE,
      name: 'Ana',
      id: 'm1abcdefgh',
      type: 'text',
      text: 'Oi',
    });
    const { message: conversation } = await manager.next('new_conversation');
    const item = (
      await upload(owner, { type: 'audio', name: 'Recado', ptt: 'true' }, { data: MP3, name: 'r.mp3' })
    ).body.message as LibraryMedia;
    const sent = await s.t.call(
      'send-conversation-message',
      {
        conversation_id: conversation._id,
        message_id: 'lib1abcdefgh',
        media: { type: 'audio', url: item.url, file_name: item.name, ptt: item.ptt },
      },
      owner,
    );
    expect(sent).toMatchObject({ type: 'audio', media_url: item.url, status: 1, ptt: true });
    const onPhone = await until(() => phone.events.find((e) => e.type === 'message'));
    expect(onPhone).toMatchObject({ message: { type: 'audio', media_url: item.url, ptt: true } });
    // Stored: the team's history and the customer's phone (after a reload) still show a voice note.
    const history = await s.t.call(
      'get-messages-by-conversation',
      { conversation_id: conversation._id },
      owner,
    );
    expect(history.find((m) => m._id === sent._id)).toMatchObject({ ptt: true });
    const onReload = await s.t.call('simulator-get-messages', { token: simulatorToken, phone: PHONE });
    expect(onReload.find((m) => m.type === 'audio')).toMatchObject({ ptt: true });
    await s.t.call('delete-media', { _id: item._id }, owner);
    expect(await s.t.call('get-medias-by-user', {}, owner)).toEqual([]);
    expect(await statusOf(`${s.t.url}${item.url}`)).toBe(200);
  });
});
