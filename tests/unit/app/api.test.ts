// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ApiError, api, session, upload } from '@/app/lib/api';
import { messages } from '@/shared/messages';

const reply = (status: number, body: unknown, statusText = '') =>
  new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, statusText });

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
  localStorage.clear();
});
afterEach(() => vi.unstubAllGlobals());

const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as ApiError,
  );

describe('the API client (spec 1 §7, §8)', () => {
  it('POSTs JSON with the stored token and answers the envelope message', async () => {
    session.set('tok');
    fetchMock.mockResolvedValue(reply(200, { error: false, message: { api_key: 'k' } }));
    expect(await api('update-api-key')).toEqual({ api_key: 'k' });
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/update-api-key');
    expect(init.method).toBe('POST');
    expect(new Headers(init.headers).get('authorization')).toBe('Bearer tok');
    expect(new Headers(init.headers).get('content-type')).toBe('application/json');
    expect(init.body).toBe('{}');
  });

  it("shows the error message, or 'Erro não identificado!' when it is empty", async () => {
    fetchMock.mockResolvedValueOnce(reply(200, { error: true, message: 'E-mail ou senha incorretos.' }));
    expect((await failure(api('auth', { email: 'a@b.c', password: 'x' })))?.message).toBe(
      'E-mail ou senha incorretos.',
    );
    fetchMock.mockResolvedValueOnce(reply(200, { error: true, message: '' }));
    expect((await failure(api('get-user')))?.message).toBe(messages.unidentifiedError);
  });

  it("carries the field a refusal belongs to (a shared rule's { field, message }), so a form shows it there", async () => {
    fetchMock.mockResolvedValueOnce(
      reply(200, { error: true, message: messages.emailInUse, field: 'email' }),
    );
    const refused = await failure(api('create-team-user', {} as never));
    expect(refused).toMatchObject({ message: messages.emailInUse, field: 'email' });
    fetchMock.mockResolvedValueOnce(reply(200, { error: true, message: messages.notFound }));
    expect((await failure(api('get-user')))?.field).toBeUndefined();
  });

  it('a 401 with logout clears the session and tells the app; without logout it keeps it', async () => {
    const ended = vi.fn();
    const off = session.onEnd(ended);
    session.set('tok');
    fetchMock.mockResolvedValueOnce(reply(401, { error: true, message: 'x' }));
    const kept = await failure(api('get-user'));
    expect(kept).toMatchObject({ message: messages.unauthorized, status: 401, logout: false });
    expect(session.token).toBe('tok');

    fetchMock.mockResolvedValueOnce(reply(401, { error: true, message: 'x', logout: true }));
    const out = await failure(api('get-user'));
    expect(out).toMatchObject({ message: messages.unauthorized, logout: true });
    expect(session.token).toBeNull();
    expect(ended).toHaveBeenCalledOnce();
    off();
  });

  it("other failures: status text and code, or 'Erro genérico de servidor!'", async () => {
    fetchMock.mockResolvedValueOnce(reply(502, '<html>bad gateway</html>', 'Bad Gateway'));
    expect((await failure(api('get-user')))?.message).toBe('Bad Gateway (502)');
    fetchMock.mockResolvedValueOnce(reply(500, 'oops'));
    expect((await failure(api('get-user')))?.message).toBe(messages.genericServerError);
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    expect(await failure(api('get-user'))).toMatchObject({ message: messages.genericServerError, status: 0 });
  });

  it('uploads multipart with the file in the field `file`', async () => {
    session.set('tok');
    fetchMock.mockResolvedValue(reply(200, { error: false, message: { url: '/media/x.png' } }));
    const file = new File([new Uint8Array([1, 2, 3])], 'foto.png', { type: 'image/png' });
    expect(await upload('upload-profile-picture', file, 'foto.png')).toEqual({ url: '/media/x.png' });
    const init = fetchMock.mock.calls[0]?.[1] as RequestInit;
    const form = init.body as FormData;
    expect((form.get('file') as File).name).toBe('foto.png');
    // The browser sets the multipart boundary itself.
    expect(new Headers(init.headers).get('content-type')).toBeNull();
  });
});
