// Media in an S3-compatible bucket (MEDIA_S3_*): the real server and the real AWS SDK against a fake store
// (tests/fakes/s3.ts, which checks SigV4 signatures). Uploads land in the bucket and not on disk, /media streams
// them with the local route's headers, sends read them back, deletes remove them; half a configuration stops
// the start.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '@/server/config';
import { conversations, messages } from '@/server/db/schema';
import { MESSAGE_STATUS } from '@/shared/constants';
import type { Envelope } from '@/shared/contract';
import type { LibraryMedia } from '@/shared/contract/media';
import { messages as texts } from '@/shared/messages';
import { type FakeGraph, messagesNotification, postWebhook, startFakeGraph } from '../fakes/graph-api';
import { type FakeS3, startFakeS3 } from '../fakes/s3';
import { startTestServer, type TestServer } from './helpers';
import { startProcess } from './process-helpers';

const SECRET = 'app-secret-for-tests';
const PHONE_NUMBER_ID = '1029384756';
const WABA = '5647382910';
const CUSTOMER = '5511987654321';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');

let s3: FakeS3;
let graph: FakeGraph;
let t: TestServer;
let seed: Awaited<ReturnType<TestServer['reset']>>;

beforeAll(async () => {
  s3 = await startFakeS3();
  graph = await startFakeGraph();
  t = await startTestServer({
    ...s3.env,
    WHATSAPP_GRAPH_URL: graph.url,
    WHATSAPP_GRAPH_VERSION: graph.version,
    WHATSAPP_ACCESS_TOKEN: graph.token,
    WHATSAPP_APP_SECRET: SECRET,
  });
});
afterAll(async () => {
  await t?.close();
  await graph?.close();
  await s3?.close();
});
beforeEach(async () => {
  seed = await t.reset();
  graph.clear();
  s3.requests.length = 0;
});

const nameOf = (url: string) => url.slice('/media/'.length);
const onDisk = (url: string) => existsSync(path.join(t.dataDir, 'media', nameOf(url)));

async function uploadFile(token: string, data: Buffer, name: string, call = 'upload-file', fields = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, String(v));
  form.append('file', new Blob([new Uint8Array(data)]), name);
  const res = await fetch(`${t.url}/api/${call}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const body = (await res.json()) as Envelope<{ url: string }>;
  if (body.error) throw new Error(`${call}: ${body.message}`);
  return body.message as { url: string };
}

async function get(url: string, headers: Record<string, string> = {}, method = 'GET') {
  const res = await fetch(`${t.url}${url}`, { method, headers });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, bytes };
}

describe('media in an S3-compatible bucket', () => {
  it('an upload lands in the bucket, not on disk; /media streams it as the local route would; a delete removes it', async () => {
    const agent = await t.login('atendente@demo.com');
    const item = (await uploadFile(agent, PNG, 'foto.png', 'upload-media', {
      type: 'image',
      name: 'Cardápio',
    })) as LibraryMedia;
    expect(item.url).toMatch(/^\/media\/[0-9a-z]{28}\.png$/);
    const object = s3.objects.get(nameOf(item.url));
    expect(object?.body).toEqual(PNG);
    expect(object?.contentType).toBe('image/png');
    // Signed with the configured key pair (the fake checks the signature).
    const put = s3.requests.find((r) => r.method === 'PUT');
    expect(put?.headers.authorization).toContain(`Credential=${s3.accessKeyId}/`);
    expect(onDisk(item.url)).toBe(false);
    expect(existsSync(path.join(t.dataDir, 'media'))).toBe(false);

    const image = await get(item.url);
    expect(image.status).toBe(200);
    expect(image.bytes).toEqual(PNG);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('content-length')).toBe(String(PNG.length));
    expect(image.headers.get('content-disposition')).toBeNull();
    expect(image.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect(image.headers.get('content-security-policy')).toMatch(/default-src 'none'.*; sandbox$/);
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    const etag = image.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);

    // Audio and video players ask for ranges; a cached copy revalidates; HEAD does not fetch the body.
    const part = await get(item.url, { range: 'bytes=1-3' });
    expect(part.status).toBe(206);
    expect(part.bytes).toEqual(PNG.subarray(1, 4));
    expect(part.headers.get('content-range')).toBe(`bytes 1-3/${PNG.length}`);
    expect((await get(item.url, { range: `bytes=${PNG.length + 10}-` })).status).toBe(416);
    expect((await get(item.url, { 'if-none-match': etag })).status).toBe(304);
    s3.requests.length = 0;
    const head = await get(item.url, {}, 'HEAD');
    expect([head.status, head.headers.get('content-length'), head.bytes.length]).toEqual([
      200,
      String(PNG.length),
      0,
    ]);
    expect(s3.requests.map((r) => r.method)).toEqual(['HEAD']);

    // A document is a download with its type, as on disk.
    const pdf = await uploadFile(agent, PDF, 'contrato.pdf', 'upload-file', { type: 'document' });
    const doc = await get(pdf.url);
    expect(doc.bytes).toEqual(PDF);
    expect(doc.headers.get('content-type')).toBe('application/pdf');
    expect(doc.headers.get('content-disposition')).toBe(`attachment; filename="${nameOf(pdf.url)}"`);

    await t.call('delete-media', { _id: item._id }, agent);
    expect(s3.objects.has(nameOf(item.url))).toBe(false);
    expect((await get(item.url)).status).toBe(404);
  });

  it("a customer's file is stored in the bucket, and an attendant's upload is sent from it (the delivery reads it back)", async () => {
    const owner = await t.login('dono@demo.com');
    const admin = await t.login('admin@demo.com');
    const created = await t.call(
      'create-or-update-chip',
      { name: 'Oficial', redirect: 'human', department: seed.departments.support, official: true },
      owner,
    );
    await t.call(
      'admin-update-chip',
      { _id: created._id, phone_number_id: PHONE_NUMBER_ID, waba: WABA },
      admin,
    );
    await t.call('register-phone-number', { _id: created._id, register: true }, admin);
    await t.call('connect-chip', { _id: created._id, connect: true }, owner);
    // The customer sends a photo: downloaded from Graph into the bucket.
    graph.addMedia('media-img', PNG, 'image/png');
    const res = await postWebhook(
      t.url,
      messagesNotification(
        { waba: WABA, phoneNumberId: PHONE_NUMBER_ID },
        {
          contacts: [{ profile: { name: 'Maria' }, wa_id: CUSTOMER }],
          messages: [
            {
              from: CUSTOMER,
              id: 'wamid.IN1',
              timestamp: String(Math.floor(Date.now() / 1000)),
              type: 'image',
              image: { id: 'media-img', mime_type: 'image/png' },
            },
          ],
        },
      ),
      { secret: SECRET },
    );
    expect(res.status).toBe(200);
    await t.server.services.channels.cloudApi.idle();
    const [inbound] = await t.server.services.db
      .select()
      .from(messages)
      .where(eq(messages.chipId, created._id));
    expect(inbound?.mediaUrl).toMatch(/^\/media\/[0-9a-z]{28}\.png$/);
    expect(s3.objects.get(nameOf(inbound?.mediaUrl ?? ''))?.body).toEqual(PNG);
    expect(onDisk(inbound?.mediaUrl ?? '')).toBe(false);

    const [conversation] = await t.server.services.db
      .select()
      .from(conversations)
      .where(eq(conversations.chipId, created._id));
    const upload = await uploadFile(owner, PDF, 'nota.pdf', 'upload-file', { type: 'document' });
    const sent = await t.call(
      'send-conversation-message',
      {
        conversation_id: conversation?.id,
        message_id: 'c1s3sendxxxx',
        text: 'Sua nota',
        media: { type: 'document', url: upload.url, file_name: 'nota.pdf' },
      },
      owner,
    );
    expect(sent).toMatchObject({ status: MESSAGE_STATUS.sent, type: 'document', media_url: upload.url });
    expect(graph.to('/media')[0]?.fields?.file).toMatchObject({
      fileName: 'nota.pdf',
      type: 'application/pdf',
      bytes: PDF,
    });
    expect(
      s3.requests.filter((r) => r.method === 'GET' && r.key === nameOf(upload.url)).length,
    ).toBeGreaterThan(0);

    // A file gone from the bucket is not sent.
    s3.objects.delete(nameOf(upload.url));
    const gone = await t.post(
      'send-conversation-message',
      {
        conversation_id: conversation?.id,
        message_id: 'c2s3sendxxxx',
        media: { type: 'document', url: upload.url, file_name: 'nota.pdf' },
      },
      owner,
    );
    expect(gone.body).toEqual({ error: true, message: texts.mediaNotFound });
  });

  it('answers 404 to unknown and malformed names, and asks the bucket only for our generated names', async () => {
    s3.objects.set('notas.txt', {
      body: Buffer.from('não é nosso'),
      contentType: 'text/plain',
      etag: '"x"',
      lastModified: new Date(),
    });
    const notFound = { error: true, message: texts.pageNotFound };
    const missing = await get('/media/aaaaaaaaaaaaaaaaaaaaaaaaaaaa.png');
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.bytes.toString())).toEqual(notFound);
    expect(s3.requests.map((r) => r.key)).toEqual(['aaaaaaaaaaaaaaaaaaaaaaaaaaaa.png']);
    s3.requests.length = 0;
    for (const url of [
      '/media/notas.txt',
      '/media/AAAAAAAAAAAAAAAAAAAAAAAAAAAA.png',
      '/media/..%2F..%2Fetc%2Fpasswd',
      '/media/a/aaaaaaaaaaaaaaaaaaaaaaaaaaaa.png',
      '/media/',
    ]) {
      const r = await get(url);
      expect(r.status, url).toBe(404);
      expect(JSON.parse(r.bytes.toString()), url).toEqual(notFound);
    }
    expect(s3.requests).toEqual([]);
  });

  it('a store that fails answers an error, never a partial file', async () => {
    const agent = await t.login('atendente@demo.com');
    const file = await uploadFile(agent, PNG, 'foto.png', 'upload-file', { type: 'image' });
    // The SDK tries 3 times.
    s3.failNext(500, 3);
    const r = await get(file.url);
    expect(r.status).toBe(500);
    expect(JSON.parse(r.bytes.toString())).toEqual({ error: true, message: expect.any(String) });
    expect((await get(file.url)).bytes).toEqual(PNG);
  });
});

describe('MEDIA_S3_* settings', () => {
  const full = {
    MEDIA_S3_BUCKET: 'painel-media',
    MEDIA_S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
    MEDIA_S3_SECRET_ACCESS_KEY: 'segredo-que-nao-aparece',
  };

  it('none: local disk; bucket and both keys: the bucket (region us-east-1, virtual-hosted style by default)', () => {
    expect(loadConfig({}).mediaS3).toBeNull();
    expect(loadConfig(full).mediaS3).toEqual({
      bucket: 'painel-media',
      endpoint: undefined,
      region: 'us-east-1',
      accessKeyId: 'AKIAEXAMPLE',
      secretAccessKey: 'segredo-que-nao-aparece',
      forcePathStyle: false,
    });
  });

  it('half a configuration is refused, naming what is missing and never a secret', () => {
    const cases: [Record<string, string>, string[]][] = [
      [{ MEDIA_S3_BUCKET: 'painel-media' }, ['MEDIA_S3_ACCESS_KEY_ID', 'MEDIA_S3_SECRET_ACCESS_KEY']],
      [{ ...full, MEDIA_S3_BUCKET: '' }, ['MEDIA_S3_BUCKET']],
      [{ ...full, MEDIA_S3_SECRET_ACCESS_KEY: '' }, ['MEDIA_S3_SECRET_ACCESS_KEY']],
      [{ MEDIA_S3_ENDPOINT: 'http://minio:9000', MEDIA_S3_FORCE_PATH_STYLE: 'true' }, [...Object.keys(full)]],
    ];
    for (const [env, missing] of cases) {
      let error: unknown;
      try {
        loadConfig(env);
      } catch (e) {
        error = e;
      }
      expect(error, JSON.stringify(env)).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      const named = message
        .split('\n')
        .slice(1)
        .map((l) => l.trim().split(':')[0]);
      expect(named, JSON.stringify(env)).toEqual(missing);
      expect(message).not.toContain('segredo-que-nao-aparece');
    }
    expect(() => loadConfig({ ...full, MEDIA_S3_BUCKET: 'Meu_Bucket' })).toThrow(/MEDIA_S3_BUCKET/);
    expect(() => loadConfig({ ...full, MEDIA_S3_FORCE_PATH_STYLE: 'sim' })).toThrow(
      /MEDIA_S3_FORCE_PATH_STYLE/,
    );
  });

  it('the server does not start on half a configuration', async () => {
    await expect(startProcess({ MEDIA_S3_BUCKET: 'painel-media' })).rejects.toThrow(
      /server exited \(1\)[\s\S]*MEDIA_S3_ACCESS_KEY_ID: falta/,
    );
  });
});
