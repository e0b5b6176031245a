// Small steps the app's e2e files share, done the way a person does them.
import { expect, type Page, test } from '@playwright/test';
import type { Conversation } from '@/shared/contract/conversations';

export const DEMO_PASSWORD = 'demo123';

/** Browser options of the app's files: no animations, so screenshots and clicks see the settled screen. */
export const calm = { contextOptions: { reducedMotion: 'reduce' as const } };

export const isPhone = () => test.info().project.name === 'phone';

/** A screenshot to look at: test-results/screens/<name>-<project>.png. */
export const shot = (page: Page, name: string) =>
  page.screenshot({ path: `test-results/screens/${name}-${test.info().project.name}.png`, fullPage: true });

export async function signInWithForm(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Senha', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page).not.toHaveURL(/\/(login|welcome)(\?|$)/);
}

/** The main menu: the side menu on desktop, the drawer behind the burger on phones. */
export async function mainMenu(page: Page) {
  if (isPhone()) {
    await page.getByRole('button', { name: 'Abrir menu' }).click();
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await expect(drawer).toBeVisible();
    return drawer.getByRole('navigation', { name: 'Menu principal' });
  }
  return page.getByRole('navigation', { name: 'Menu principal' });
}

export async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Menu do usuário' }).click();
  await page.getByRole('menuitem', { name: 'Sair' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sair' });
  await expect(dialog).toContainText('Deseja sair do painel?');
  await dialog.getByRole('button', { name: 'Confirmar' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

/** A new customer account (its owner) made by the demo platform admin: a user no other test touches. */
export async function newCustomer(
  server: { call<T>(call: string, body?: unknown, token?: string): Promise<T> },
  prefix: string,
) {
  const { token: admin } = await server.call<{ token: string }>('auth', {
    email: 'admin@demo.com',
    password: DEMO_PASSWORD,
  });
  const email = `${prefix}-${test.info().project.name}-${Date.now()}@teste.com`;
  const password = 'senha123';
  await server.call('create-user', { name: 'Cliente Teste', email, password }, admin);
  return { email, password };
}

type ApiCaller = { call<T>(call: string, body?: unknown, token?: string): Promise<T> };

/** A chip made through the API, entering by the named department, for files that need one quickly. */
export async function createChip(
  server: ApiCaller,
  token: string,
  fields: { name: string; department: string; official?: boolean },
) {
  const departments = await server.call<{ _id: string; name: string }[]>(
    'get-departments-by-user',
    {},
    token,
  );
  const department = departments.find((d) => d.name === fields.department);
  if (!department) throw new Error(`no department ${fields.department}`);
  return server.call<{ _id: string; name: string }>(
    'create-or-update-chip',
    { name: fields.name, redirect: 'human', department: department._id, official: fields.official ?? false },
    token,
  );
}

/**
 * An official number set up as support does (admin-update-chip with its phone number id and WABA, registered)
 * and connected by the owner, in the Suporte department: the fake Graph API answers for it.
 */
export async function connectedOfficialChip(
  server: ApiCaller,
  number: { name: string; phoneNumberId: string; waba: string },
) {
  const owner = await tokenOf(server, 'dono@demo.com');
  const admin = await tokenOf(server, 'admin@demo.com');
  const chip = await createChip(server, owner, { name: number.name, department: 'Suporte', official: true });
  await server.call(
    'admin-update-chip',
    { _id: chip._id, phone_number_id: number.phoneNumberId, waba: number.waba },
    admin,
  );
  await server.call('register-phone-number', { _id: chip._id, register: true }, admin);
  await server.call('connect-chip', { _id: chip._id, connect: true }, owner);
  return chip;
}

/** Signs in through the API: the token for `email` (a demo user by default password). */
export const tokenOf = async (server: ApiCaller, email: string, password = DEMO_PASSWORD) =>
  (await server.call<{ token: string }>('auth', { email, password })).token;

/**
 * Connects a simulator chip as a person does: connect, wait for its QR code, open the link it encodes (which
 * pairs the chip). Answers the simulator's token, for the customer's calls and page.
 */
export async function connectSimulator(server: ApiCaller & { url: string }, token: string, chipId: string) {
  await server.call('connect-chip', { _id: chipId, connect: true }, token);
  let qrcode = '';
  await expect
    .poll(async () => {
      const chips = await server.call<{ _id: string; qrcode?: string | null }[]>(
        'get-chip-numbers-by-user',
        {},
        token,
      );
      qrcode = chips.find((c) => c._id === chipId)?.qrcode ?? '';
      return qrcode;
    })
    .toContain('/simulador/');
  const link = new URL(qrcode, server.url);
  const simulator = link.pathname.split('/').at(-1) as string;
  await server.call('simulator-open', { token: simulator, pair: link.searchParams.get('pair') ?? undefined });
  return simulator;
}

/** Signs `email` in by its token in the page's storage (no form): the next visit opens the app. */
export async function signedIn(
  page: Page,
  server: ApiCaller & { url: string },
  email: string,
  password = DEMO_PASSWORD,
) {
  const token = await tokenOf(server, email, password);
  followSocket(page);
  await page.goto(`${server.url}/login`);
  await page.evaluate((t) => localStorage.setItem('token', t), token);
  return token;
}

// The page's socket: events reach a page only once the server has accepted its socket, so a test that
// makes something happen for the page to see live waits for that first. A transient event sent before (the
// simulator's 'digitando…') is never seen: the page reads its history again on connect, not the typing.
const sockets = new WeakMap<Page, { current: unknown; live: boolean }>();

/** Follows the page's socket from now on (signedIn does it; a simulator page, which signs nobody in, asks). */
export function followSocket(page: Page) {
  if (sockets.has(page)) return;
  const state = { current: null as unknown, live: false };
  sockets.set(page, state);
  page.on('websocket', (ws) => {
    if (new URL(ws.url()).pathname !== '/sock/') return;
    state.current = ws;
    state.live = false;
    // socket.io's CONNECT answer ("40…") comes after the server's middleware has joined the rooms.
    ws.on('framereceived', ({ payload }) => {
      if (state.current === ws && String(payload).startsWith('40')) state.live = true;
    });
    ws.on('close', () => {
      if (state.current === ws) state.live = false;
    });
  });
}

/** Waits until the page's socket is accepted (the page was opened after `signedIn` or `followSocket`). */
export async function realtimeReady(page: Page) {
  await expect
    .poll(() => sockets.get(page)?.live ?? false, { message: 'the page’s socket is connected' })
    .toBe(true);
}

// The simulator customer: a phone no other file or project shares, the messages it sends to a connected
// simulator chip, and the conversation that opens for it.

let seq = 0;
/** A message id the simulator has not seen: unique per call, file and worker. */
export const localId = () =>
  `e2e${Date.now().toString(36)}${(seq++).toString(36)}${Math.random().toString(36).slice(2, 8)}`;

/**
 * A customer's phone as a person types it (11 9NNNN-NNRP): `n` (below a million) the customer, `range` (0-9)
 * the spec file's own and P the project's, so no other file or project writes from it, and its last digits
 * alone find it.
 */
export const phoneOf = (range: number, n: number) => {
  const digits = String(n).padStart(6, '0');
  return `11 9${digits.slice(0, 4)}-${digits.slice(4)}${range}${isPhone() ? '1' : '2'}`;
};

/** The contact's phone as the server stores it: digits, with Brazil's 55. */
export const digitsOf = (phone: string) => {
  const digits = phone.replace(/\D/g, '');
  return digits.length > 11 && digits.startsWith('55') ? digits : `55${digits}`;
};

/** The open conversation of the customer at `phone`, as the API lists it to `token`. */
export async function conversationOf(server: ApiCaller, token: string, phone: string) {
  const digits = digitsOf(phone);
  let found: Conversation | undefined;
  await expect
    .poll(async () => {
      const { conversations } = await server.call<{ conversations: Conversation[] }>(
        'get-conversations-with-last-message',
        { filter: { text: digits } },
        token,
      );
      found = conversations.find((c) => c.contact.phone === digits);
      return Boolean(found);
    })
    .toBe(true);
  return found as Conversation;
}

/**
 * A simulator chip entering by `department` (first service human), connected (its QR link opened):
 * customers can write to it. Its name gets the project, the time and a number: the test's own.
 */
export async function connectedChip(
  server: ApiCaller & { url: string },
  token: string,
  name: string,
  department = 'Suporte',
) {
  const unique = `${test.info().project.name} ${Date.now().toString(36)}${seq++}`;
  const chip = await createChip(server, token, { name: `${name} ${unique}`, department });
  const simulator = await connectSimulator(server, token, chip._id);
  /** The customer `customer` at `phone` sends `text`. */
  const write = (phone: string, customer: string, text: string) =>
    server.call<{ id: string }>('simulator-send', {
      token: simulator,
      phone,
      name: customer,
      id: localId(),
      type: 'text',
      text,
    });
  return {
    ...chip,
    simulator,
    write,
    /** A customer who wrote: their phone, name and conversation (as the chip's creator sees it). */
    async customer(phone: string, customer: string, text = 'Olá!') {
      await write(phone, customer, text);
      return { phone, name: customer, conversation: await conversationOf(server, token, phone) };
    },
    file: () => server.call('create-or-update-chip', { _id: chip._id, filed: true }, token),
  };
}
export type TestChip = Awaited<ReturnType<typeof connectedChip>>;
