// A fake of Meta's Graph API, the subset the Cloud API channel uses: send (/messages), media upload and
// download, the phone number's fields, subscribed_apps, register/deregister. It records every request, can be
// told to fail the next call with a Graph error code (or drop the connection), and signs webhooks like Meta.
import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface UploadedPart {
  fileName: string;
  type: string;
  bytes: Buffer;
}

export interface GraphRequest {
  method: string;
  /** The path without the version: '/123/messages', '/files/media-1'. */
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, when there was one. */
  json?: Record<string, unknown>;
  /** The multipart fields, when the body was a form. */
  fields?: Record<string, string | UploadedPart>;
}

export interface FakeTemplate {
  name: string;
  status: string;
  language: string;
  category?: string;
  components: Record<string, unknown>[];
}

export type GraphFailure = { code: number; status?: number; message?: string } | 'network';

export interface FakeGraph {
  /** WHATSAPP_GRAPH_URL for the server under test. */
  url: string;
  version: string;
  token: string;
  requests: GraphRequest[];
  /** What GET /{phone-number-id} answers. */
  phone: { display_phone_number: string; quality_rating: string; verified_name: string };
  /** What GET /{waba-id}/message_templates lists, by WABA id (answered two to a page, with paging cursors). */
  templates: Record<string, FakeTemplate[]>;
  /** A media a customer "sent": GET /{id} answers its URL on this server, which serves the bytes. */
  addMedia(id: string, bytes: Buffer, mime: string): void;
  /** The file of media `id` answers `status` to its next `times` downloads (Meta's CDN having a bad moment). */
  failDownload(id: string, times: number, status?: number): void;
  /** The next request answers this Graph error (or has its connection dropped). */
  failNext(failure: GraphFailure): void;
  /** Requests to a path ending with `suffix` ('/messages', '/media'). */
  to(suffix: string): GraphRequest[];
  clear(): void;
  close(): Promise<void>;
}

const json = (status: number, body: unknown) => ({ status, body: JSON.stringify(body) });

export async function startFakeGraph(opts: { token?: string; version?: string } = {}): Promise<FakeGraph> {
  const token = opts.token ?? 'test-access-token';
  const version = opts.version ?? 'v21.0';
  const media = new Map<string, { bytes: Buffer; mime: string }>();
  const failures: GraphFailure[] = [];
  const downloadFailures = new Map<string, { times: number; status: number }>();
  let seq = 0;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      handle(Buffer.concat(chunks)).catch((err: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(err));
      });
    });
    async function handle(raw: Buffer) {
      const url = new URL(req.url ?? '/', fake.url);
      const versioned = url.pathname.startsWith(`/${version}/`);
      const path = versioned ? url.pathname.slice(version.length + 1) : url.pathname;
      const record: GraphRequest = {
        method: req.method ?? 'GET',
        path,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
      };
      const type = req.headers['content-type'] ?? '';
      if (type.startsWith('application/json') && raw.length) record.json = JSON.parse(raw.toString('utf8'));
      if (type.startsWith('multipart/form-data')) {
        const form = await new Response(new Uint8Array(raw), {
          headers: { 'content-type': type },
        }).formData();
        record.fields = {};
        for (const [name, value] of form) {
          record.fields[name] =
            typeof value === 'string'
              ? value
              : { fileName: value.name, type: value.type, bytes: Buffer.from(await value.arrayBuffer()) };
        }
      }
      fake.requests.push(record);

      const failure = failures.shift();
      if (failure === 'network') {
        req.socket.destroy();
        return;
      }
      const answer = failure
        ? json(failure.status ?? 400, {
            error: {
              message: failure.message ?? `(#${failure.code}) fake failure`,
              type: 'OAuthException',
              code: failure.code,
              fbtrace_id: 'FAKETRACE',
            },
          })
        : route(record, versioned);
      if ('bytes' in answer) {
        res.writeHead(200, { 'content-type': answer.mime, 'content-length': answer.bytes.length });
        res.end(answer.bytes);
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(answer.body);
    }
  });

  function route(
    r: GraphRequest,
    versioned: boolean,
  ): { status: number; body: string } | { bytes: Buffer; mime: string } {
    if (r.headers.authorization !== `Bearer ${token}`) {
      return json(401, {
        error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190 },
      });
    }
    const parts = r.path.split('/').filter(Boolean);
    const [id, action] = parts;
    if (!versioned && parts[0] === 'files' && parts[1]) {
      const failing = downloadFailures.get(parts[1]);
      if (failing && failing.times > 0) {
        failing.times--;
        return { status: failing.status, body: 'Service Unavailable' };
      }
      const file = media.get(parts[1]);
      return file ? { bytes: file.bytes, mime: file.mime } : json(404, { error: { code: 100 } });
    }
    if (!versioned || !id) return json(404, { error: { message: 'Unknown path', code: 100 } });
    if (r.method === 'GET' && action === 'message_templates') {
      const all = fake.templates[id] ?? [];
      const start = Number(r.query.after ?? 0) || 0;
      const data = all.slice(start, start + 2).map((t, i) => ({ ...t, id: `tpl-${start + i}` }));
      const next = start + 2 < all.length;
      return json(200, {
        data,
        paging: {
          cursors: { before: String(start), after: String(start + 2) },
          ...(next && { next: `${fake.url}/${version}/${id}/message_templates?after=${start + 2}` }),
        },
      });
    }
    if (r.method === 'GET' && parts.length === 1) {
      const file = media.get(id);
      if (file) {
        return json(200, {
          messaging_product: 'whatsapp',
          url: `${fake.url}/files/${id}`,
          mime_type: file.mime,
          sha256: createHash('sha256').update(file.bytes).digest('hex'),
          file_size: file.bytes.length,
          id,
        });
      }
      return json(200, { ...fake.phone, id });
    }
    // Mark as read, with or without the typing indicator: Meta answers success, not a message.
    if (r.method === 'POST' && action === 'messages' && r.json?.status === 'read')
      return json(200, { success: true });
    if (r.method === 'POST' && action === 'messages') {
      const to = String(r.json?.to ?? '');
      return json(200, {
        messaging_product: 'whatsapp',
        contacts: [{ input: to, wa_id: to }],
        messages: [{ id: `wamid.FAKE${++seq}` }],
      });
    }
    if (r.method === 'POST' && action === 'media') return json(200, { id: `media-up-${++seq}` });
    if (
      r.method === 'POST' &&
      (action === 'subscribed_apps' || action === 'register' || action === 'deregister')
    ) {
      return json(200, { success: true });
    }
    return json(404, { error: { message: 'Unknown path', code: 100 } });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const fake: FakeGraph = {
    url: `http://127.0.0.1:${port}`,
    version,
    token,
    requests: [],
    phone: { display_phone_number: '+55 11 4000-1234', quality_rating: 'GREEN', verified_name: 'Loja Demo' },
    templates: {},
    addMedia(id, bytes, mime) {
      media.set(id, { bytes, mime });
    },
    failNext(failure) {
      failures.push(failure);
    },
    failDownload(id, times, status = 503) {
      downloadFailures.set(id, { times, status });
    },
    to(suffix) {
      return fake.requests.filter((r) => r.path.endsWith(suffix));
    },
    clear() {
      fake.requests.length = 0;
      failures.length = 0;
      downloadFailures.clear();
      media.clear();
      fake.templates = {};
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}

/**
 * POSTs a notification to the server's webhook as Meta does: the raw JSON signed with the app secret in
 * X-Hub-Signature-256. `signature` sends that header as given instead; with neither, no header at all.
 */
export async function postWebhook(
  serverUrl: string,
  body: unknown,
  opts: { secret?: string; signature?: string } = {},
): Promise<{ status: number; body: unknown }> {
  const raw = JSON.stringify(body);
  const signature =
    opts.signature ??
    (opts.secret ? `sha256=${createHmac('sha256', opts.secret).update(raw).digest('hex')}` : undefined);
  const res = await fetch(`${serverUrl}/webhooks/whatsapp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(signature && { 'x-hub-signature-256': signature }) },
    body: raw,
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: res.status, body: parsed };
}
