// Issue 16's journey, as a business lives it: a manager builds a flow in the editor by mouse (welcome text →
// quick replies → tag → a question saving {email} → a department), saves it, makes it a chip's first service
// in the chips dialog, and a customer on the simulator phone (a second browser) runs it end to end: the
// conversation lands in the department with the tag and the variable.
import type { Page } from '@playwright/test';
import type { Chip } from '@/shared/contract';
import type { ContactDetails } from '@/shared/contract/contacts';
import type { Conversation, Message } from '@/shared/contract/conversations';
import { labels, messages } from '@/shared/messages';
import { calm, connectSimulator, shot } from './app';
import { expect, test } from './fixtures';
import {
  addNode,
  closePanel,
  drag,
  L,
  moveNode,
  newFlow,
  nodesOf,
  openEditor,
  panel,
  pick,
  source,
  tagNamed,
  target,
  toast,
} from './flow-editing';

test.use({ seed: 'demo', ...calm });

const bubbles = (page: Page) => page.getByRole('list', { name: 'Mensagens' }).getByRole('listitem');
const bubble = (page: Page, text: string | RegExp) => bubbles(page).filter({ hasText: text });

async function write(page: Page, text: string) {
  const box = page.getByLabel('Mensagem');
  await box.fill(text);
  // A phone-sized page: Enter adds a line; the button sends.
  await page.getByRole('button', { name: 'Enviar' }).click();
  await expect(box).toHaveValue('');
}

test('a flow built in the editor serves a chip, and the simulator customer runs it to a department', async ({
  page,
  browser,
  server,
  signIn,
}) => {
  test.setTimeout(180_000);
  const token = await signIn(page, 'gerente@demo.com');
  const suffix = Date.now().toString(36);
  const tagName = `Lead ${suffix}`;
  const tag = await tagNamed(server, token, tagName);
  const flow = await newFlow(server, token);

  // The editor, by mouse.
  await openEditor(page, flow._id);
  await moveNode(page, nodesOf(page, 'start'), { x: 60, y: 150 });
  const welcome = await addNode(page, 'message');
  await panel(page)
    .getByLabel(labels.schedule.text, { exact: true })
    .fill('Olá {nome:first}! Bem-vindo à Loja Demo.');
  await closePanel(page);
  await moveNode(page, welcome, { x: 420, y: 150 });
  const menu = await addNode(page, 'buttons');
  await panel(page).getByLabel(labels.schedule.text, { exact: true }).fill('Como podemos ajudar?');
  await panel(page).getByLabel(`${L.title} 1`).fill('Suporte');
  await panel(page).getByRole('button', { name: L.addOption }).click();
  await panel(page).getByLabel(`${L.title} 2`).fill('Vendas');
  await closePanel(page);
  await moveNode(page, menu, { x: 780, y: 150 });
  const tagging = await addNode(page, 'add_tag');
  await pick(page, panel(page), labels.common.tags, tagName);
  await page.keyboard.press('Escape');
  await closePanel(page);
  await moveNode(page, tagging, { x: 60, y: 430 });
  const question = await addNode(page, 'question');
  await panel(page).getByLabel(labels.schedule.text, { exact: true }).fill('Qual é o seu e-mail?');
  await pick(page, panel(page), L.validation, labels.common.email);
  await panel(page).getByLabel(L.saveInVariable).fill('email');
  await closePanel(page);
  await moveNode(page, question, { x: 420, y: 430 });
  const handOver = await addNode(page, 'redirect');
  await pick(page, panel(page), labels.common.department, 'Suporte');
  await closePanel(page);
  await moveNode(page, handOver, { x: 780, y: 430 });
  const support = await menu
    .locator('.flow-node-branch')
    .filter({ hasText: 'Suporte' })
    .getAttribute('data-branch');
  await drag(page, source(nodesOf(page, 'start')), target(welcome));
  await drag(page, source(welcome), target(menu));
  await drag(page, source(menu, support ?? ''), target(tagging));
  await drag(page, source(tagging), target(question));
  await drag(page, source(question), target(handOver));
  await expect(page.locator('.react-flow__edge')).toHaveCount(5);
  await page.getByRole('button', { name: labels.common.save }).click();
  await expect(toast(page, messages.flowSaved)).toBeVisible();
  await shot(page, 'flow-journey-editor');

  // The chips dialog: this flow answers first on a simulator chip.
  const departments = await server.call<{ _id: string; name: string }[]>(
    'get-departments-by-user',
    {},
    token,
  );
  const departmentId = (name: string) => departments.find((d) => d.name === name)?._id;
  const chipName = `Fluxo ${suffix}`;
  const chip = await server.call<Chip>(
    'create-or-update-chip',
    { name: chipName, redirect: 'human', department: departmentId('Vendas') },
    token,
  );
  await page.goto('/chips');
  const row = page.getByRole('row').filter({ hasText: chipName });
  await row.getByRole('button', { name: 'Editar', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Editar chip' });
  await dialog.getByRole('combobox', { name: 'Tipo do primeiro atendimento' }).click();
  await page.getByRole('option', { name: 'Chatbot de fluxo', exact: true }).click();
  await dialog.getByRole('combobox', { name: 'Fluxo', exact: true }).click();
  await page.getByRole('option', { name: flow.name, exact: true }).click();
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(dialog).toBeHidden();
  await expect
    .poll(async () =>
      (await server.call<Chip[]>('get-chip-numbers-by-user', {}, token)).find((c) => c._id === chip._id),
    )
    .toMatchObject({ redirect: 'flow_chatbot', flow: flow._id });
  const simulator = await connectSimulator(server, token, chip._id);

  // The customer, on the simulator phone in a browser of their own.
  const phoneContext = await browser.newContext({
    ...calm.contextOptions,
    viewport: { width: 360, height: 640 },
  });
  try {
    const phone = await phoneContext.newPage();
    await phone.goto(`/simulador/${simulator}`);
    await phone.getByLabel('DDD e número').fill('11 97000-1601');
    await phone.getByLabel('Nome').fill('Mariana Souza');
    await phone.getByRole('button', { name: 'Abrir conversa' }).click();
    await write(phone, 'Oi');
    await expect(bubble(phone, 'Olá Mariana! Bem-vindo à Loja Demo.')).toBeVisible();
    const offered = bubble(phone, 'Como podemos ajudar?');
    await expect(offered.getByRole('button', { name: 'Suporte' })).toBeVisible();
    await shot(phone, 'flow-journey-phone-menu');
    await offered.getByRole('button', { name: 'Suporte' }).click();
    await expect(bubble(phone, 'Qual é o seu e-mail?')).toBeVisible();
    // A wrong answer is asked again; the right one is saved.
    await write(phone, 'meu email');
    await expect(bubble(phone, messages.flowInvalidAnswer)).toBeVisible();
    await write(phone, 'mariana@exemplo.com');
    await shot(phone, 'flow-journey-phone-done');

    // The conversation is with a person in Suporte; the contact has the tag and the variable.
    let conversation: Conversation | undefined;
    await expect
      .poll(async () => {
        conversation = (
          await server.call<{ conversations: Conversation[] }>(
            'get-conversations-with-last-message',
            { filter: { chips: [chip._id] } },
            token,
          )
        ).conversations[0];
        return conversation && [conversation.is_manual, conversation.department];
      })
      .toEqual([true, departmentId('Suporte')]);
    const contact = await server.call<ContactDetails>(
      'get-contact-by-id',
      { contact_id: conversation?.contact._id },
      token,
    );
    expect(contact.tags).toContain(tag._id);
    expect(contact.data).toMatchObject({ email: 'mariana@exemplo.com' });
    // Each step went out once.
    const history = await server.call<Message[]>(
      'get-messages-by-conversation',
      { conversation_id: conversation?._id },
      token,
    );
    expect(history.filter((m) => m.origin === 'chatbot').map((m) => m.message)).toEqual([
      'Olá Mariana! Bem-vindo à Loja Demo.',
      'Como podemos ajudar?',
      'Qual é o seu e-mail?',
      messages.flowInvalidAnswer,
    ]);
    expect(new Set(history.filter((m) => m.origin === 'chatbot').map((m) => m.source))).toEqual(
      new Set(['flow']),
    );

    // The attendant sees it in Atendimento, no longer served by the flow.
    await page.goto(`/atendimento?c=${conversation?._id}`);
    const pane = page.getByRole('region', { name: /Mariana Souza/ });
    await expect(pane.getByText('mariana@exemplo.com')).toBeVisible();
    // The flow's messages are labelled by their engine, not as the AI chatbot's.
    const welcome = pane.getByRole('listitem').filter({ hasText: 'Olá Mariana! Bem-vindo à Loja Demo.' });
    await expect(welcome).toContainText(labels.common.flow);
    await expect(welcome).not.toContainText(labels.common.chatbot);
    await shot(page, 'flow-journey-attendance');
  } finally {
    await phoneContext.close();
  }
  await server.call('create-or-update-chip', { _id: chip._id, filed: true }, token);
});
