// Uploads at the edges: sizes around MEDIA_MAX_MB (a file over it is refused whole, never stored cut at the
// limit), empty files refused, and the sizes stored byte for byte.
import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Envelope } from '@/shared/contract';
import { messages as texts } from '@/shared/messages';
import { connected, connectedSimulatorChip, listen, simulatorSocket } from './channel-helpers';
import { testServerPerFile } from './helpers';

// A 1 MB limit keeps the files small; the read boundaries are the same as at 16 MB.
const s = testServerPerFile({ MEDIA_MAX_MB: '1' });
const LIMIT = 1024 * 1024;

/** A plain-text document (accepted by content as .txt) of exactly `size` bytes. */
const textOf = (size: number) => Buffer.alloc(size, 'a');

async function uploadFile(token: string, data: Buffer, name = 'doc.txt') {
  const form = new FormData();
  form.append('type', 'document');
  form.append('file', new Blob([new Uint8Array(data)]), name);
  const res = await fetch(`${s.t.url}/api/upload-file`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as Envelope<{ url: string; file_name: string }> };
}

/**
 * The same upload written by hand in two writes with a pause between them, so the server reads the file's
 * bytes up to exactly `splitAt` in one go and the rest later: the limit lands on a read boundary.
 */
function uploadSplit(token: string, data: Buffer, splitAt: number) {
  const boundary = '----limite';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\ndocument\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="doc.txt"\r\n` +
      'Content-Type: text/plain\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const { port } = new URL(s.t.url);
  return new Promise<{ status: number; body: Envelope<{ url: string }> }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/upload-file',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + data.length + tail.length,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }),
        );
      },
    );
    req.on('error', reject);
    req.write(Buffer.concat([head, data.subarray(0, splitAt)]));
    setTimeout(() => req.end(Buffer.concat([data.subarray(splitAt), tail])), 150);
  });
}

const storedSize = async (url: string) =>
  (await readFile(path.join(s.t.dataDir, 'media', path.basename(url)))).length;

describe('upload size limit', () => {
  it('stores a file of exactly the limit whole, and refuses one byte more, wherever the reads fall', async () => {
    const agent = await s.t.login('atendente@demo.com');
    const atLimit = await uploadSplit(agent, textOf(LIMIT), LIMIT);
    expect(atLimit.body.error).toBe(false);
    expect(await storedSize((atLimit.body.message as { url: string }).url)).toBe(LIMIT);

    // The server reads exactly LIMIT bytes of the file, then the rest: before the fix the part was cut at
    // the limit, its truncated flag never read, and the first LIMIT bytes stored as if whole.
    for (const over of [1, 1024, 64 * 1024]) {
      const r = await uploadSplit(agent, textOf(LIMIT + over), LIMIT);
      expect(r, `limit + ${over} bytes`).toEqual({
        status: 413,
        body: { error: true, message: texts.mediaTooLarge(1) },
      });
    }
  });

  it('refuses every size over the limit, accepts every size up to it (ordinary uploads)', async () => {
    const agent = await s.t.login('atendente@demo.com');
    for (const size of [LIMIT - 1, LIMIT]) {
      const r = await uploadFile(agent, textOf(size));
      expect(r.body.error, `${size} bytes`).toBe(false);
      expect(await storedSize((r.body.message as { url: string }).url)).toBe(size);
    }
    // Several sizes, and file names of several lengths, move where the reads fall against the limit.
    for (const over of [1, 2, 1000, 1024, 4096, 16 * 1024, 64 * 1024 - 1, 64 * 1024, 65 * 1024]) {
      for (const name of ['a.txt', 'um-nome-mais-longo.txt']) {
        const r = await uploadFile(agent, textOf(LIMIT + over), name);
        expect(r, `limit + ${over} bytes, ${name}`).toEqual({
          status: 413,
          body: { error: true, message: texts.mediaTooLarge(1) },
        });
      }
    }
  });

  it('refuses an empty file on every upload call with the spec’s message', async () => {
    const agent = await s.t.login('atendente@demo.com');
    expect((await uploadFile(agent, Buffer.alloc(0))).body).toEqual({
      error: true,
      message: texts.fileRequired,
    });
    for (const [call, fields] of [
      ['upload-media', { type: 'document', name: 'Vazio' }],
      ['upload-profile-picture', {}],
    ] as const) {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      form.append('file', new Blob([]), 'vazio.txt');
      const res = await fetch(`${s.t.url}/api/${call}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${agent}` },
        body: form,
      });
      expect(await res.json(), call).toEqual({ error: true, message: texts.fileRequired });
    }
  });
});

describe('/media headers', () => {
  const PNG = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  );
  const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');

  async function headersOf(url: string) {
    const res = await fetch(`${s.t.url}${url}`);
    await res.arrayBuffer();
    expect(res.status, url).toBe(200);
    return {
      type: res.headers.get('content-type'),
      disposition: res.headers.get('content-disposition'),
      csp: res.headers.get('content-security-policy') ?? '',
      cache: res.headers.get('cache-control'),
    };
  }

  it('serves images inline and documents as downloads with their generated name', async () => {
    const agent = await s.t.login('atendente@demo.com');
    const form = new FormData();
    form.append('type', 'image');
    form.append('file', new Blob([new Uint8Array(PNG)]), 'foto.png');
    const image = (await (
      await fetch(`${s.t.url}/api/upload-file`, {
        method: 'POST',
        headers: { authorization: `Bearer ${agent}` },
        body: form,
      })
    ).json()) as { message: { url: string } };
    expect(await headersOf(image.message.url)).toMatchObject({ type: 'image/png', disposition: null });

    const pdf = await uploadFile(agent, PDF, 'contrato.pdf');
    const pdfUrl = (pdf.body.message as { url: string }).url;
    expect(pdfUrl).toMatch(/^\/media\/[0-9a-z]{28}\.pdf$/);
    expect(await headersOf(pdfUrl)).toMatchObject({
      type: 'application/pdf',
      disposition: `attachment; filename="${path.basename(pdfUrl)}"`,
    });
    const txt = await uploadFile(agent, textOf(10), 'nota.txt');
    const txtUrl = (txt.body.message as { url: string }).url;
    expect((await headersOf(txtUrl)).disposition).toBe(`attachment; filename="${path.basename(txtUrl)}"`);
    // Customers' files are for the browser's own cache, not a shared one.
    expect((await headersOf(pdfUrl)).cache).toBe('private, max-age=31536000, immutable');
  });

  it('never renders an HTML page or an SVG from /media: a download of plain bytes, sandboxed', async () => {
    // An inbound file keeps the customer's extension when its content is not recognised (the pipeline's
    // saveInboundMedia): these are what such a file looks like on disk.
    const dir = path.join(s.t.dataDir, 'media');
    const page = '<html><body><script>alert(document.cookie)</script></body></html>';
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    const files = {
      'aaaaaaaaaaaaaaaaaaaaaaaaaaaa.html': page,
      'bbbbbbbbbbbbbbbbbbbbbbbbbbbb.svg': svg,
      'cccccccccccccccccccccccccccc.xml': svg,
      'dddddddddddddddddddddddddddd.js': 'alert(1)',
      'eeeeeeeeeeeeeeeeeeeeeeeeeeee.bin': page,
    };
    const { writeFile } = await import('node:fs/promises');
    for (const [name, content] of Object.entries(files)) {
      await writeFile(path.join(dir, name), content);
      const h = await headersOf(`/media/${name}`);
      expect(h, name).toMatchObject({
        type: 'application/octet-stream',
        disposition: `attachment; filename="${name}"`,
      });
      expect(h.csp, name).toMatch(/(^|; )sandbox(;|$)/);
      expect(h.csp, name).toContain("default-src 'none'");
    }
  });
});

describe('stored file names', () => {
  const RLO = '\u202E';
  const PDF = Buffer.from('%PDF-1.4\n%%EOF\n');

  it('keeps no bidi control character in an uploaded, sent or library file name', async () => {
    const agent = await s.t.login('atendente@demo.com');
    // Shown as 'contratoexe.pdf' while it is 'contratofdp.exe'.
    const named = await uploadFile(agent, PDF, `contrato${RLO}fdp.exe`);
    expect(named.body).toMatchObject({ error: false, message: { file_name: 'contratofdp.exe' } });
    const form = new FormData();
    form.append('type', 'document');
    form.append('filename', `\u2067nota\u2069${RLO}fdp.exe`);
    form.append('file', new Blob([new Uint8Array(PDF)]), 'x.pdf');
    const given = await fetch(`${s.t.url}/api/upload-file`, {
      method: 'POST',
      headers: { authorization: `Bearer ${agent}` },
      body: form,
    });
    expect(await given.json()).toMatchObject({ error: false, message: { file_name: 'notafdp.exe' } });

    const library = new FormData();
    library.append('type', 'document');
    library.append('name', `\u200FRelatório${RLO}fdp.exe\u200E`);
    library.append('file', new Blob([new Uint8Array(PDF)]), `r${RLO}fdp.exe`);
    const item = await fetch(`${s.t.url}/api/upload-media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${agent}` },
      body: library,
    });
    expect(await item.json()).toMatchObject({ error: false, message: { name: 'Relatóriofdp.exe' } });
    // A name of nothing but controls is no name.
    library.set('name', `${RLO}\u202A\u061C`);
    const empty = await fetch(`${s.t.url}/api/upload-media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${agent}` },
      body: library,
    });
    expect(await empty.json()).toEqual({ error: true, message: texts.mediaNameRequired });
  });

  it('a sent file keeps its name without bidi controls on the message', async () => {
    const owner = await s.t.login('dono@demo.com');
    const { simulatorToken } = await connectedSimulatorChip(s.t, owner, {
      department: s.seed.departments.support,
    });
    const phone = simulatorSocket(s.t, simulatorToken, '5511987654321');
    await connected(phone.sock);
    const manager = await listen(s.t, 'gerente@demo.com');
    await s.t.call('simulator-send', {
      token: simulatorToken,
      phone: '5511987654321',
      name: 'Ana',
      id: 'm1abcdefgh',
      type: 'document',
      media_url: (
        await (async () => {
          const form = new FormData();
          form.append('token', simulatorToken);
          form.append('file', new Blob([new Uint8Array(PDF)]), 'a.pdf');
          const res = await fetch(`${s.t.url}/api/simulator-upload`, { method: 'POST', body: form });
          return ((await res.json()) as { message: { url: string } }).message;
        })()
      ).url,
      file_name: `boleto${RLO}fdp.exe`,
    });
    const { message: conversation } = await manager.next('new_conversation');
    const upload = await uploadFile(owner, PDF, 'x.pdf');
    const url = (upload.body.message as { url: string }).url;
    const sent = await s.t.call(
      'send-conversation-message',
      {
        conversation_id: conversation._id,
        message_id: 'bidi1abcdefgh',
        media: { type: 'document', url, file_name: `recibo${RLO}fdp.exe` },
      },
      owner,
    );
    expect(sent.file_name).toBe('recibofdp.exe');
    const history = await s.t.call(
      'get-messages-by-conversation',
      { conversation_id: conversation._id },
      owner,
    );
    expect(history.map((m) => m.file_name).sort()).toEqual(['boletofdp.exe', 'recibofdp.exe']);
  });
});
