// The few Graph API calls the Cloud API channel makes, with Meta's error codes turned into pt-BR reasons.
// Every call carries the access token and a timeout; any failure is a ChannelError the caller can show.
import { AsyncLocalStorage } from 'node:async_hooks';
import diagnostics from 'node:diagnostics_channel';
import type { FastifyBaseLogger } from 'fastify';
import { messages as texts } from '../../../shared/messages';
import type { Config } from '../../config';
import { ChannelError } from '../adapter';

const CALL_TIMEOUT_MS = 15_000;
/** Files go both ways in one request: a large video needs longer than an API call. */
const TRANSFER_TIMEOUT_MS = 60_000;
/** The Cloud API's largest media (documents) is 100 MB. */
const MAX_DOWNLOAD_BYTES = 100 * 1024 * 1024;

/** The pt-BR reason for a Graph error code (a send refused, or a status webhook's `errors[0].code`). */
export function graphErrorReason(code: number | undefined, httpStatus?: number): string {
  switch (code) {
    case 131047: // re-engagement: the 24 h customer service window is closed
      return texts.cloudApiReengagement;
    case 131026: // message undeliverable
      return texts.cloudApiUndeliverable;
    case 131056: // (business, customer) pair rate limit
    case 130429: // throughput rate limit
    case 131048: // spam rate limit
    case 80007: // WABA rate limit
    case 4: // app call limit
      return texts.cloudApiRateLimited;
    case 190: // access token expired or invalid
      return texts.cloudApiTokenInvalid;
    case 100: // invalid parameter
      return texts.cloudApiInvalidParameter;
    case 132001: // template does not exist (in that language)
      return texts.cloudApiTemplateMissing;
  }
  if (httpStatus === 401) return texts.cloudApiTokenInvalid;
  if (code !== undefined) return texts.cloudApiFailed(code);
  return httpStatus ? texts.cloudApiFailed(`HTTP ${httpStatus}`) : texts.providerFailed;
}

/** Meta's transient codes ('Error codes': temporary, retry with backoff), besides any HTTP 5xx. */
const TRANSIENT_CODES = new Set([1, 2, 131000, 131016, 133004]);
/** Meta's rate limits: the message was not taken now and may be later. */
const RATE_LIMIT_CODES = new Set([4, 80007, 130429, 131056]);

/** A failure Graph answered (not a network one): its HTTP status and Graph error code tell if a retry can help. */
export class GraphError extends ChannelError {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: number,
    /** The answer's own `is_transient`. */
    isTransient = false,
  ) {
    super(
      message,
      isTransient ||
        status >= 500 ||
        status === 429 ||
        (code !== undefined && (TRANSIENT_CODES.has(code) || RATE_LIMIT_CODES.has(code))),
    );
    this.transient = isTransient || status >= 500 || (code !== undefined && TRANSIENT_CODES.has(code));
  }
  /** Graph down or overloaded for a moment (5xx, codes 1, 2, 131000, 131016, 133004, `is_transient`). */
  readonly transient: boolean;
  /** The media id is unknown or expired (Meta keeps media 7 days), or the file is gone: no retry will help. */
  get permanent() {
    return this.code === 100 || this.status === 404 || this.status === 410;
  }
}

interface GraphErrorBody {
  error?: {
    code?: number;
    error_subcode?: number;
    message?: string;
    fbtrace_id?: string;
    is_transient?: boolean;
  };
}

/**
 * Connecting failed: the request never reached Graph, so nothing was taken and a later try sends it once. A
 * timeout or a connection dropped after the request went out is not one: Meta may have taken the message, and
 * its Cloud API has no idempotency key, so such a send is not repeated by itself.
 */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);
const neverSent = (err: unknown) => {
  const cause = (err as { cause?: { code?: unknown } } | null)?.cause;
  return typeof cause?.code === 'string' && NOT_SENT_CODES.has(cause.code);
};

// The moment a request's body left for Graph, from the diagnostics channels of undici (Node's fetch): an
// official campaign's limiter counts Meta's rolling second from then, not from when it let the send go, which
// a busy event loop may put tens of milliseconds earlier. The hook rides the fetch's async context.
const sentHook = new AsyncLocalStorage<() => void>();
const sentHooks = new WeakMap<object, () => void>();
diagnostics.subscribe('undici:request:create', (message) => {
  const hook = sentHook.getStore();
  if (hook) sentHooks.set((message as { request: object }).request, hook);
});
diagnostics.subscribe('undici:request:bodySent', (message) => {
  const { request } = message as { request: object };
  const hook = sentHooks.get(request);
  sentHooks.delete(request);
  hook?.();
});

export interface GraphClient {
  get<T>(path: string): Promise<T>;
  /**
   * `timeoutMs`: this call's own limit (an official campaign's send). `onSent`: called when the request's
   * body was written to Graph's connection (not called if it never was).
   */
  post<T>(path: string, body?: unknown, opts?: { timeoutMs?: number; onSent?: () => void }): Promise<T>;
  delete<T>(path: string): Promise<T>;
  /**
   * Meta's Resumable Upload API (a template's image header example): POST /{app-id}/uploads opens a session,
   * POST /{upload-session-id} sends the bytes; answers the file handle ('h') other endpoints take.
   */
  uploadHandle(appId: string, file: { bytes: Buffer; mime: string; fileName: string }): Promise<string>;
  /** Uploads a file for sending (POST /{phone-number-id}/media); answers the media id. */
  upload(phoneNumberId: string, file: { bytes: Buffer; mime: string; fileName: string }): Promise<string>;
  /** A received media's bytes: its URL from GET /{media-id}, then the file itself (both need the token). */
  download(mediaId: string): Promise<{ buffer: Buffer; mime: string }>;
}

export function createGraphClient(config: Config, log: FastifyBaseLogger): GraphClient {
  const base = `${config.WHATSAPP_GRAPH_URL.replace(/\/+$/, '')}/${config.WHATSAPP_GRAPH_VERSION}`;
  const token = config.WHATSAPP_ACCESS_TOKEN;

  async function request(
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    body: { json?: unknown; form?: FormData; bytes?: Buffer; headers?: Record<string, string> } = {},
    timeoutMs = CALL_TIMEOUT_MS,
    onSent?: () => void,
  ): Promise<Response> {
    if (!token) throw new ChannelError(texts.cloudApiNotConfigured);
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, ...body.headers };
    if (body.json !== undefined) headers['content-type'] = 'application/json';
    const send = () =>
      fetch(url, {
        method,
        headers,
        body:
          body.form ??
          (body.bytes && new Uint8Array(body.bytes)) ??
          (body.json === undefined ? undefined : JSON.stringify(body.json)),
        signal: AbortSignal.timeout(timeoutMs),
      });
    try {
      return await (onSent ? sentHook.run(onSent, send) : send());
    } catch (err) {
      log.warn({ err, method, url }, 'whatsapp graph api unreachable');
      throw new ChannelError(texts.cloudApiUnreachable, neverSent(err));
    }
  }

  /** Reads a JSON answer; a Graph error (or any non-2xx) becomes its pt-BR reason. */
  async function answer<T>(res: Response, what: string): Promise<T> {
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      log.warn({ err, what }, 'whatsapp graph api answer cut off');
      throw new ChannelError(texts.cloudApiUnreachable);
    }
    let data: unknown = null;
    try {
      data = text ? JSON.parse(text) : {};
    } catch {
      data = null;
    }
    const error = (data as GraphErrorBody | null)?.error;
    if (!res.ok || error || data === null) {
      log.warn({ what, status: res.status, error: error ?? text.slice(0, 300) }, 'whatsapp graph api error');
      throw new GraphError(
        graphErrorReason(error?.code, res.ok ? undefined : res.status),
        res.status,
        error?.code,
        error?.is_transient === true,
      );
    }
    return data as T;
  }

  return {
    async get(path) {
      return answer(await request('GET', `${base}/${path}`), `GET ${path}`);
    },
    async post(path, body, opts) {
      return answer(
        await request(
          'POST',
          `${base}/${path}`,
          { json: body },
          opts?.timeoutMs ?? CALL_TIMEOUT_MS,
          opts?.onSent,
        ),
        `POST ${path}`,
      );
    },
    async delete(path) {
      return answer(await request('DELETE', `${base}/${path}`), `DELETE ${path}`);
    },
    async uploadHandle(appId, file) {
      const query = new URLSearchParams({
        file_name: file.fileName,
        file_length: String(file.bytes.length),
        file_type: file.mime,
      });
      const session = await answer<{ id?: string }>(
        await request('POST', `${base}/${encodeURIComponent(appId)}/uploads?${query}`),
        'POST uploads',
      );
      if (!session.id?.startsWith('upload:')) throw new ChannelError(texts.providerFailed);
      // The session id goes in the path as Meta gave it ('upload:…'); the bytes start at offset 0.
      const res = await request(
        'POST',
        `${base}/${session.id}`,
        { bytes: file.bytes, headers: { authorization: `OAuth ${token}`, file_offset: '0' } },
        TRANSFER_TIMEOUT_MS,
      );
      const { h } = await answer<{ h?: string }>(res, 'POST upload session');
      if (!h) throw new ChannelError(texts.providerFailed);
      return h;
    },
    async upload(phoneNumberId, { bytes, ...file }) {
      const form = new FormData();
      form.append('messaging_product', 'whatsapp');
      form.append('type', file.mime);
      form.append('file', new Blob([new Uint8Array(bytes)], { type: file.mime }), file.fileName);
      const res = await request('POST', `${base}/${phoneNumberId}/media`, { form }, TRANSFER_TIMEOUT_MS);
      const { id } = await answer<{ id?: string }>(res, 'POST media');
      if (!id) throw new ChannelError(texts.providerFailed);
      return id;
    },
    async download(mediaId) {
      const info = await answer<{ url?: string; mime_type?: string }>(
        await request('GET', `${base}/${encodeURIComponent(mediaId)}`),
        'GET media url',
      );
      if (!info.url) throw new ChannelError(texts.cloudApiMediaUnavailable);
      const res = await request('GET', info.url, {}, TRANSFER_TIMEOUT_MS);
      if (!res.ok) {
        await res.body?.cancel();
        log.warn({ status: res.status, mediaId }, 'whatsapp media download refused');
        throw new GraphError(texts.cloudApiMediaUnavailable, res.status);
      }
      const size = Number(res.headers.get('content-length') ?? 0);
      if (size > MAX_DOWNLOAD_BYTES) {
        await res.body?.cancel();
        throw new ChannelError(texts.cloudApiMediaUnavailable);
      }
      let buffer: Buffer;
      try {
        buffer = Buffer.from(await res.arrayBuffer());
      } catch (err) {
        log.warn({ err, mediaId }, 'whatsapp media download cut off');
        throw new ChannelError(texts.cloudApiMediaUnavailable);
      }
      const mime = info.mime_type ?? res.headers.get('content-type') ?? 'application/octet-stream';
      // 'audio/ogg; codecs=opus' → 'audio/ogg': the media store matches bare types.
      return { buffer, mime: mime.split(';')[0]?.trim() || 'application/octet-stream' };
    },
  };
}
