import { messages } from '@/shared/messages';
import { calm, signedIn } from './app';
import { expect, startServer, test } from './fixtures';

test.use({ ...calm });

test('the socket connects to /sock/ with the token; when the server is gone it retries 3 times, then says so', async ({
  page,
}) => {
  test.setTimeout(90_000);
  // A server of its own: this test stops it.
  const app = await startServer();
  let stopped = false;
  try {
    const sockets: string[] = [];
    page.on('websocket', (ws) => sockets.push(ws.url()));
    await signedIn(page, app.server, 'atendente@demo.com');
    await page.goto(`${app.server.url}/atendimento`);
    await expect(page.getByRole('heading', { level: 1, name: 'Atendimento' })).toBeVisible();
    await expect.poll(() => sockets.some((u) => new URL(u).pathname === '/sock/')).toBe(true);

    // The clock starts before the stop: the socket drops during it, and a slow stop (a loaded machine)
    // must not eat into the retries' measured time.
    const since = Date.now();
    await app.stop();
    stopped = true;
    // 2.5 s + 4.5 s + 6.5 s of retries (spec 1 §9), then the message.
    const failed = page.getByRole('alert').filter({ hasText: messages.socketFailed });
    await expect(failed).toBeVisible({ timeout: 25_000 });
    expect(Date.now() - since).toBeGreaterThanOrEqual(13_000);
  } finally {
    if (!stopped) await app.stop();
  }
});
