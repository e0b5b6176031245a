// The one API client: POST /api/<call> typed by the contract registry, reading the envelope.
import type { Answer, CallName, Envelope, Payload } from '../../shared/contract';
import { messages } from '../../shared/messages';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly logout = false,
  ) {
    super(message);
  }
}

const TOKEN_KEY = 'token';
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
};

export async function api<N extends CallName>(call: N, payload?: Payload<N>): Promise<Answer<N>> {
  const token = session.token;
  const res = await fetch(`/api/${call}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    body: JSON.stringify(payload ?? {}),
  });
  let body: Envelope<Answer<N>> | null = null;
  try {
    body = (await res.json()) as Envelope<Answer<N>>;
  } catch {
    // not an envelope: fall through to the status text (spec 1 §8)
  }
  if (res.status === 401) {
    if (body?.error && body.logout) session.clear();
    throw new ApiError(messages.unauthorized, 401, Boolean(body?.error && body.logout));
  }
  if (!body)
    throw new ApiError(
      res.statusText ? `${res.statusText} (${res.status})` : messages.genericServerError,
      res.status,
    );
  if (body.error) throw new ApiError(body.message || messages.unidentifiedError, res.status);
  return body.message;
}
