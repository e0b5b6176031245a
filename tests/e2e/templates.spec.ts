// /templates against the fake Graph API (spec 3 §2.14, §4, §5): the official number's templates with Meta's
// links, the dialog 'Novo template de mensagem' and its messages, a template saved PENDING then APPROVED by
// the status webhook while the screen is open, Meta's default template not deletable, and a delete confirmed.

import { labels, messages } from '@/shared/messages';
import { templateLabels as L, templateMessages as tm } from '@/shared/messages-campaigns';
import { type FakeGraph, graphEnv, startFakeGraph } from '../fakes/graph-api';
import { calm, createChip, realtimeReady, shot, signedIn, tokenOf } from './app';
import { expect, startServer, test } from './fixtures';

test.use({ seed: 'demo', ...calm });

const OWNER = 'dono@demo.com';
const WABA = '5647382910';
const SECRET = 'secret';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

test('templates of an official number: create with the rules, approved live, delete', {
  tag: '@phone',
}, async ({ page }) => {
  // A long walk with its own server and fake Graph, on a machine other workers load too.
  test.setTimeout(300_000);
  const graph: FakeGraph = await startFakeGraph();
  const own = await startServer({
    seed: 'demo',
    env: {
      ...graphEnv(graph, { WHATSAPP_APP_SECRET: SECRET }),
      WHATSAPP_APP_ID: '777000111',
    },
  });
  try {
    const server = own.server;
    graph.webhookTarget = { url: server.url, secret: SECRET };
    const owner = await tokenOf(server, OWNER);
    const admin = await tokenOf(server, 'admin@demo.com');
    const chip = await createChip(server, owner, { name: 'Oficial', department: 'Suporte', official: true });
    await server.call(
      'admin-update-chip',
      { _id: chip._id, phone_number_id: '1029384756', waba: WABA },
      admin,
    );
    graph.templates[WABA] = [
      {
        name: 'hello_world',
        status: 'APPROVED',
        language: 'en_US',
        category: 'UTILITY',
        components: [{ type: 'BODY', text: 'Hello World' }],
      },
      {
        name: 'aviso_entrega',
        status: 'APPROVED',
        language: 'pt_BR',
        category: 'UTILITY',
        components: [{ type: 'BODY', text: 'Seu pedido foi entregue.' }],
      },
    ];

    await signedIn(page, server, OWNER);
    await page.goto(`${server.url}/templates`);
    await expect(page.getByRole('heading', { name: L.templates })).toBeVisible({ timeout: 30_000 });
    // The only official number is already picked.
    await expect(page.getByRole('combobox', { name: L.number })).toHaveValue('Oficial');
    const table = page.getByLabel(L.templates, { exact: true });
    await expect(table.getByText('aviso_entrega')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Apagar hello_world' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Apagar aviso_entrega' })).toBeEnabled();
    for (const name of [L.manager, L.library]) {
      const link = page.getByRole('link', { name });
      await expect(link).toHaveAttribute('target', '_blank');
      await expect(link).toHaveAttribute('href', new RegExp(`waba_id=${WABA}`));
    }
    await shot(page, 'templates');

    // The dialog's rules, one after another, as the person fixes each.
    await page.getByRole('button', { name: L.newTemplate }).click();
    const dialog = page.getByRole('dialog', { name: L.newTitle });
    await expect(dialog).toBeVisible();
    const save = dialog.getByRole('button', { name: 'Salvar' });
    await save.click();
    await expect(dialog.getByText(messages.nameRequired)).toBeVisible();
    // The Meta name is derived from what was typed, accents and all, and shown.
    await dialog.getByLabel(labels.common.name).fill('Boas Vindas à Loja');
    await expect(dialog.getByText(L.nameSavedAs('boas_vindas_a_loja'))).toBeVisible();
    await save.click();
    await expect(dialog.getByText(tm.templateBodyRequired)).toBeVisible();
    await dialog.getByLabel(L.bodyText).fill('Olá {{ nome }}, seu pedido {{ pedido }} chegou!');
    await dialog.getByLabel(L.footer).click();
    await expect(dialog.getByLabel(L.bodyText)).toHaveValue('Olá {{1}}, seu pedido {{2}} chegou!');
    await save.click();
    await expect(dialog.getByText(tm.templateExampleRequired('{{1}}'))).toBeVisible();
    await dialog.getByLabel(L.exampleBody('{{1}}')).fill('Maria');
    await dialog.getByLabel(L.exampleBody('{{2}}')).fill('123');
    await dialog.getByRole('button', { name: L.addButton }).click();
    await dialog.getByLabel(L.buttonText(1)).fill('Quero falar com um atendente');
    await save.click();
    await expect(dialog.getByText(tm.templateButtonTextTooLong)).toBeVisible();
    await dialog.getByLabel(L.buttonText(1)).fill('Falar com atendente');
    await dialog.getByRole('button', { name: L.addButton }).click();
    await dialog.getByRole('combobox', { name: `${L.buttonType} 2` }).click();
    await page.getByRole('option', { name: L.buttonUrl }).click();
    await dialog.getByLabel(L.buttonText(2)).fill('Rastrear');
    await dialog.getByLabel(L.buttonUrlAt(2)).fill('loja.test/rastreio');
    await save.click();
    await expect(dialog.getByText(tm.templateButtonUrlInvalid)).toBeVisible();
    await dialog.getByLabel(L.buttonUrlAt(2)).fill('https://loja.test/rastreio');
    await shot(page, 'templates-new');
    await save.click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(tm.templateSaved)).toBeVisible();
    const created = graph.templates[WABA]?.find((t) => t.name === 'boas_vindas_a_loja');
    expect(created?.components).toEqual([
      {
        type: 'BODY',
        text: 'Olá {{1}}, seu pedido {{2}} chegou!',
        example: { body_text: [['Maria', '123']] },
      },
      {
        type: 'BUTTONS',
        buttons: [
          { type: 'QUICK_REPLY', text: 'Falar com atendente' },
          { type: 'URL', text: 'Rastrear', url: 'https://loja.test/rastreio' },
        ],
      },
    ]);
    const row = (name: string) =>
      isPhoneCard()
        ? table.getByRole('listitem').filter({ hasText: name })
        : table.getByRole('row').filter({ hasText: name });
    await expect(row('boas_vindas_a_loja')).toContainText(L.statuses.PENDING ?? '');

    // Meta's review arrives by webhook: the open table changes without a reload.
    await realtimeReady(page);
    await graph.setTemplateStatus(WABA, 'boas_vindas_a_loja', 'APPROVED');
    await expect(row('boas_vindas_a_loja')).toContainText(L.statuses.APPROVED ?? '');
    await graph.setTemplateStatus(WABA, 'aviso_entrega', 'REJECTED', 'INVALID_FORMAT');
    await expect(row('aviso_entrega')).toContainText(L.statuses.REJECTED ?? '');
    await expect(row('aviso_entrega')).toContainText(L.reason('INVALID_FORMAT'));
    await shot(page, 'templates-live');

    // The toast sits where Salvar is on phones (and stays while touched): closed, as a person would.
    await page.getByRole('alert').filter({ hasText: tm.templateSaved }).getByRole('button').click();
    await expect(page.getByText(tm.templateSaved)).toBeHidden();
    // An image header: the file goes to the media library, then to Meta's upload session for its handle.
    await page.getByRole('button', { name: L.newTemplate }).click();
    await expect(dialog).toBeVisible();
    await dialog.getByLabel(labels.common.name).fill('oferta_imagem');
    await dialog.getByRole('radio', { name: messages.image }).check();
    await save.click();
    await expect(dialog.getByText(tm.templateHeaderImageRequired)).toBeVisible();
    const chooser = page.waitForEvent('filechooser');
    await dialog.getByLabel(L.headerImage).click();
    await (await chooser).setFiles({ name: 'oferta.png', mimeType: 'image/png', buffer: PNG });
    await expect(dialog.getByText(L.imageSent('oferta.png'))).toBeVisible();
    await dialog.getByLabel(L.bodyText).fill('Oferta especial desta semana.');
    await save.click();
    await expect(dialog).toBeHidden();
    await expect(row('oferta_imagem')).toContainText(L.statuses.PENDING ?? '');
    const [handle] = Object.keys(graph.uploads);
    expect(graph.uploads[handle ?? '']?.bytes.equals(PNG)).toBe(true);
    expect(graph.templates[WABA]?.find((t) => t.name === 'oferta_imagem')?.components[0]).toEqual({
      type: 'HEADER',
      format: 'IMAGE',
      example: { header_handle: [handle] },
    });

    await page.getByRole('button', { name: 'Apagar aviso_entrega' }).click();
    const ask = page.getByRole('dialog', { name: L.deleteTitle });
    await expect(ask).toContainText(L.confirmDelete('aviso_entrega'));
    await ask.getByRole('button', { name: 'Confirmar' }).click();
    await expect(page.getByText(tm.templateDeleteRequested)).toBeVisible();
    await expect(table.getByText('aviso_entrega')).toBeHidden();
    expect(graph.templates[WABA]?.map((t) => t.name)).toEqual([
      'hello_world',
      'boas_vindas_a_loja',
      'oferta_imagem',
    ]);
  } finally {
    await own.stop();
    await graph.close();
  }
});

const isPhoneCard = () => test.info().project.name === 'phone';
