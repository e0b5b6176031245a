// Nova conversa in Atendimento: a new number on a simulator chip (checked first, then opened in the pane),
// the contact picker finding it again, and an official chip (against the fake Graph API) refusing to start
// without an APPROVED fixed-content template.
import type { Page } from '@playwright/test';
import type { Chip } from '@/shared/contract';
import type { Conversation } from '@/shared/contract/conversations';
import { formatPhone } from '@/shared/format';
import { messages } from '@/shared/messages';
import { type FakeGraph, graphEnv, startFakeGraph } from '../fakes/graph-api';
import { calm, createChip, shot, signedIn, tokenOf } from './app';
import { expect, startServer, test } from './fixtures';

test.use({ seed: 'demo', ...calm });

const OWNER = 'dono@demo.com';
const project = () => test.info().project.name;

async function openDialog(page: Page) {
  await page.goto('/atendimento');
  await page.getByRole('button', { name: messages.newConversationPushTitle, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: messages.newConversationPushTitle });
  await expect(dialog).toBeVisible();
  return dialog;
}

async function pickChip(page: Page, dialog: ReturnType<Page['getByRole']>, name: string) {
  await dialog.getByRole('combobox', { name: 'Chip' }).click();
  await page.getByRole('option', { name }).click();
}

test('a new number on a simulator chip opens a conversation, and the picker finds the contact', async ({
  page,
  server,
}) => {
  const owner = await tokenOf(server, OWNER);
  const name = `Nova ${project()} ${Date.now().toString(36)}`;
  const chip = await createChip(server, owner, { name, department: 'Suporte' });
  let conversationId: string | null = null;
  try {
    await server.call('connect-chip', { _id: chip._id, connect: true }, owner);
    let qrcode = '';
    await expect
      .poll(async () => {
        const chips = await server.call<Chip[]>('get-chip-numbers-by-user', {}, owner);
        qrcode = chips.find((c) => c._id === chip._id)?.qrcode ?? '';
        return qrcode;
      })
      .toContain('/simulador/');
    const link = new URL(qrcode, server.url);
    await server.call('simulator-open', {
      token: link.pathname.split('/').at(-1),
      pair: link.searchParams.get('pair') ?? undefined,
    });
    const number = `119${project() === 'phone' ? '7' : '8'}${String(Date.now()).slice(-7)}`;

    await signedIn(page, server, OWNER);
    let dialog = await openDialog(page);
    await pickChip(page, dialog, name);
    await expect(dialog.getByLabel('Código do país')).toHaveValue('55');
    await dialog.getByLabel('Telefone').fill('11 9');
    await dialog.getByRole('button', { name: 'Iniciar conversa' }).click();
    await expect(dialog.getByText(messages.invalidPhone)).toBeVisible();
    await dialog.getByLabel('Telefone').fill(number);
    await shot(page, 'new-conversation');
    await dialog.getByRole('button', { name: 'Iniciar conversa' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(messages.newConversationStarted)).toBeVisible();

    // The pane opens on it: a human conversation with the new contact.
    const title = formatPhone(`55${number}`);
    const pane = page.getByRole('region', { name: title });
    await expect(pane.getByRole('heading', { name: title })).toBeVisible();
    await shot(page, 'new-conversation-opened');
    const { conversations } = await server.call<{ conversations: Conversation[] }>(
      'get-conversations-with-last-message',
      { filter: { text: number } },
      owner,
    );
    expect(conversations[0]).toMatchObject({
      is_manual: true,
      chip: chip._id,
      contact: { phone: `55${number}` },
    });
    conversationId = conversations[0]?._id ?? null;

    // The contact picker: searched by a part of the number, it starts (opens) the same conversation.
    dialog = await openDialog(page);
    await pickChip(page, dialog, name);
    await dialog.getByRole('radiogroup', { name: 'Destinatário' }).getByText('Contato').click();
    await dialog.getByLabel('Buscar contato').fill(number.slice(-7));
    const option = dialog.getByRole('radio', { name: new RegExp(title.slice(-9).replace(/[()+]/g, '\\$&')) });
    await expect(option).toBeVisible();
    await expect(dialog.getByRole('radiogroup', { name: 'Contato' }).getByRole('radio')).toHaveCount(1);
    await option.check();
    await shot(page, 'new-conversation-picker');
    await dialog.getByRole('button', { name: 'Iniciar conversa' }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`c=${conversationId}`));
  } finally {
    if (conversationId) await server.call('finish-conversation', { conversation_id: conversationId }, owner);
    await server.call('create-or-update-chip', { _id: chip._id, filed: true }, owner);
  }
});

test('an official chip without a usable template is refused', async ({ page }) => {
  const graph: FakeGraph = await startFakeGraph();
  const own = await startServer({
    seed: 'demo',
    env: {
      ...graphEnv(graph),
    },
  });
  try {
    const server = own.server;
    const owner = await tokenOf(server, OWNER);
    const admin = await tokenOf(server, 'admin@demo.com');
    const created = await createChip(server, owner, {
      name: 'Oficial',
      department: 'Suporte',
      official: true,
    });
    await server.call(
      'admin-update-chip',
      { _id: created._id, phone_number_id: '1029384756', waba: '5647382910' },
      admin,
    );
    await server.call('register-phone-number', { _id: created._id, register: true }, admin);
    await server.call('connect-chip', { _id: created._id, connect: true }, owner);
    // Only templates that cannot be sent as they are: one pending, one with a variable, one with an image.
    graph.templates['5647382910'] = [
      { name: 'pendente', status: 'PENDING', language: 'pt_BR', components: [{ type: 'BODY', text: 'Oi' }] },
      {
        name: 'variavel',
        status: 'APPROVED',
        language: 'pt_BR',
        components: [{ type: 'BODY', text: 'Oi {{1}}' }],
      },
      {
        name: 'imagem',
        status: 'APPROVED',
        language: 'pt_BR',
        components: [
          { type: 'HEADER', format: 'IMAGE' },
          { type: 'BODY', text: 'Veja' },
        ],
      },
    ];

    await signedIn(page, server, OWNER);
    await page.goto(`${server.url}/atendimento`);
    await page.getByRole('button', { name: messages.newConversationPushTitle, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: messages.newConversationPushTitle });
    await pickChip(page, dialog, 'Oficial (API Oficial)');
    await dialog.getByLabel('Telefone').fill('11987650000');
    const templates = dialog.getByRole('combobox', { name: 'Template de mensagem' });
    await expect(templates).toBeVisible();
    await expect.poll(() => graph.to('/message_templates').length).toBeGreaterThan(0);
    await templates.click();
    await expect(page.getByRole('option')).toHaveCount(0);
    await page.keyboard.press('Escape');
    await dialog.getByRole('button', { name: 'Iniciar conversa' }).click();
    await expect(dialog.getByText(messages.scheduleTemplateRequired)).toBeVisible();
    await shot(page, 'new-conversation-official-refused');
    expect(graph.to('/messages')).toHaveLength(0);
    const { conversations } = await server.call<{ conversations: Conversation[] }>(
      'get-conversations-with-last-message',
      { filter: { text: '11987650000' } },
      owner,
    );
    expect(conversations).toHaveLength(0);
  } finally {
    await own.stop();
    await graph.close();
  }
});
