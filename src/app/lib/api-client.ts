// The one API client: POST /api/<call> typed by the contract registry, reading the envelope (spec 1 §8). The
// page and the service worker (sw/sw.ts) share the same code, each with its own token: this module has no
// window, no localStorage (the page's session is in ./api.ts).
import type { Answer, CallName, Envelope, Payload } from '@/shared/contract';
import { messages } from '@/shared/messages';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly logout = false,
    /** The form field the server says the message belongs to. */
    readonly field?: string,
  ) {
    super(message);
  }
}

/** The text of any failure, as the screens show it. */
export const errorMessage = (err: unknown) =>
  err instanceof ApiError ? err.message : messages.genericServerError;

/** No answer at all: the device is offline or the server unreachable. */
export const isNetworkFailure = (err: unknown) => err instanceof ApiError && err.status === 0;

/** What to do with a failed try: retry later, give up on the message, or wait for a kick (signed out). */
export type FailureKind = 'retry' | 'reject' | 'hold';

/** A failure worth retrying: no answer at all, or a gateway that could not reach the server. */
export function classifyFailure(err: unknown): FailureKind {
  if (!(err instanceof ApiError)) return 'retry';
  if (err.status === 0 || err.status === 502 || err.status === 503 || err.status === 504) return 'retry';
  if (err.status === 401) return 'hold';
  return 'reject';
}

export interface ApiTransportOptions {
  /** The session's token, read at each call (the page: localStorage; the service worker: the device's copy). */
  token(): string | null | undefined;
  /** The server refused the token and ended the session (a 401 that says logout). */
  onLogout?(): void;
}

/**
 * A client over `fetch` (the page's, or the service worker's: nothing here touches window or localStorage at
 * import time), reading the envelope: a refusal throws ApiError with the server's text and status.
 */
export function createApiClient(opts: ApiTransportOptions) {
  async function send<N extends CallName>(call: N, init: RequestInit): Promise<Answer<N>> {
    const token = opts.token();
    const headers = new Headers(init.headers);
    if (token) headers.set('authorization', `Bearer ${token}`);
    let res: Response;
    try {
      res = await fetch(`/api/${call}`, { ...init, method: 'POST', headers });
    } catch {
      // Offline or the server is unreachable: no status to show.
      throw new ApiError(messages.genericServerError, 0);
    }
    let body: Envelope<Answer<N>> | null = null;
    try {
      body = (await res.json()) as Envelope<Answer<N>>;
    } catch {
      // not an envelope: fall through to the status text (spec 1 §8)
    }
    if (res.status === 401) {
      const logout = Boolean(body?.error && body.logout);
      if (logout) opts.onLogout?.();
      throw new ApiError(messages.unauthorized, 401, logout);
    }
    if (!body || typeof body !== 'object' || !('error' in body))
      throw new ApiError(
        res.statusText ? `${res.statusText} (${res.status})` : messages.genericServerError,
        res.status,
      );
    if (body.error)
      throw new ApiError(body.message || messages.unidentifiedError, res.status, false, body.field);
    return body.message;
  }

  return {
    call<N extends CallName>(call: N, payload?: Payload<N>): Promise<Answer<N>> {
      return send(call, {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payload ?? {}),
      });
    },
    /** A multipart call: the file in the field `file`, the payload as the other fields. */
    upload<N extends CallName>(
      call: N,
      file: Blob,
      filename: string,
      fields: Record<string, string> = {},
    ): Promise<Answer<N>> {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      form.append('file', file, filename);
      return send(call, { body: form });
    },
  };
}
