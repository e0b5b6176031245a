// Issue 35 item 4: the media disk fills up. DATA_DIR/media is a 1 MB tmpfs here (mounting one needs root, as CI
// runs; elsewhere the test says it was skipped): an upload that does not fit is refused with the pt-BR text,
// leaves no half-written file and no library row, the database keeps serving, and once space is freed the same
// upload goes through.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Envelope } from '@/shared/contract';
import type { LibraryMedia } from '@/shared/contract/media';
import { messages as texts } from '@/shared/messages';
import { testServerPerFile } from './helpers';

const s = testServerPerFile();
let mediaDir = '';
let mounted = false;
beforeAll(() => {
  mediaDir = path.join(s.t.dataDir, 'media');
  mkdirSync(mediaDir, { recursive: true });
  mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mediaDir]).status === 0;
});
afterAll(() => {
  if (mounted) spawnSync('umount', ['-l', mediaDir]);
});

// A PNG's signature and header, padded to the size wanted: the content check reads the magic bytes.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const pngOf = (bytes: number) => Buffer.concat([PNG, Buffer.alloc(bytes - PNG.length, 7)]);

async function upload(token: string, name: string, data: Buffer) {
  const form = new FormData();
  form.append('type', 'image');
  form.append('name', name);
  form.append('file', new Blob([new Uint8Array(data)]), `${name}.png`);
  const res = await fetch(`${s.t.url}/api/upload-media`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as Envelope<LibraryMedia> };
}

it('a full media disk: the upload is refused in pt-BR, nothing half-written stays, the rest works, and freeing space brings it back', async (ctx) => {
  if (!mounted) ctx.skip(); // `mount -t tmpfs` needs root
  const agent = await s.t.login('atendente@demo.com');
  const first = await upload(agent, 'Primeira', pngOf(600_000));
  expect(first.body.error).toBe(false);
  const kept = first.body.message as LibraryMedia;
  expect(readdirSync(mediaDir)).toEqual([path.basename(kept.url)]);

  // 600 KB more does not fit in what is left of 1 MB.
  const refused = await upload(agent, 'Segunda', pngOf(600_000));
  expect(refused).toEqual({ status: 200, body: { error: true, message: texts.mediaStoreFailed } });
  expect(readdirSync(mediaDir)).toEqual([path.basename(kept.url)]);
  // The database serves: the library lists only what was kept, and a profile change is saved.
  expect((await s.t.call('get-medias-by-user', { type: 'image' }, agent)).map((m) => m._id)).toEqual([
    kept._id,
  ]);
  await s.t.call('update-user', { name: 'Ana Atendente' }, agent);

  // Space freed (the first file deleted from the library): the same upload goes through.
  await s.t.call('delete-media', { _id: kept._id }, agent);
  const again = await upload(agent, 'Segunda', pngOf(600_000));
  expect(again.body.error).toBe(false);
  expect(readdirSync(mediaDir)).toEqual([path.basename((again.body.message as LibraryMedia).url)]);
});
