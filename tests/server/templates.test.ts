// Message templates of an official number against the fake Graph API (spec 3 §2.14, §4, §5 Template save):
// created PENDING on the chip's WABA, then APPROVED or REJECTED by a signed message_template_status_update
// webhook that reaches the account's sockets; deleted by name; every rule of the dialog answered in pt-BR;
// an image header uploaded with the Resumable Upload API; access, plan and another account's chip refused.
import { eq } from 'drizzle-orm';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { accounts, mediaLibrary } from '@/server/db/schema';
import type { LibraryMedia } from '@/shared/contract/media';
import type { TemplateFields } from '@/shared/contract/templates';
import { newId } from '@/shared/ids';
import { messages as texts } from '@/shared/messages';
import { campaignMessages, templateMessages as tm } from '@/shared/messages-campaigns';
import { type FakeGraph, graphEnv, startFakeGraph } from '../fakes/graph-api';
import { collect, connected, connectedSimulatorChip, listen, roundTrip } from './channel-helpers';
import { testServerPerFile } from './helpers';

const PHONE_NUMBER_ID = '1029384756';
const WABA = '5647382910';
const APP_ID = '777000111';
const SECRET = 'secret';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

const graph: FakeGraph = await startFakeGraph();
const s = testServerPerFile({
  ...graphEnv(graph, { WHATSAPP_APP_SECRET: SECRET }),
  WHATSAPP_APP_ID: APP_ID,
});
afterAll(() => graph.close());
beforeEach(() => {
  graph.clear();
  graph.webhookTarget = { url: s.t.url, secret: SECRET };
});

async function officialChip(opts: { phoneNumberId?: string; waba?: string } = {}) {
  const owner = await s.t.login('dono@demo.com');
  const admin = await s.t.login('admin@demo.com');
  const created = await s.t.call(
    'create-or-update-chip',
    { name: 'Oficial', redirect: 'human', department: s.seed.departments.support, official: true },
    owner,
  );
  await s.t.call(
    'admin-update-chip',
    { _id: created._id, phone_number_id: opts.phoneNumberId ?? PHONE_NUMBER_ID, waba: opts.waba ?? WABA },
    admin,
  );
  return { owner, chip: created._id };
}

const form = (over: Partial<TemplateFields> = {}): TemplateFields => ({
  name: 'boas_vindas',
  category: 'MARKETING',
  language: 'pt_BR',
  header_format: 'NONE',
  body: 'Olá {{ nome }}, seu pedido {{pedido}} saiu. Obrigado, {{nome}}!',
  footer: 'Loja Demo',
  buttons: [],
  body_examples: ['Maria', '123'],
  ...over,
});

async function uploadImage(token: string, bytes: Buffer, name: string) {
  const body = new FormData();
  body.append('type', 'image');
  body.append('name', 'Cabeçalho');
  body.append('file', new Blob([new Uint8Array(bytes)]), name);
  const res = await fetch(`${s.t.url}/api/upload-media`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body,
  });
  const env = (await res.json()) as { error: boolean; message: LibraryMedia };
  if (env.error) throw new Error(String(env.message));
  return env.message;
}

/** A file in the account's library that upload-media would not take (its type, its size). */
async function libraryFile(bytes: Buffer, ext: string, mime: string) {
  const stored = await s.t.server.services.media.save(bytes, ext, mime);
  await s.t.server.services.db.insert(mediaLibrary).values({
    id: newId(),
    accountId: s.seed.accountId,
    type: 'image',
    name: 'Arquivo',
    url: stored.url,
    mime,
    size: bytes.length,
  });
  return stored.url;
}

describe('template lifecycle', () => {
  it('creates a template PENDING with its variables normalised, then the webhook approves or rejects it live', async () => {
    const { owner, chip } = await officialChip();
    const live = await listen(s.t, 'dono@demo.com');

    const created = await s.t.call(
      'create-message-template',
      {
        chip,
        ...form({
          header_format: 'TEXT',
          header_text: 'Pedido {{ pedido }}',
          header_examples: ['123'],
          buttons: [
            { type: 'URL', text: 'Rastrear', url: 'https://loja.test/rastreio' },
            { type: 'QUICK_REPLY', text: 'Falar com alguém' },
            { type: 'PHONE_NUMBER', text: 'Ligar', phone_number: '+5511955555555' },
            { type: 'QUICK_REPLY', text: 'Parar' },
          ],
        }),
      },
      owner,
    );
    expect(created).toMatchObject({
      name: 'boas_vindas',
      status: 'PENDING',
      category: 'MARKETING',
      default: false,
      body: 'Olá {{1}}, seu pedido {{2}} saiu. Obrigado, {{1}}!',
    });
    expect(created.id).toMatch(/^\d+$/);

    // What Meta received: normalised texts with one example per variable, quick replies first.
    const [sent] = graph.to('/message_templates').filter((r) => r.method === 'POST');
    expect(sent?.path).toBe(`/${WABA}/message_templates`);
    expect(sent?.json).toEqual({
      name: 'boas_vindas',
      language: 'pt_BR',
      category: 'MARKETING',
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'Pedido {{1}}', example: { header_text: ['123'] } },
        {
          type: 'BODY',
          text: 'Olá {{1}}, seu pedido {{2}} saiu. Obrigado, {{1}}!',
          example: { body_text: [['Maria', '123']] },
        },
        { type: 'FOOTER', text: 'Loja Demo' },
        {
          type: 'BUTTONS',
          buttons: [
            { type: 'QUICK_REPLY', text: 'Falar com alguém' },
            { type: 'QUICK_REPLY', text: 'Parar' },
            { type: 'URL', text: 'Rastrear', url: 'https://loja.test/rastreio' },
            { type: 'PHONE_NUMBER', text: 'Ligar', phone_number: '+5511955555555' },
          ],
        },
      ],
    });

    let list = await s.t.call('get-message-templates', { chip }, owner);
    expect(list.map((t) => [t.name, t.status])).toEqual([['boas_vindas', 'PENDING']]);
    expect(list[0]?.buttons.map((b) => b.type)).toEqual([
      'QUICK_REPLY',
      'QUICK_REPLY',
      'URL',
      'PHONE_NUMBER',
    ]);

    await graph.setTemplateStatus(WABA, 'boas_vindas', 'APPROVED');
    expect((await live.next('template_status')).message).toEqual({
      waba: WABA,
      name: 'boas_vindas',
      language: 'pt_BR',
      status: 'APPROVED',
      reason: null,
    });
    list = await s.t.call('get-message-templates', { chip }, owner);
    expect(list[0]).toMatchObject({ status: 'APPROVED', reason: null });

    await s.t.call('create-message-template', { chip, ...form({ name: 'promo_agressiva' }) }, owner);
    await graph.setTemplateStatus(WABA, 'promo_agressiva', 'REJECTED', 'PROMOTIONAL');
    expect((await live.next('template_status')).message).toMatchObject({
      name: 'promo_agressiva',
      status: 'REJECTED',
      reason: 'PROMOTIONAL',
    });
    list = await s.t.call('get-message-templates', { chip }, owner);
    expect(list.find((t) => t.name === 'promo_agressiva')).toMatchObject({
      status: 'REJECTED',
      reason: 'PROMOTIONAL',
    });
  });

  it('sends the status to every account with a chip on that WABA, and to no other', async () => {
    await officialChip();
    const admin = await s.t.login('admin@demo.com');
    await s.t.call(
      'create-user',
      { name: 'Outra', email: 'outra@conta.test', password: 'SenhaOutra123' },
      admin,
    );
    const otherToken = await s.t.login('outra@conta.test', 'SenhaOutra123');
    const otherAccount = (await s.t.call('get-user', {}, otherToken)).account._id;
    await s.t.server.services.db
      .update(accounts)
      .set({ campaignsEnabled: true, maxChannels: 5, maxOfficialChannels: 1 })
      .where(eq(accounts.id, otherAccount));
    const department = await s.t.call('create-or-update-department', { name: 'Geral' }, otherToken);
    const theirs = await s.t.call(
      'create-or-update-chip',
      { name: 'Oficial B', redirect: 'human', department: department._id, official: true },
      otherToken,
    );
    await s.t.call('admin-update-chip', { _id: theirs._id, phone_number_id: '555', waba: '999' }, admin);
    const other = collect(s.t.socket(otherToken));
    await connected(other.sock);
    const mine = await listen(s.t, 'dono@demo.com');
    graph.templates[WABA] = [
      { id: '11', name: 'aviso', status: 'PENDING', language: 'pt_BR', components: [] },
    ];
    await graph.setTemplateStatus(WABA, 'aviso', 'APPROVED');
    expect((await mine.next('template_status')).message.name).toBe('aviso');
    await roundTrip(other.sock);
    expect(other.events.filter((e) => e.type === 'template_status')).toEqual([]);

    // The same WABA shared by the other account's number: both hear of it.
    await s.t.call('admin-update-chip', { _id: theirs._id, phone_number_id: '555', waba: WABA }, admin);
    await graph.setTemplateStatus(WABA, 'aviso', 'PAUSED', 'LOW_QUALITY');
    expect((await mine.next('template_status')).message).toMatchObject({
      status: 'PAUSED',
      reason: 'LOW_QUALITY',
    });
    expect((await other.next('template_status')).message).toMatchObject({ name: 'aviso', status: 'PAUSED' });
  });

  it('lists every page, marks Meta samples as default and refuses to delete them; deletes the others by name', async () => {
    const { owner, chip } = await officialChip();
    const body = (text: string) => [{ type: 'BODY', text }];
    graph.templates[WABA] = [
      {
        name: 'hello_world',
        status: 'APPROVED',
        language: 'en_US',
        category: 'UTILITY',
        components: body('Hi'),
      },
      {
        name: 'sample_shipping_confirmation',
        status: 'APPROVED',
        language: 'en_US',
        category: 'UTILITY',
        components: body('Shipped'),
      },
      {
        name: 'aviso',
        status: 'APPROVED',
        language: 'pt_BR',
        category: 'UTILITY',
        components: body('Aviso'),
      },
    ];
    const list = await s.t.call('get-message-templates', { chip }, owner);
    expect(list.map((t) => [t.name, t.default])).toEqual([
      ['hello_world', true],
      ['sample_shipping_confirmation', true],
      ['aviso', false],
    ]);

    const refused = await s.t.post('delete-message-template', { chip, name: 'hello_world' }, owner);
    expect(refused.body).toEqual({ error: true, message: tm.templateDefaultNotDeletable });
    const unknown = await s.t.post('delete-message-template', { chip, name: 'nao_existe' }, owner);
    expect(unknown.body).toEqual({ error: true, message: tm.templateNotFound });
    expect(graph.requests.filter((r) => r.method === 'DELETE')).toEqual([]);

    expect(await s.t.call('delete-message-template', { chip, name: 'aviso' }, owner)).toEqual({ ok: true });
    const [deleted] = graph.requests.filter((r) => r.method === 'DELETE');
    expect(deleted).toMatchObject({ path: `/${WABA}/message_templates`, query: { name: 'aviso' } });
    const after = await s.t.call('get-message-templates', { chip }, owner);
    expect(after.map((t) => t.name)).toEqual(['hello_world', 'sample_shipping_confirmation']);
  });

  it('uploads an image header with the Resumable Upload API and sends its handle', async () => {
    const { owner, chip } = await officialChip();
    const image = await uploadImage(owner, PNG, 'banner.png');
    const created = await s.t.call(
      'create-message-template',
      { chip, ...form({ header_format: 'IMAGE', header_image: image.url }) },
      owner,
    );
    const [session] = graph.to('/uploads');
    expect(session).toMatchObject({
      path: `/${APP_ID}/uploads`,
      query: { file_length: String(PNG.length), file_type: 'image/png' },
    });
    const handles = Object.keys(graph.uploads);
    expect(handles).toHaveLength(1);
    expect(graph.uploads[handles[0] ?? '']?.bytes.equals(PNG)).toBe(true);
    expect(created.components[0]).toEqual({
      type: 'HEADER',
      format: 'IMAGE',
      example: { header_handle: [handles[0]] },
    });
    expect(graph.templates[WABA]?.[0]?.components[0]).toEqual(created.components[0]);
  });
});

describe('template save rules', () => {
  const cases: [string, Partial<TemplateFields>, string][] = [
    ['no name', { name: '  ' }, texts.nameRequired],
    ['a name Meta refuses', { name: 'Boas Vindas' }, tm.templateNameInvalid],
    ['no body', { body: ' ', body_examples: [] }, tm.templateBodyRequired],
    ['a body starting with a variable', { body: '{{1}} chegou' }, tm.templateBodyVariableAtEdge],
    [
      'a body ending with a variable',
      { body: 'Oi {{ nome }}', body_examples: ['Ana'] },
      tm.templateBodyVariableAtEdge,
    ],
    ['a header text left empty', { header_format: 'TEXT', header_text: '' }, tm.templateHeaderTextRequired],
    [
      'two variables in the header',
      { header_format: 'TEXT', header_text: '{{a}} e {{b}}', header_examples: ['x', 'y'] },
      tm.templateHeaderOneVariable,
    ],
    ['an image header without its image', { header_format: 'IMAGE' }, tm.templateHeaderImageRequired],
    [
      'eleven buttons',
      {
        buttons: Array.from({ length: 11 }, (_, i) => ({ type: 'QUICK_REPLY' as const, text: `Opção ${i}` })),
      },
      tm.templateTooManyButtons,
    ],
    [
      'a button without text',
      { buttons: [{ type: 'QUICK_REPLY', text: ' ' }] },
      tm.templateButtonTextRequired,
    ],
    [
      'a button text of 26 characters',
      { buttons: [{ type: 'QUICK_REPLY', text: 'x'.repeat(26) }] },
      tm.templateButtonTextTooLong,
    ],
    ['a URL button without URL', { buttons: [{ type: 'URL', text: 'Site' }] }, tm.templateButtonUrlRequired],
    [
      'a URL that is no web address',
      { buttons: [{ type: 'URL', text: 'Site', url: 'loja.test' }] },
      tm.templateButtonUrlInvalid,
    ],
    [
      'a URL of 1001 characters',
      { buttons: [{ type: 'URL', text: 'Site', url: `https://${'a'.repeat(993)}` }] },
      tm.templateButtonValueTooLong,
    ],
    [
      'a phone button without phone',
      { buttons: [{ type: 'PHONE_NUMBER', text: 'Ligar' }] },
      tm.templateButtonPhoneRequired,
    ],
    [
      'a phone not like +5511955555555',
      { buttons: [{ type: 'PHONE_NUMBER', text: 'Ligar', phone_number: '11 95555-5555' }] },
      tm.templateButtonPhoneInvalid,
    ],
    [
      'two URL buttons',
      {
        buttons: [
          { type: 'URL', text: 'A', url: 'https://a.test' },
          { type: 'URL', text: 'B', url: 'https://b.test' },
        ],
      },
      tm.templateOneUrlButton,
    ],
    [
      'two phone buttons',
      {
        buttons: [
          { type: 'PHONE_NUMBER', text: 'A', phone_number: '+5511955555555' },
          { type: 'PHONE_NUMBER', text: 'B', phone_number: '+5511955555556' },
        ],
      },
      tm.templateOnePhoneButton,
    ],
    ['a body variable without example', { body_examples: ['Maria'] }, tm.templateExampleRequired('{{2}}')],
    [
      'a header variable without example',
      { header_format: 'TEXT', header_text: 'Pedido {{1}}', header_examples: [' '] },
      tm.templateExampleRequired('{{1}}'),
    ],
  ];
  it.each(cases)('refuses %s', async (_what, over, message) => {
    const { owner, chip } = await officialChip();
    const r = await s.t.post('create-message-template', { chip, ...form(over) }, owner);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ error: true, message });
    expect(graph.requests.filter((q) => q.method === 'POST')).toEqual([]);
  });

  it('refuses a name already used in that language, as Meta would', async () => {
    const { owner, chip } = await officialChip();
    await s.t.call('create-message-template', { chip, ...form() }, owner);
    const again = await s.t.post('create-message-template', { chip, ...form() }, owner);
    expect(again.body).toEqual({ error: true, message: tm.templateNameTaken, field: 'name' });
    // Another language is another template.
    const english = await s.t.call(
      'create-message-template',
      { chip, ...form({ language: 'en_US' }) },
      owner,
    );
    expect(english.language).toBe('en_US');
  });

  it('refuses an image header of another type, over 5 MB, not of the account, or with no app id set', async () => {
    const { owner, chip } = await officialChip();
    const gif = await libraryFile(GIF, 'gif', 'image/gif');
    const wrong = await s.t.post(
      'create-message-template',
      { chip, ...form({ header_format: 'IMAGE', header_image: gif }) },
      owner,
    );
    expect(wrong.body).toMatchObject({ error: true, message: tm.templateHeaderImageType });
    const big = await libraryFile(Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]), 'png', 'image/png');
    const large = await s.t.post(
      'create-message-template',
      { chip, ...form({ header_format: 'IMAGE', header_image: big }) },
      owner,
    );
    expect(large.body).toMatchObject({ error: true, message: tm.templateHeaderImageTooLarge });
    const stray = await s.t.post(
      'create-message-template',
      { chip, ...form({ header_format: 'IMAGE', header_image: '/media/aaaaaaaaaaaaaaaaaaaaaaaaaaaa.png' }) },
      owner,
    );
    expect(stray.body).toMatchObject({ error: true, message: tm.templateHeaderImageRequired });
    expect(graph.to('/uploads')).toEqual([]);

    const config = s.t.server.services.config as { WHATSAPP_APP_ID?: string };
    config.WHATSAPP_APP_ID = undefined;
    try {
      const image = await uploadImage(owner, PNG, 'ok.png');
      const off = await s.t.post(
        'create-message-template',
        { chip, ...form({ header_format: 'IMAGE', header_image: image.url }) },
        owner,
      );
      expect(off.body).toMatchObject({ error: true, message: tm.templateHeaderImageUnavailable });
    } finally {
      config.WHATSAPP_APP_ID = APP_ID;
    }
    expect(graph.templates[WABA] ?? []).toEqual([]);
  });

  it('answers a Graph failure in pt-BR, never a 500', async () => {
    const { owner, chip } = await officialChip();
    graph.failNext({ code: 1, status: 500, message: 'An unknown error occurred' });
    const r = await s.t.post('get-message-templates', { chip }, owner);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ error: true, message: texts.cloudApiFailed(1) });
    graph.failNext('network');
    const cut = await s.t.post('create-message-template', { chip, ...form() }, owner);
    expect(cut.body).toMatchObject({ error: true, message: texts.cloudApiUnreachable });
  });
});

describe('template access', () => {
  it('refuses a chip that is not official, another account’s chip, an attendant and a plan without official numbers', async () => {
    const { owner, chip } = await officialChip();
    const simulator = await connectedSimulatorChip(s.t, owner, { department: s.seed.departments.support });
    const plain = await s.t.post('get-message-templates', { chip: simulator.chip._id }, owner);
    expect(plain.body).toMatchObject({ error: true, message: tm.templateChipNotOfficial });

    const admin = await s.t.login('admin@demo.com');
    await s.t.call(
      'create-user',
      { name: 'Outra', email: 'outra@conta.test', password: 'SenhaOutra123' },
      admin,
    );
    const otherToken = await s.t.login('outra@conta.test', 'SenhaOutra123');
    const otherAccount = (await s.t.call('get-user', {}, otherToken)).account._id;
    await s.t.server.services.db
      .update(accounts)
      .set({ campaignsEnabled: true, maxOfficialChannels: 1 })
      .where(eq(accounts.id, otherAccount));
    for (const [call, payload] of [
      ['get-message-templates', { chip }],
      ['create-message-template', { chip, ...form() }],
      ['delete-message-template', { chip, name: 'aviso' }],
    ] as const) {
      const r = await s.t.post(call, payload, otherToken);
      expect(r.body, call).toMatchObject({ error: true, message: texts.notFound });
    }

    const attendant = await s.t.login('atendente@demo.com');
    const denied = await s.t.post('get-message-templates', { chip }, attendant);
    expect(denied.body).toMatchObject({ error: true, message: texts.insufficientPermissions });

    await s.t.server.services.db
      .update(accounts)
      .set({ maxOfficialChannels: 0 })
      .where(eq(accounts.id, s.seed.accountId));
    const gated = await s.t.post('create-message-template', { chip, ...form() }, owner);
    expect(gated.body).toMatchObject({ error: true, message: campaignMessages.officialNotInPlan });
    expect(graph.requests).toEqual([]);
  });
});
