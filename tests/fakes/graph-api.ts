// A fake of Meta's Graph API, the subset the Cloud API channel uses: send (/messages), media upload and
// download, the phone number's fields, subscribed_apps, register/deregister, message templates (list, create
// → PENDING, delete, status changes posted as message_template_status_update webhooks) and the Resumable
// Upload API (a template's image header example), and a WABA's own endpoints (its name, its phone_numbers
// edge, paged; register with the two-step verification PIN, deregister). It records every request, can be
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
  /** Any other body, as sent (an upload session's file). */
  bytes?: Buffer;
}

export interface FakeTemplate {
  /** Meta's id; listed as tpl-<position> when absent. */
  id?: string;
  name: string;
  status: string;
  language: string;
  category?: string;
  /** Why it was rejected (Meta's rejected_reason; 'NONE' when absent). */
  reason?: string;
  components: Record<string, unknown>[];
}

/** A phone number of a WABA, as GET /{waba-id}/phone_numbers lists it. */
export interface FakePhoneNumber {
  id: string;
  display_phone_number: string;
  verified_name: string;
  quality_rating: string;
}

/** A file sent through the Resumable Upload API, by the handle ('h') it was answered. */
export interface FakeUpload {
  fileName: string;
  type: string;
  bytes: Buffer;
}

/**
 * A failure of one request: a Graph error; 'network' drops the connection before anything is taken;
 * 'accept-then-drop' takes the send (a message id, its status webhooks) and then drops the connection, as a
 * timeout after Meta took it looks; 'hang' never answers (the client's timeout ends it) and takes nothing.
 */
export type GraphFailure =
  | { code: number; status?: number; message?: string; transient?: boolean }
  | 'network'
  | 'accept-then-drop'
  | 'hang';

export interface FakeGraph {
  /** WHATSAPP_GRAPH_URL for the server under test. */
  url: string;
  version: string;
  token: string;
  requests: GraphRequest[];
  /** What GET /{phone-number-id} answers. */
  phone: { display_phone_number: string; quality_rating: string; verified_name: string };
  /**
   * What GET /{waba-id}/message_templates lists, by WABA id (answered two to a page, with paging cursors).
   * POST adds one there (PENDING, with an id); DELETE ?name= removes every language of that name.
   */
  templates: Record<string, FakeTemplate[]>;
  /** Files uploaded with the Resumable Upload API, by their handle. */
  uploads: Record<string, FakeUpload>;
  /**
   * WhatsApp Business Accounts by id: GET /{waba-id} answers its name, GET /{waba-id}/phone_numbers its numbers
   * (two to a page, with paging cursors), and GET /{phone-number-id} a listed number's own fields.
   */
  wabas: Record<string, { name: string; phone_numbers: FakePhoneNumber[] }>;
  /**
   * Two-step verification PINs of the listed numbers: the first register sets it, a later one with another
   * PIN is refused with Meta's 133005. Numbers not listed in `wabas` take any 6-digit PIN.
   */
  pins: Record<string, string>;
  /** Which listed numbers are registered with the Cloud API (register → true, deregister → false). */
  registered: Record<string, boolean>;
  /**
   * Meta's review (or a later pause…): sets the status of the WABA's templates of that name and posts the
   * message_template_status_update webhook (resolves when the server took it). Throws when none has the name.
   */
  setTemplateStatus(waba: string, name: string, status: string, reason?: string): Promise<void>;
  /** A media a customer "sent": GET /{id} answers its URL on this server, which serves the bytes. */
  addMedia(id: string, bytes: Buffer, mime: string): void;
  /** The file of media `id` answers `status` to its next `times` downloads (Meta's CDN having a bad moment). */
  failDownload(id: string, times: number, status?: number): void;
  /** The next request answers this Graph error (or has its connection dropped). */
  failNext(failure: GraphFailure): void;
  /**
   * Where this fake posts its own webhooks (template status updates, message statuses), signed like Meta's.
   * Unset: none are posted.
   */
  webhookTarget: { url: string; secret: string } | null;
  /**
   * Posts a notification to webhookTarget, retried every 300 ms until the server answers 2xx (Meta retries
   * for days): a server killed meanwhile gets it once it is back. Resolves when it was taken.
   */
  notify(body: unknown): Promise<void>;
  /** Resolves when every notify() so far was taken. */
  notified(): Promise<void>;
  /**
   * Messages a second each phone number id may send (Meta's throughput): more within any 1 s window are
   * answered 130429 (counted in `rateLimited`). Unset: no limit.
   */
  throughput: Record<string, number>;
  rateLimited: number;
  /** Every send taken (a message id given), in order: what WhatsApp would deliver. */
  sent: { phoneNumberId: string; to: string; wamid: string; callback?: string; at: number }[];
  /**
   * Each send taken is followed by its status webhooks (sent, then delivered; also read when 'read'), with
   * the pricing, the conversation and the echoed biz_opaque_callback_data, posted by notify() in batches every
   * 100 ms. Off by default.
   */
  statusWebhooks: false | 'delivered' | 'read';
  /** The next send to `to` fails so (`times` times). */
  failTo(to: string, failure: GraphFailure, times?: number): void;
  /** Graph down: every request answers `failure` until `until` (a Date.now() value). Null: up. */
  outage: { until: number; failure: GraphFailure } | null;
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
  let closed = false;
  const outgoing = new Set<Promise<void>>();
  const sessions = new Map<string, { length: number; type: string; fileName: string }>();

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
      else if (!type.startsWith('multipart/form-data') && raw.length) record.bytes = raw;
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

      let failure = failures.shift();
      if (!failure && fake.outage && Date.now() < fake.outage.until) failure = fake.outage.failure;
      if (!failure && record.method === 'POST' && path.endsWith('/messages') && record.json?.to) {
        const list = failTo.get(String(record.json.to));
        if (list?.length) failure = list.shift();
      }
      if (failure === 'network') {
        req.socket.destroy();
        return;
      }
      if (failure === 'hang') return;
      if (failure === 'accept-then-drop') {
        route(record, versioned);
        req.socket.destroy();
        return;
      }
      const answer = failure
        ? json(failure.status ?? 400, {
            error: {
              message: failure.message ?? `(#${failure.code}) fake failure`,
              type: 'OAuthException',
              code: failure.code,
              ...(failure.transient !== undefined && { is_transient: failure.transient }),
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
    // An upload session takes the token as 'OAuth <token>' (Meta's Resumable Upload API).
    const uploading = r.path.startsWith('/upload:') && r.headers.authorization === `OAuth ${token}`;
    if (r.headers.authorization !== `Bearer ${token}` && !uploading) {
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
    if (r.method === 'POST' && action === 'message_templates') return createTemplate(id, r.json ?? {});
    if (r.method === 'DELETE' && action === 'message_templates') {
      const all = fake.templates[id] ?? [];
      const left = all.filter((t) => t.name !== r.query.name);
      if (left.length === all.length) return graphError(100, 'Template not found', 2593002);
      fake.templates[id] = left;
      return json(200, { success: true });
    }
    if (r.method === 'POST' && action === 'uploads') {
      const length = Number(r.query.file_length);
      const fileType = r.query.file_type ?? '';
      if (
        !Number.isInteger(length) ||
        length <= 0 ||
        !/^(image\/(jpeg|jpg|png)|video\/mp4|application\/pdf)$/.test(fileType)
      )
        return graphError(100, 'Invalid parameter');
      const session = `upload:FAKESESSION${++seq}`;
      sessions.set(session, { length, type: fileType, fileName: r.query.file_name ?? 'file' });
      return json(200, { id: `${session}?sig=FAKESIG` });
    }
    if (r.method === 'POST' && id.startsWith('upload:') && parts.length === 1) {
      const session = sessions.get(id);
      if (!session || r.query.sig !== 'FAKESIG') return graphError(100, 'Invalid upload session');
      const bytes = r.bytes ?? Buffer.alloc(0);
      if (r.headers.file_offset !== '0' || bytes.length !== session.length)
        return graphError(100, 'File length does not match');
      sessions.delete(id);
      const handle = `4::FAKEHANDLE${++seq}:${bytes.length}`;
      fake.uploads[handle] = { fileName: session.fileName, type: session.type, bytes };
      return json(200, { h: handle });
    }
    if (r.method === 'GET' && action === 'message_templates') {
      const all = fake.templates[id] ?? [];
      const start = Number(r.query.after ?? 0) || 0;
      const data = all.slice(start, start + 2).map((t, i) => {
        const { reason, ...listed } = t;
        return { ...listed, id: t.id ?? `tpl-${start + i}`, rejected_reason: reason ?? 'NONE' };
      });
      const next = start + 2 < all.length;
      return json(200, {
        data,
        paging: {
          cursors: { before: String(start), after: String(start + 2) },
          ...(next && { next: `${fake.url}/${version}/${id}/message_templates?after=${start + 2}` }),
        },
      });
    }
    if (r.method === 'GET' && action === 'phone_numbers' && parts.length === 2) {
      const waba = fake.wabas[id];
      if (!waba) return graphError(100, 'Unsupported get request. Object does not exist', 33);
      const start = Number(r.query.after ?? 0) || 0;
      const next = start + 2 < waba.phone_numbers.length;
      return json(200, {
        data: waba.phone_numbers.slice(start, start + 2),
        paging: {
          cursors: { before: String(start), after: String(start + 2) },
          ...(next && { next: `${fake.url}/${version}/${id}/phone_numbers?after=${start + 2}` }),
        },
      });
    }
    if (r.method === 'GET' && parts.length === 1 && fake.wabas[id]) {
      return json(200, { id, name: fake.wabas[id].name });
    }
    // A WABA's name asked of an id that is no WABA the token sees.
    if (r.method === 'GET' && parts.length === 1 && r.query.fields === 'id,name')
      return graphError(100, `Unsupported get request. Object with ID '${id}' does not exist`, 33);
    if (r.method === 'GET' && parts.length === 1 && listedNumber(id)) {
      return json(200, listedNumber(id));
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
      const limit = fake.throughput[id];
      if (limit !== undefined) {
        const now = Date.now();
        const times = accepted.get(id) ?? [];
        while (times.length && (times[0] ?? 0) <= now - 1000) times.shift();
        if (times.length >= limit) {
          fake.rateLimited++;
          return json(400, {
            error: {
              message: '(#130429) Rate limit hit',
              type: 'OAuthException',
              code: 130429,
              fbtrace_id: 'FAKETRACE',
            },
          });
        }
        times.push(now);
        accepted.set(id, times);
      }
      const wamid = `wamid.FAKE${++seq}`;
      const callback = r.json?.biz_opaque_callback_data;
      fake.sent.push({
        phoneNumberId: id,
        to,
        wamid,
        at: Date.now(),
        ...(typeof callback === 'string' && { callback }),
      });
      if (fake.statusWebhooks) queueStatuses(id, wamid, to, r.json ?? {});
      return json(200, {
        messaging_product: 'whatsapp',
        contacts: [{ input: to, wa_id: to }],
        messages: [{ id: wamid }],
      });
    }
    if (r.method === 'POST' && action === 'media') return json(200, { id: `media-up-${++seq}` });
    if (r.method === 'POST' && action === 'register') {
      const pin = r.json?.pin;
      if (r.json?.messaging_product !== 'whatsapp' || typeof pin !== 'string' || !/^\d{6}$/.test(pin))
        return graphError(100, 'Invalid parameter');
      if (listedNumber(id)) {
        const set = fake.pins[id];
        if (set !== undefined && set !== pin) return graphError(133005, 'Two step verification PIN Mismatch');
        fake.pins[id] = pin;
        fake.registered[id] = true;
      }
      return json(200, { success: true });
    }
    if (r.method === 'POST' && action === 'deregister') {
      if (listedNumber(id)) fake.registered[id] = false;
      return json(200, { success: true });
    }
    if (r.method === 'POST' && action === 'subscribed_apps') {
      return json(200, { success: true });
    }
    return json(404, { error: { message: 'Unknown path', code: 100 } });
  }

  function listedNumber(id: string) {
    for (const waba of Object.values(fake.wabas)) {
      const found = waba.phone_numbers.find((p) => p.id === id);
      if (found) return found;
    }
    return null;
  }

  function graphError(code: number, message: string, subcode?: number) {
    return json(400, {
      error: {
        message,
        type: 'OAuthException',
        code,
        ...(subcode && { error_subcode: subcode }),
        fbtrace_id: 'FAKETRACE',
      },
    });
  }

  /** POST /{waba}/message_templates as Meta checks it: a valid name, a body, known image handles, no duplicate. */
  function createTemplate(waba: string, body: Record<string, unknown>) {
    const name = typeof body.name === 'string' ? body.name : '';
    const language = typeof body.language === 'string' ? body.language : '';
    const category = typeof body.category === 'string' ? body.category : '';
    const components = Array.isArray(body.components) ? (body.components as Record<string, unknown>[]) : [];
    if (!/^[a-z0-9_]{1,512}$/.test(name) || !language) return graphError(100, 'Invalid parameter');
    if (!['MARKETING', 'UTILITY', 'AUTHENTICATION'].includes(category))
      return graphError(100, 'Invalid parameter');
    if (!components.some((c) => c.type === 'BODY' && typeof c.text === 'string' && c.text))
      return graphError(100, 'Invalid parameter');
    for (const c of components) {
      if (c.type !== 'HEADER' || c.format !== 'IMAGE') continue;
      const handles = (c.example as { header_handle?: unknown } | undefined)?.header_handle;
      if (!Array.isArray(handles) || !handles.every((h) => typeof h === 'string' && fake.uploads[h]))
        return graphError(100, 'Invalid parameter');
    }
    fake.templates[waba] ??= [];
    const list = fake.templates[waba];
    if (list.some((t) => t.name === name && t.language === language))
      return graphError(100, 'Message template already exists', 2388024);
    const id = String(900_000_000 + ++seq);
    list.push({ id, name, language, category, status: 'PENDING', components });
    return json(200, { id, status: 'PENDING', category });
  }

  // Throughput: the sends each phone number id took in the last second. Status webhooks waiting to be posted.
  const accepted = new Map<string, number[]>();
  const failTo = new Map<string, GraphFailure[]>();
  const statusQueue = new Map<string, Record<string, unknown>[]>();
  let statusTimer: NodeJS.Timeout | null = null;
  function queueStatuses(phoneNumberId: string, wamid: string, to: string, body: Record<string, unknown>) {
    const template = body.template as { name?: string } | undefined;
    const category =
      Object.values(fake.templates)
        .flat()
        .find((t) => t.name === template?.name)
        ?.category?.toLowerCase() ?? 'marketing';
    const seconds = String(Math.floor(Date.now() / 1000));
    const common = {
      id: wamid,
      timestamp: seconds,
      recipient_id: to,
      ...(typeof body.biz_opaque_callback_data === 'string' && {
        biz_opaque_callback_data: body.biz_opaque_callback_data,
      }),
    };
    const billed = {
      conversation: { id: `conv-${to}`, origin: { type: category } },
      pricing: { billable: true, pricing_model: 'CBP', category },
    };
    const list = statusQueue.get(phoneNumberId) ?? [];
    list.push({ ...common, status: 'sent', ...billed }, { ...common, status: 'delivered', ...billed });
    if (fake.statusWebhooks === 'read') list.push({ ...common, status: 'read' });
    statusQueue.set(phoneNumberId, list);
    statusTimer ??= setTimeout(flushStatuses, 100);
  }
  function flushStatuses() {
    statusTimer = null;
    for (const [phoneNumberId, list] of statusQueue) {
      statusQueue.delete(phoneNumberId);
      for (let i = 0; i < list.length; i += 200) {
        void fake.notify({
          object: 'whatsapp_business_account',
          entry: [
            {
              id: 'fake-waba',
              changes: [
                {
                  field: 'messages',
                  value: {
                    messaging_product: 'whatsapp',
                    metadata: {
                      display_phone_number: fake.phone.display_phone_number,
                      phone_number_id: phoneNumberId,
                    },
                    statuses: list.slice(i, i + 200),
                  },
                },
              ],
            },
          ],
        });
      }
    }
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
    uploads: {},
    wabas: {},
    pins: {},
    registered: {},
    throughput: {},
    rateLimited: 0,
    outage: null,
    sent: [],
    statusWebhooks: false,
    failTo(to, failure, times = 1) {
      const list = failTo.get(to) ?? [];
      for (let i = 0; i < times; i++) list.push(failure);
      failTo.set(to, list);
    },
    webhookTarget: null,
    setTemplateStatus(waba, name, status, reason) {
      const changed = (fake.templates[waba] ?? []).filter((t) => t.name === name);
      if (!changed.length) throw new Error(`no template ${name} on WABA ${waba}`);
      const time = Math.floor(Date.now() / 1000);
      for (const t of changed) {
        t.status = status;
        if (reason) t.reason = reason;
        else delete t.reason;
      }
      return fake.notify({
        object: 'whatsapp_business_account',
        entry: changed.map((t, i) => ({
          id: waba,
          time,
          changes: [
            {
              field: 'message_template_status_update',
              value: {
                event: status,
                message_template_id: Number(t.id ?? i),
                message_template_name: t.name,
                message_template_language: t.language,
                reason: reason ?? 'NONE',
                ...(t.category && { message_template_category: t.category }),
              },
            },
          ],
        })),
      });
    },
    notify(body) {
      const run = (async () => {
        for (;;) {
          const target = fake.webhookTarget;
          if (!target || closed) return;
          try {
            const res = await postWebhook(target.url, body, { secret: target.secret });
            if (res.status >= 200 && res.status < 300) return;
          } catch {}
          await new Promise((r) => setTimeout(r, 300));
        }
      })();
      const tracked = run.finally(() => outgoing.delete(tracked));
      outgoing.add(tracked);
      return tracked;
    },
    async notified() {
      while (outgoing.size || statusTimer) {
        if (statusTimer) {
          clearTimeout(statusTimer);
          flushStatuses();
        }
        await Promise.allSettled([...outgoing]);
      }
    },
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
      failTo.clear();
      fake.outage = null;
      accepted.clear();
      fake.throughput = {};
      fake.rateLimited = 0;
      fake.sent.length = 0;
      fake.statusWebhooks = false;
      media.clear();
      sessions.clear();
      fake.templates = {};
      fake.uploads = {};
      fake.wabas = {};
      fake.pins = {};
      fake.registered = {};
    },
    close: () =>
      new Promise<void>((resolve) => {
        closed = true;
        if (statusTimer) clearTimeout(statusTimer);
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

/**
 * A notification as Meta sends it: one 'messages' change of the phone number `phoneNumberId` of WABA `waba`
 * with `value`'s customer messages, contacts or statuses.
 */
export function messagesNotification(
  to: { waba: string; phoneNumberId: string },
  value: Record<string, unknown>,
) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: to.waba,
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '551140001234', phone_number_id: to.phoneNumberId },
              ...value,
            },
          },
        ],
      },
    ],
  };
}

/** The server's settings that point its Cloud API adapter at this fake (`extra` overrides, e.g. the secret). */
export const graphEnv = (graph: FakeGraph, extra: Record<string, string> = {}) => ({
  WHATSAPP_GRAPH_URL: graph.url,
  WHATSAPP_GRAPH_VERSION: graph.version,
  WHATSAPP_ACCESS_TOKEN: graph.token,
  WHATSAPP_APP_SECRET: 'secret',
  WHATSAPP_VERIFY_TOKEN: 'verify',
  ...extra,
});
