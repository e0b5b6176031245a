// 'Saiba mais' on /contatos and /conversas, and a help video hosted on another site playing inside the
// dialog: a second local server stands for the video site (another origin), and the CSP allows that
// origin for frames and media, and no other.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { messages } from '@/shared/messages';
import { calm, signedIn } from './app';
import { expect, startServer, test } from './fixtures';

test.use({ ...calm });

let videoSite: Server;
let videoOrigin = '';
let app: Awaited<ReturnType<typeof startServer>>;
test.beforeAll(async () => {
  videoSite = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>player</title><h1>Vídeo ${decodeURIComponent(req.url ?? '')}</h1>`);
  });
  await new Promise<void>((resolve) => videoSite.listen(0, '127.0.0.1', resolve));
  videoOrigin = `http://127.0.0.1:${(videoSite.address() as AddressInfo).port}`;
  app = await startServer({ seed: 'demo', env: { HELP_VIDEO_URL: `${videoOrigin}/embed/{topic}` } });
});
test.afterAll(async () => {
  await app?.stop();
  videoSite?.close();
});

for (const [path, topic, title] of [
  ['/contatos', 'contatos', 'Contatos e tags'],
  ['/conversas', 'conversas', 'Conversas finalizadas'],
] as const) {
  test(`${path} has 'Saiba mais', whose video from another site plays in the dialog`, async ({ page }) => {
    await signedIn(page, app.server, 'gerente@demo.com');
    const response = await page.goto(`${app.server.url}${path}`);
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain(`frame-src 'self' ${videoOrigin};`);
    expect(csp).toContain(`media-src 'self' blob: ${videoOrigin};`);
    await page.getByRole('button', { name: 'Saiba mais' }).click();
    const help = page.getByRole('dialog', { name: title });
    const frame = help.getByTitle(messages.helpVideoTitle(title));
    await expect(frame).toHaveAttribute('src', `${videoOrigin}/embed/${topic}`);
    // The player page really loads inside the dialog (the CSP does not block it).
    await expect(
      help.frameLocator('iframe').getByRole('heading', { name: `Vídeo /embed/${topic}` }),
    ).toBeVisible();
    await page.screenshot({ path: `/tmp/shots-config/help-${topic}-${test.info().project.name}.png` });
  });
}

// Issue 34 item 5: the list pages that lacked it (spec 1: "Each list page has a 'Saiba mais' dialog").
test("/templates, /auto-follow-ups, /admin-clientes and /admin-ofertas have 'Saiba mais'", async ({
  page,
}) => {
  for (const [email, path, title] of [
    ['dono@demo.com', '/templates', 'Templates'],
    ['dono@demo.com', '/auto-follow-ups', 'Follow-ups automáticos'],
    ['admin@demo.com', '/admin-clientes', 'Clientes'],
    ['admin@demo.com', '/admin-ofertas', 'Ofertas'],
  ] as const) {
    await signedIn(page, app.server, email);
    await page.goto(`${app.server.url}${path}`);
    await page.getByRole('button', { name: 'Saiba mais' }).click();
    const help = page.getByRole('dialog', { name: title });
    await expect(help.getByTitle(messages.helpVideoTitle(title))).toHaveAttribute(
      'src',
      `${videoOrigin}/embed/${path.slice(1)}`,
    );
    await page.keyboard.press('Escape');
    await expect(help).toBeHidden();
  }
});
