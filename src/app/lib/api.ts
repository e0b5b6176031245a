// The one API client: POST /api/<call> typed by the contract registry, reading the envelope (spec 1 §8).
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

const TOKEN_KEY = 'token';
const sessionEndListeners = new Set<(reason?: string) => void>();

export const session = {
  get token() {
    return localStorage.getItem(TOKEN_KEY);
  },
  set(token: string) {
    localStorage.setItem(TOKEN_KEY, token);
  },
  clear() {
    localStorage.removeItem(TOKEN_KEY);
  },
  /**
   * Clears the token and tells the app (query cache, router) that the session is over; `reason` is shown
   * when the server ended it (whichever call, maybe a background one, found out).
   */
  end(reason?: string) {
    session.clear();
    for (const listener of sessionEndListeners) listener(reason);
  },
  onEnd(listener: (reason?: string) => void) {
    sessionEndListeners.add(listener);
    return () => {
      sessionEndListeners.delete(listener);
    };
  },
};

/** The text of any failure, as the screens show it. */
export const errorMessage = (err: unknown) =>
  err instanceof ApiError ? err.message : messages.genericServerError;

async function send<N extends CallName>(call: N, init: RequestInit): Promise<Answer<N>> {
  const token = session.token;
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
    if (logout) session.end(messages.unauthorized);
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

export function api<N extends CallName>(call: N, payload?: Payload<N>): Promise<Answer<N>> {
  return send(call, {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(payload ?? {}),
  });
}

/** A multipart call: the file in the field `file`, the payload as the other fields. */
export function upload<N extends CallName>(
  call: N,
  file: Blob,
  filename: string,
  fields: Record<string, string> = {},
): Promise<Answer<N>> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', file, filename);
  return send(call, { body: form });
}
