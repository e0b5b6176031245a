// A flow's menus on the simulator phone, end to end: a chip whose first service is a flow, the customer
// writes, the flow's quick replies arrive as buttons under its message and its list behind a button that
// opens a sheet of rows; each tap arrives as the customer's message with the option's title and moves the
// flow on, until it hands the conversation to a department. The page's switch then shows the same menus as
// numbered text (a number without interactive messages).
import type { Page } from '@playwright/test';
import type { Chip } from '@/shared/contract';
import type { Conversation, Message } from '@/shared/contract/conversations';
import { messages } from '@/shared/messages';
import { calm, connectSimulator, followSocket, isPhone, realtimeReady, signedIn, tokenOf } from './app';
import { type AppServer, expect, test } from './fixtures';

test.use({ seed: 'demo', ...calm });

const project = () => test.info().project.name;
const look = (page: Page, name: string) =>
  page.screenshot({ path: `test-results/screens/simulator-menus-${name}-${project()}.png` });

const bubbles = (page: Page) => page.getByRole('list', { name: 'Mensagens' }).getByRole('listitem');
const bubble = (page: Page, text: string) => bubbles(page).filter({ hasText: text });

const node = (id: string, type: string, y: number, data: Record<string, unknown>) => ({
  id,
  type,
  position: { x: 0, y },
  data,
});

/** Início → quick replies (Suporte: a person in Suporte; Assuntos: the list) → a list of two rows → Vendas. */
async function menuFlow(server: AppServer, token: string, name: string) {
  const departments = await server.call<{ _id: string; name: string }[]>(
    'get-departments-by-user',
    {},
    token,
  );
  const id = (n: string) => departments.find((d) => d.name === n)?._id ?? null;
  const flow = await server.call<{ _id: string }>('create-or-update-flow', { name }, token);
  await server.call(
    'create-or-update-flow',
    {
      _id: flow._id,
      nodes: [
        node('start', 'start', 0, {}),
        node('menu', 'buttons', 120, {
          text: 'Como podemos ajudar?',
          options: [
            { id: 'o_suporte', title: 'Suporte' },
            { id: 'o_assuntos', title: 'Assuntos' },
          ],
        }),
        node('topics', 'list', 260, {
          text: 'Escolha um assunto',
          button: 'Ver assuntos',
          options: [
            { id: 'r_fin', title: 'Financeiro', description: 'Boletos e notas fiscais' },
            { id: 'r_ped', title: 'Pedidos', description: 'Entrega e trocas' },
          ],
        }),
        node('to_support', 'redirect', 400, { to: 'human', value: id('Suporte') }),
        node('to_sales', 'redirect', 400, { to: 'human', value: id('Vendas') }),
      ],
      connections: [
        { id: 'e1', source: 'start', sourceHandle: 'next', target: 'menu' },
        { id: 'e2', source: 'menu', sourceHandle: 'o_suporte', target: 'to_support' },
        { id: 'e3', source: 'menu', sourceHandle: 'o_assuntos', target: 'topics' },
        { id: 'e4', source: 'topics', sourceHandle: 'r_fin', target: 'to_sales' },
        { id: 'e5', source: 'topics', sourceHandle: 'r_ped', target: 'to_sales' },
      ],
    },
    token,
  );
  return { flowId: flow._id, sales: id('Vendas') };
}

async function chooseCustomer(page: Page, number: string, name: string) {
  await expect(page.getByRole('heading', { name: 'Quem é você?' })).toBeVisible();
  await page.getByLabel('DDD e número').fill(number);
  await page.getByLabel('Nome').fill(name);
  await page.getByRole('button', { name: 'Abrir conversa' }).click();
  await expect(page.getByRole('list', { name: 'Mensagens' })).toBeVisible();
}

async function write(page: Page, text: string) {
  const box = page.getByLabel('Mensagem');
  await box.fill(text);
  if (isPhone()) await page.getByRole('button', { name: 'Enviar' }).click();
  else await box.press('Enter');
  await expect(box).toHaveValue('');
}

test('quick replies and a list on the simulator phone: each tap answers and moves the flow on', {
  tag: '@phone',
}, async ({ page, browser, server }) => {
  const token = await tokenOf(server, 'gerente@demo.com');
  const suffix = `${project()} ${Date.now().toString(36)}`;
  const { flowId, sales } = await menuFlow(server, token, `Menu ${suffix}`);
  const departments = await server.call<{ _id: string; name: string }[]>(
    'get-departments-by-user',
    {},
    token,
  );
  const chip = await server.call<Chip>(
    'create-or-update-chip',
    {
      name: `Menus ${suffix}`,
      redirect: 'flow_chatbot',
      flow: flowId,
      department: departments.find((d) => d.name === 'Suporte')?._id,
    },
    token,
  );
  const simulator = await connectSimulator(server, token, chip._id);
  const number = project() === 'phone' ? '11 97000-1101' : '11 97000-1102';

  await page.goto(`/simulador/${simulator}`);
  const customer = `Cliente Menus ${suffix}`;
  await chooseCustomer(page, number, customer);
  await write(page, 'Oi');

  // The quick replies: buttons under the flow's message.
  const menu = bubble(page, 'Como podemos ajudar?');
  await expect(menu.getByRole('button', { name: 'Suporte' })).toBeVisible();
  await expect(menu.getByRole('button', { name: 'Assuntos' })).toBeVisible();
  await look(page, 'buttons');

  // Meanwhile, in the panel: the list marks the conversation a flow is serving, and its message shows the
  // options the customer was offered.
  const conversationNow = async () =>
    (
      await server.call<{ conversations: Conversation[] }>(
        'get-conversations-with-last-message',
        { filter: { chips: [chip._id] } },
        token,
      )
    ).conversations[0];
  const open = await conversationNow();
  expect(open).toMatchObject({ is_manual: false, chatbot_type: 'flow_chatbot', flow: flowId });
  const staffContext = await browser.newContext({ ...calm.contextOptions, viewport: page.viewportSize() });
  try {
    const staff = await staffContext.newPage();
    await signedIn(staff, server, 'gerente@demo.com');
    await staff.goto('/atendimento');
    const row = staff.getByRole('button', { name: new RegExp(customer) });
    await expect(row.getByLabel('Atendida por um fluxo')).toBeVisible();
    await look(staff, 'attendance-list');
    await staff.goto(`/atendimento?c=${open?._id}`);
    const pane = staff.getByRole('region', { name: customer });
    await expect(pane.locator('header')).toContainText('Fluxo');
    await expect(pane.getByRole('list', { name: 'Opções enviadas' }).getByRole('listitem')).toHaveText([
      'Suporte',
      'Assuntos',
    ]);
    await realtimeReady(staff);
    await look(staff, 'attendance-pane');
  } finally {
    await staffContext.close();
  }

  await menu.getByRole('button', { name: 'Assuntos' }).click();
  // The tap is the customer's message, with the option's title.
  await expect(bubbles(page).filter({ hasText: /^Você:Assuntos/ })).toHaveCount(1);

  // The list: one button; its sheet shows the rows with their descriptions.
  const list = bubble(page, 'Escolha um assunto');
  await expect(list.getByRole('button', { name: 'Ver assuntos' })).toBeVisible();
  await list.getByRole('button', { name: 'Ver assuntos' }).click();
  const sheet = page.getByRole('dialog', { name: 'Ver assuntos' });
  await expect(sheet).toContainText('Boletos e notas fiscais');
  await look(page, 'list-sheet');
  await sheet.getByRole('button', { name: /^Financeiro/ }).click();
  await expect(sheet).toBeHidden();
  await expect(bubbles(page).filter({ hasText: /^Você:Financeiro/ })).toHaveCount(1);
  await look(page, 'answered');

  // The flow handed it to a person in Vendas; the panel's messages carry the menus offered.
  let conversation: Conversation | undefined;
  await expect
    .poll(async () => {
      conversation = await conversationNow();
      return conversation && [conversation.is_manual, conversation.department];
    })
    .toEqual([true, sales]);
  const history = await server.call<Message[]>(
    'get-messages-by-conversation',
    { conversation_id: conversation?._id },
    token,
  );
  expect(history.filter((m) => m.origin === 'customer').map((m) => m.message)).toEqual([
    'Oi',
    'Assuntos',
    'Financeiro',
  ]);
  expect(history.filter((m) => m.interactive).map((m) => [m.message, m.interactive?.kind])).toEqual([
    ['Como podemos ajudar?', 'buttons'],
    ['Escolha um assunto', 'list'],
  ]);

  // The same menus as a number without interactive messages shows them: numbered text, nothing to tap.
  await page.getByRole('switch', { name: 'Menus em texto numerado (número sem API oficial)' }).click();
  await expect(bubble(page, '1. Suporte')).toContainText(messages.flowMenuFooter);
  await expect(page.getByRole('button', { name: 'Ver assuntos' })).toHaveCount(0);
  await look(page, 'numbered');
  await page.getByRole('switch', { name: 'Menus em texto numerado (número sem API oficial)' }).click();
  await expect(page.getByRole('button', { name: 'Ver assuntos' })).toBeVisible();

  await server.call('create-or-update-chip', { _id: chip._id, filed: true }, token);
});

test("a flow's typing time shows 'digitando…' in the simulator's header until its message arrives", async ({
  page,
  server,
}) => {
  const token = await tokenOf(server, 'gerente@demo.com');
  const suffix = `${project()} ${Date.now().toString(36)}`;
  const flow = await server.call<{ _id: string }>(
    'create-or-update-flow',
    { name: `Digitando ${suffix}` },
    token,
  );
  await server.call(
    'create-or-update-flow',
    {
      _id: flow._id,
      nodes: [
        node('start', 'start', 0, {}),
        node('hello', 'message', 120, { kind: 'text', text: 'Olá! Já vou te atender.', typing_seconds: 3 }),
      ],
      connections: [{ id: 'e1', source: 'start', sourceHandle: 'next', target: 'hello' }],
    },
    token,
  );
  const departments = await server.call<{ _id: string; name: string }[]>(
    'get-departments-by-user',
    {},
    token,
  );
  const chip = await server.call<Chip>(
    'create-or-update-chip',
    {
      name: `Digitando ${suffix}`,
      redirect: 'flow_chatbot',
      flow: flow._id,
      department: departments.find((d) => d.name === 'Suporte')?._id,
    },
    token,
  );
  const simulator = await connectSimulator(server, token, chip._id);
  await page.goto(`/simulador/${simulator}`);
  // The customer writes once the page's socket is in its room, or 'digitando…' could come before it.
  followSocket(page);
  await chooseCustomer(page, project() === 'phone' ? '11 97000-1103' : '11 97000-1104', 'Cliente Digitando');
  await realtimeReady(page);
  const status = page.locator('header').getByText(messages.typing);
  await write(page, 'Oi');
  await expect(status).toBeVisible();
  await look(page, 'typing');
  // The message ends it.
  await expect(bubble(page, 'Olá! Já vou te atender.')).toHaveCount(1);
  await expect(status).toBeHidden();
  await expect(page.locator('header').getByText('online')).toBeVisible();
});
