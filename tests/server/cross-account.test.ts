// The cross-account walk (issue 14): like bad-input.test.ts walks the registry with bad bodies, this walks
// it with another account's ids. Account B gets data of every kind, each name and text carrying a secret
// marker; then every call of the registry is made as account A's owner and as an attendant of A, with a
// valid payload where one id-like field (found in the call's zod schema, so the walk grows with the
// registry) holds one of B's ids. Any answer holding B's marker, phone or an id of B's that was not sent,
// or any change to B's rows, is a leak. The same walk runs for an attendant of A against A's other
// department, whose conversations she may not see.
import { eq, getTableName, inArray } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { allTables } from '@/server/db';
import { campaigns, conversations, messages, pushSubscriptions, users } from '@/server/db/schema';
import { createAccount } from '@/server/domains/accounts/accounts.service';
import { hashPassword } from '@/server/domains/auth/passwords';
import { DEMO_PASSWORD } from '@/server/seed/demo';
import { ACCESS_AREAS } from '@/shared/constants';
import { type CallName, calls } from '@/shared/contract';
import { newId } from '@/shared/ids';
import { makeXlsx } from '../xlsx';
import { connectedSimulatorChip, until } from './channel-helpers';
import { validDraft } from './chatbot-helpers';
import { startTestServer, type TestServer } from './helpers';

const SECRET = 'SEGREDOB7Q';
const SALES_SECRET = 'SEGREDOVENDAS9Z';
const B_PHONE = '5521976543210';
const SALES_PHONE = '5531976543210';
const A_PHONE = '5511976543210';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const inHours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();
let seq = 0;
const freshId = () => `xa${Date.now().toString(36)}${(seq++).toString(36)}zz`;

let t: TestServer;
const db = () => t.server.services.db;

// ---- the schema walk -------------------------------------------------------------------------------

type Schema = z.ZodType & {
  _zod: { def: Record<string, unknown> & { type: string }; bag: Record<string, unknown> };
};
const defOf = (s: z.ZodType) => (s as Schema)._zod.def;

/** The schema under optional, nullable, default and pipe wrappers. */
function unwrap(s: z.ZodType): z.ZodType {
  const d = defOf(s);
  if (['optional', 'nullable', 'default', 'prefault', 'readonly', 'nonoptional'].includes(d.type))
    return unwrap(d.innerType as z.ZodType);
  if (d.type === 'pipe') return unwrap(d.in as z.ZodType);
  return s;
}

const ID_LIKE =
  /^(_id|id|ids)$|_id$|^(chip|chips|contact|contacts|conversation|conversations|department|departments|tag|tags|user|users|reply_message|endpoint|waba|flow|chatbot)$/;

/** Paths (key lists) of the id-like string or string-array fields of a payload schema. */
function idPaths(s: z.ZodType, at: string[] = []): string[][] {
  const inner = unwrap(s);
  const d = defOf(inner);
  if (d.type === 'object') {
    return Object.entries((inner as z.ZodObject).shape).flatMap(([k, v]) =>
      idPaths(v as z.ZodType, [...at, k]),
    );
  }
  const key = at.at(-1) ?? '';
  if (!ID_LIKE.test(key)) return [];
  if (d.type === 'string') return [at];
  if (d.type === 'array' && defOf(unwrap(d.element as z.ZodType)).type === 'string') return [at];
  return [];
}

/** A plain valid-looking value for a schema: required fields only, the smallest allowed sizes. */
function sample(s: z.ZodType): unknown {
  const d = defOf(s);
  switch (d.type) {
    case 'optional':
    case 'nullable':
    case 'readonly':
    case 'nonoptional':
      return sample(d.innerType as z.ZodType);
    case 'default':
    case 'prefault':
      return typeof d.defaultValue === 'function' ? d.defaultValue() : d.defaultValue;
    case 'pipe':
      return sample(d.in as z.ZodType);
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries((s as z.ZodObject).shape)) {
        if (defOf(v as z.ZodType).type === 'optional') continue;
        out[k] = sample(v as z.ZodType);
      }
      return out;
    }
    case 'string': {
      const bag = (s as Schema)._zod.bag;
      if (bag.format === 'datetime') return new Date().toISOString();
      if (bag.format === 'url') return 'https://example.com/x';
      if (bag.format === 'email') return 'x@example.com';
      return 'x'.repeat(Math.max(1, Number(bag.minimum ?? 1)));
    }
    case 'number':
      return Math.max(1, Number((s as Schema)._zod.bag.minimum ?? 1));
    case 'boolean':
      return false;
    case 'enum':
      return Object.values(d.entries as Record<string, unknown>)[0];
    case 'literal':
      return (d.values as unknown[])[0];
    case 'array':
      return [];
    case 'record':
      return {};
    case 'union':
      return sample((d.options as z.ZodType[])[0] as z.ZodType);
    default:
      return null;
  }
}

function schemaAt(s: z.ZodType, path: string[]): z.ZodType {
  let cur = s;
  for (const k of path) cur = (unwrap(cur) as z.ZodObject).shape[k] as z.ZodType;
  return cur;
}

/** The payload with `value` at `path` (intermediate objects made from the schema when absent). */
function withValue(schema: z.ZodType, payload: Record<string, unknown>, path: string[], value: string) {
  const out = structuredClone(payload);
  let cur = out;
  path.forEach((k, i) => {
    const last = i === path.length - 1;
    if (last) {
      const isArray = defOf(unwrap(schemaAt(schema, path))).type === 'array';
      cur[k] = isArray ? [value] : value;
      return;
    }
    if (cur[k] === undefined || cur[k] === null)
      cur[k] = sample(unwrap(schemaAt(schema, path.slice(0, i + 1))));
    cur = cur[k] as Record<string, unknown>;
  });
  return out;
}

/** A webhook's sample and its telefone mapping (a save needs them). */
const WEBHOOK_MAPPING = {
  data: JSON.stringify({ cliente: { telefone: '11976543200' } }),
  fields: [{ name: 'telefone', origin: ['cliente.telefone'], value: '' }],
};

// ---- the data --------------------------------------------------------------------------------------

interface Side {
  ownerToken: string;
  chip: string;
  simulatorToken: string;
  conversation: string;
  contact: string;
  message: string;
  department: string;
  tag: string;
  endpoint: string;
}
let A: Side & {
  attendantId: string;
  quickMessage: string;
  scheduled: string;
  media: string;
  flow: string;
  chatbot: string;
  audience: string;
  campaign: string;
  officialCampaign: string;
  webhook: string;
};
let ownerA: string;
let attendantA: string; // Ana, Suporte
let bAccountId: string;
let aAccountId: string;
let bRefs: string[] = [];
let salesRefs: string[] = [];

/** The answer of a call; a failed call throws. */
const call = <N extends CallName>(name: N, body: unknown, token: string) => t.call(name, body, token);

async function uploadMedia(token: string, name: string) {
  const form = new FormData();
  form.append('type', 'image');
  form.append('name', name);
  form.append('file', new Blob([new Uint8Array(PNG)]), 'f.png');
  const res = await fetch(`${t.url}/api/upload-media`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const env = (await res.json()) as { error: boolean; message: { _id: string } };
  if (env.error) throw new Error(`upload-media: ${JSON.stringify(env)}`);
  return env.message._id;
}

/** An audience of the account, from a sheet of one person. */
async function importAudience(token: string, name: string, phone: string) {
  const form = new FormData();
  form.append('name', name);
  form.append('create_contacts', 'false');
  const sheet = await makeXlsx([
    ['telefone', 'nome'],
    [phone, name],
  ]);
  form.append('file', new Blob([new Uint8Array(sheet)]), 'audiencia.xlsx');
  const res = await fetch(`${t.url}/api/import-audience`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const env = (await res.json()) as { error: boolean; message: { _id: string } };
  if (env.error) throw new Error(`import-audience: ${JSON.stringify(env)}`);
  return env.message._id;
}

const pushSubscription = (name: string) => ({
  endpoint: `https://push.example.com/send/${name}`,
  keys: { p256dh: `BP${name}`.padEnd(87, 'A'), auth: `au${name}`.padEnd(22, 'A') },
});

/** A customer writes through a connected simulator chip: a contact, a conversation and a message. */
async function customer(owner: string, department: string, phone: string, name: string, text: string) {
  const { chip, simulatorToken } = await connectedSimulatorChip(t, owner, {
    department,
    name: `Chip ${name}`,
  });
  await call(
    'simulator-send',
    { token: simulatorToken, phone, name, id: freshId(), type: 'text', text },
    simulatorToken,
  );
  const conversation = await until(
    async () => (await db().select().from(conversations).where(eq(conversations.chipId, chip._id)))[0],
  );
  const [message] = await db().select().from(messages).where(eq(messages.conversationId, conversation.id));
  if (!message) throw new Error('no message');
  return {
    chip: chip._id,
    simulatorToken,
    conversation: conversation.id,
    contact: conversation.contactId,
    message: message.id,
  };
}

/** Account B, built as its owner would, every name and text carrying the secret. */
async function buildAccountB() {
  const hash = await hashPassword(DEMO_PASSWORD);
  const { accountId } = await createAccount(db(), {
    account: {
      name: `Conta ${SECRET}`,
      maxChannels: 5,
      maxOfficialChannels: 1,
      maxUsers: 10,
      campaignsEnabled: true,
    },
    owner: {
      name: `Dono ${SECRET}`,
      email: 'dono@b.test',
      passwordHash: hash,
      accessAreas: [...ACCESS_AREAS],
    },
  });
  bAccountId = accountId;
  const owner = await t.login('dono@b.test');
  const department = (await call('create-or-update-department', { name: `Depto ${SECRET}` }, owner))._id;
  const tag = (
    await call(
      'create-or-update-tag',
      { name: `Tag ${SECRET}`, color: '#112233', auto_tag: false, keywords: [] },
      owner,
    )
  )._id;
  await call('create-or-update-quick-message', { shortcut: 'segredob', message: `Rápida ${SECRET}` }, owner);
  // An official number on B's WABA: the template calls must not reach it from A.
  const official = await call(
    'create-or-update-chip',
    { name: `Oficial ${SECRET}`, redirect: 'human', department, official: true },
    owner,
  );
  await call(
    'admin-update-chip',
    { _id: official._id, phone_number_id: `9${Date.now()}`, waba: `waba${SECRET}` },
    await t.login('admin@demo.com'),
  );
  await call(
    'create-team-user',
    {
      name: `Atendente ${SECRET}`,
      email: 'atendente@b.test',
      user_role: 'user',
      departments: [department],
      access_areas: ['contacts'],
      password: 'SenhaB123',
    },
    owner,
  );
  const c = await customer(owner, department, B_PHONE, `Cliente ${SECRET}`, `Mensagem ${SECRET}`);
  await call(
    'send-conversation-message',
    { conversation_id: c.conversation, message_id: freshId(), text: `Resposta ${SECRET}` },
    owner,
  );
  await call(
    'create-system-message',
    { conversation_id: c.conversation, message: `Sistema ${SECRET}` },
    owner,
  );
  await call('change-contact-tags', { contact_id: c.contact, tags: [tag] }, owner);
  // A webhook of B's: A must neither read, change nor delete it by its id (webhooks need B's API key).
  await call('update-api-key', {}, owner);
  await call(
    'create-or-update-webhook',
    { _id: newId(), name: `Webhook ${SECRET}`, chip: c.chip, ...WEBHOOK_MAPPING },
    owner,
  );
  await call(
    'change-contact-annotations-and-data',
    { contact_id: c.contact, data: { segredo: SECRET }, new_annotation: `Nota ${SECRET}` },
    owner,
  );
  await call(
    'create-scheduled-message',
    {
      chip: c.chip,
      country_code: '55',
      to: '21976543211',
      type: 'text',
      message: `Agendada ${SECRET}`,
      scheduledTo: inHours(48),
    },
    owner,
  );
  const flow = await call(
    'create-or-update-flow',
    { name: `Fluxo ${SECRET}`, trigger: true, keywords: [`chave${SECRET}`] },
    owner,
  );
  await call(
    'create-scheduled-message',
    {
      chip: c.chip,
      country_code: '55',
      to: '21976543212',
      type: 'flow',
      message: '',
      flow: flow._id,
      scheduledTo: inHours(48),
    },
    owner,
  );
  await call(
    'create-or-update-chatbot',
    validDraft({ name: `Chatbot ${SECRET}`, instructionsObject: { context: `Contexto ${SECRET}` } }),
    owner,
  );
  await uploadMedia(owner, `Mídia ${SECRET}`);
  await campaignIn(
    owner,
    c.chip,
    `Campanha ${SECRET}`,
    await importAudience(owner, `Audiência ${SECRET}`, B_PHONE),
  );
  await call('subscribe-push', pushSubscription('contab'), owner);
  // Old enough for finish-inactive-conversations, were it not scoped to the caller's account.
  await db()
    .update(conversations)
    .set({ lastMessageAt: new Date(Date.now() - 72 * 3600_000) })
    .where(eq(conversations.accountId, accountId));
}

/** Every id of B's rows, its messages' client ids and its push endpoints. */
async function idsOfAccount(accountId: string) {
  const refs: string[] = [accountId];
  for (const table of accountTables()) {
    const cols = table as unknown as Record<string, PgColumn>;
    if (!cols.id) continue;
    const rows = await db()
      .select({ id: cols.id })
      .from(table)
      .where(eq(cols.accountId as PgColumn, accountId));
    refs.push(...rows.map((r) => String(r.id)));
  }
  const extra = await db()
    .select({ m: messages.messageId })
    .from(messages)
    .where(eq(messages.accountId, accountId));
  refs.push(...extra.flatMap((r) => (r.m ? [r.m] : [])));
  const subs = await db()
    .select({ e: pushSubscriptions.endpoint })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.accountId, accountId));
  refs.push(...subs.map((r) => r.e));
  return [...new Set(refs)];
}

const accountTables = () =>
  allTables.filter((table) => 'accountId' in (table as unknown as Record<string, unknown>)) as PgTable[];

/** B's rows, table by table, for the before/after comparison. */
async function snapshot(where: (table: PgTable) => ReturnType<typeof eq> | undefined) {
  const out: Record<string, unknown[]> = {};
  await Promise.all(
    accountTables().map(async (table) => {
      const cond = where(table);
      if (!cond) return;
      const rows = await db().select().from(table).where(cond);
      out[getTableName(table)] = rows.map((r) => JSON.stringify(r)).sort();
    }),
  );
  return out;
}
const snapshotB = () =>
  snapshot((table) => eq((table as unknown as Record<string, PgColumn>).accountId as PgColumn, bAccountId));

// ---- A's valid payloads -----------------------------------------------------------------------------

/** A's own value for an id-like field, so that only the field under test holds a foreign id. */
function ownValue(name: CallName, key: string): unknown {
  if (key === 'message_id' || (name === 'simulator-send' && key === 'id')) return freshId();
  const byKey: Record<string, unknown> = {
    chip: A.chip,
    audience: A.audience,
    chips: [],
    contact_id: A.contact,
    conversation_id: A.conversation,
    department: A.department,
    departments: [A.department],
    tags: [A.tag],
    endpoint: A.endpoint,
    waba: 'waba-a',
    ids: [A.message],
  };
  return byKey[key];
}

/** A campaign's form (its chip and audience are A's own values). */
const campaignForm = {
  name: 'Campanha A',
  audience_type: 'audience',
  message_type: 'text',
  message: ['Oi'],
  interval: 20,
  scheduledTo: inHours(48),
};

/** A campaign of the account on its chip, to its audience, due in 48 h. */
async function campaignIn(owner: string, chip: string, name: string, audience: string) {
  return (await call('create-campaign', { ...campaignForm, name, chip, audience }, owner))._id;
}

/** A well-formed id, where an admin call only needs one (those calls are refused to A's users). */
const A_ID = () => 'A'.repeat(28);

const overrides: Partial<Record<CallName, Record<string, unknown>>> = {
  'create-or-update-tag': { name: 'Tag A', color: '#445566', auto_tag: false, keywords: [] },
  'create-or-update-department': { name: 'Depto A' },
  'create-or-update-quick-message': { shortcut: 'atalhoa', message: 'Oi' },
  'create-team-user': {
    name: 'Nova',
    email: 'nova@a.test',
    user_role: 'user',
    access_areas: [],
    password: 'SenhaA123',
  },
  'update-team-user': {
    name: 'Ana Atendente',
    email: 'atendente@demo.com',
    user_role: 'user',
    access_areas: ['contacts'],
  },
  'create-or-update-chip': { name: 'Chip A', redirect: 'human', official: false },
  'check-phone': { phone: A_PHONE },
  'send-conversation-message': { text: 'Olá' },
  'create-system-message': { message: 'Nota do sistema' },
  'transfer-conversation': { type: 'department' },
  'create-or-update-flow': { name: 'Fluxo A' },
  'duplicate-flow': { name: 'Cópia A' },
  'create-or-update-chatbot': validDraft({ name: 'Chatbot A' }),
  'test-chatbot': { draft: validDraft(), lines: [{ from: 'customer', text: 'Oi' }] },
  'change-contact-name': { override_name: 'Outro nome' },
  'change-contact-annotations-and-data': { data: {}, new_annotation: 'nota' },
  'get-messages-by-conversation': { limit: 50 },
  'get-conversations-with-last-message': { limit: 15 },
  'create-scheduled-message': {
    country_code: '55',
    to: '11976543219',
    type: 'text',
    message: 'Oi',
    scheduledTo: inHours(24),
  },
  'update-scheduled-message': {
    country_code: '55',
    to: '11976543219',
    type: 'text',
    message: 'Oi',
    scheduledTo: inHours(24),
  },
  'simulator-send': { phone: A_PHONE, name: 'Cliente A', type: 'text', text: 'Oi' },
  'simulator-mark': { phone: A_PHONE, status: 3 },
  'simulator-get-messages': { phone: A_PHONE },
  'subscribe-push': { keys: pushSubscription('a2').keys },
  'create-or-update-audience': { name: 'Audiência A' },
  'import-contacts': { people: [{ telefone: '5511976543299' }], props: ['telefone'] },
  auth: { email: 'dono@demo.com', password: DEMO_PASSWORD },
  'send-password-recovery': { email: 'dono@demo.com' },
  'reset-password': { password: 'SenhaNova123' },
  'create-user': { email: 'nova@conta.test', password: 'SenhaNova123' },
  'summarize-messages': { text: 'Resuma' },
  'create-ai-follow-up': { text: 'Siga' },
  'finish-inactive-conversations': { hours: 48 },
  'change-user-password': { old_password: 'errada', password: 'SenhaNova123' },
  'create-campaign': campaignForm,
  'update-campaign': campaignForm,
  'create-or-update-official-campaign': {
    name: 'Oficial A',
    audience_type: 'audience',
    scheduledTo: inHours(48),
    template: { name: 'modelo_a', language: 'pt_BR', components: [] },
    template_parameters: [],
    template_payloads: [],
    conversation_creation_rule: 'all',
    redirect: 'human',
  },
  'create-message-template': { name: 'template_a', body: 'Oi, tudo bem?', category: 'UTILITY' },
  'delete-message-template': { name: 'template_a' },
  // Platform administration (admin.ts): customer_admin only, refused to these users; valid bodies all the same.
  'change-customer-password': { _id: A_ID(), password: 'SenhaNova123' },
  'get-account-usage': { account: A_ID() },
  'update-account': { _id: A_ID(), max_channels: 1, max_official_channels: 0, max_users: 3, max_flows: 1 },
  'get-official-chips-of-account': { account: A_ID() },
  'add-account-waba': { account: A_ID(), waba: '1020304050' },
  'get-waba-phone-numbers': { account: A_ID(), waba: '1020304050' },
  'admin-create-chip': { account: A_ID(), waba: '1020304050', phone_number_id: '5550001' },
  // Offers are the platform's, not an account's: a well-formed id (the owner is refused before reading it).
  'update-guru-offer': { _id: 'O'.repeat(28) },
  'admin-register-phone-number': { _id: A_ID(), register: true, pin: '123456' },
  'admin-set-chip-status': { _id: A_ID(), status: 'close' },
  'admin-delete-chip': { _id: A_ID() },
};

function basePayload(name: CallName): Record<string, unknown> {
  const schema = calls[name].payload;
  const out = sample(unwrap(schema)) as Record<string, unknown>;
  if (out && typeof out === 'object') {
    for (const key of Object.keys(out)) {
      const own = ownValue(name, key);
      if (own !== undefined) out[key] = own;
    }
    if ('token' in out && name.startsWith('simulator-')) out.token = A.simulatorToken;
    // A's row of the kind the call's _id names.
    const ownId: Partial<Record<CallName, string>> = {
      'update-team-user': A.attendantId,
      'connect-chip': A.chip,
      'reset-chip-connection': A.chip,
      'request-pairing-code': A.chip,
      'admin-update-chip': A.chip,
      'register-phone-number': A.chip,
      'delete-conversation-message': A.message,
      'delete-media': A.media,
      'update-scheduled-message': A.scheduled,
      'get-flow': A.flow,
      'duplicate-flow': A.flow,
      'get-chatbot': A.chatbot,
      'create-or-update-audience': A.audience,
      'update-campaign': A.campaign,
      'create-or-update-official-campaign': A.officialCampaign,
      'get-campaign-realtime': A.campaign,
      'get-campaign-report': A.campaign,
      'export-campaign-report': A.campaign,
      'get-webhook-by-id': A.webhook,
      'create-or-update-webhook': A.webhook,
    };
    if (ownId[name]) out._id = ownId[name];
    Object.assign(out, overrides[name]);
  }
  return out;
}

// Ends the session the walk relies on; uploads are multipart and have no id-like field.
const skipped = (name: CallName) => name === 'logout' || Boolean(calls[name].upload);

// ---- the walk ---------------------------------------------------------------------------------------

interface Leak {
  call: string;
  path: string;
  id: string;
  why: string;
}

// One exception, by design (push.service.ts): a push endpoint names a browser, a secret only that browser
// holds, and it moves to whoever subscribes with it last (one browser, another user signed in).
async function walk(opts: {
  token: string;
  foreign: string[];
  secrets: string[];
  snapshot: () => Promise<Record<string, unknown[]>>;
}) {
  const leaks: Leak[] = [];
  let callsWalked = 0;
  let tries = 0;
  const names = (Object.keys(calls) as CallName[]).filter((n) => !skipped(n));
  const check = (name: string, path: string, sent: string | null, text: string) => {
    for (const secret of opts.secrets) {
      if (text.includes(secret))
        leaks.push({ call: name, path, id: sent ?? '', why: `answer holds ${secret}` });
    }
    for (const id of opts.foreign) {
      if (id !== sent && text.includes(id))
        suspects.push({ call: name, path, id: sent ?? '', why: `answer holds ${id}`, ref: id });
    }
  };
  const suspects: (Leak & { ref: string })[] = [];
  for (const name of names) {
    const schema = calls[name].payload;
    const paths = idPaths(schema);
    const before = await opts.snapshot();
    callsWalked++;
    const started = Date.now();
    const base = basePayload(name);
    if (paths.length === 0 && !calls[name].access.public) {
      const r = await t.post(name, base, opts.token);
      check(name, '-', null, JSON.stringify(r.body));
    }
    for (const path of paths) {
      // The ids of one path are tried at once: each request stands alone, and a leak is a leak whatever
      // runs beside it (on PostgreSQL this also puts the account boundary under concurrent load).
      await Promise.all(
        opts.foreign.map(async (id) => {
          tries++;
          const body = withValue(schema, basePayload(name), path, id);
          const r = await t.post(name, body, opts.token);
          expect(r.status, `${name} ${path.join('.')}`).not.toBe(500);
          check(name, path.join('.'), id, JSON.stringify(r.body));
        }),
      );
    }
    if (Date.now() - started > 3000) console.log(`slow: ${name} ${Date.now() - started} ms`);
    // An id the walk's own creates gave to one of A's rows (ids are chosen by the client) is A's now.
    if (suspects.length) {
      const own = new Set(await idsOfAccount(aAccountId));
      for (const l of suspects.splice(0))
        if (!own.has(l.ref)) leaks.push({ call: l.call, path: l.path, id: l.id, why: l.why });
    }
    const after = await opts.snapshot();
    for (const table of Object.keys(before)) {
      if (name === 'subscribe-push' && table === 'push_subscriptions') continue; // see below
      if (JSON.stringify(before[table]) !== JSON.stringify(after[table])) {
        leaks.push({
          call: name,
          path: paths.map((p) => p.join('.')).join(','),
          id: '',
          why: `changed ${table}`,
        });
      }
    }
  }
  return { callsWalked, tries, leaks };
}

beforeAll(async () => {
  t = await startTestServer({ LOGIN_MAX_FAILURES_PER_IP: '100000', LOGIN_MAX_FAILURES_PER_EMAIL: '100000' });
  const seed = await t.reset();
  aAccountId = seed.accountId;
  ownerA = await t.login('dono@demo.com');
  attendantA = await t.login('atendente@demo.com');
  await buildAccountB();
  bRefs = await idsOfAccount(bAccountId);

  // A's own data, in Suporte (Ana's department), and a conversation in Vendas she may not see.
  const support = seed.departments.support;
  const a = await customer(ownerA, support, A_PHONE, 'Cliente A', 'Oi, sou de A');
  const sales = await customer(
    ownerA,
    seed.departments.sales,
    SALES_PHONE,
    `Cliente ${SALES_SECRET}`,
    `Pedido ${SALES_SECRET}`,
  );
  await call(
    'create-system-message',
    { conversation_id: sales.conversation, message: `Nota ${SALES_SECRET}` },
    ownerA,
  );
  const salesScheduled = await call(
    'create-scheduled-message',
    {
      chip: sales.chip,
      country_code: '55',
      to: '31976543211',
      type: 'text',
      message: `Agendada ${SALES_SECRET}`,
      scheduledTo: inHours(48),
    },
    ownerA,
  );
  const tag = (
    await call(
      'create-or-update-tag',
      { name: 'Tag de A', color: '#334455', auto_tag: false, keywords: [] },
      ownerA,
    )
  )._id;
  const quick = (
    await call('create-or-update-quick-message', { shortcut: 'oia', message: 'Oi de A' }, ownerA)
  )._id;
  const scheduled = await call(
    'create-scheduled-message',
    {
      chip: a.chip,
      country_code: '55',
      to: '11976543211',
      type: 'text',
      message: 'Agendada A',
      scheduledTo: inHours(48),
    },
    ownerA,
  );
  const [ana] = await db().select().from(users).where(eq(users.email, 'atendente@demo.com'));
  await call('subscribe-push', pushSubscription('contaa'), ownerA);
  A = {
    ...a,
    ownerToken: ownerA,
    department: support,
    tag,
    endpoint: pushSubscription('contaa').endpoint,
    attendantId: ana?.id ?? '',
    quickMessage: quick,
    scheduled: scheduled._id,
    media: await uploadMedia(ownerA, 'Mídia A'),
    flow: ((await call('get-flows-by-user', {}, ownerA))[0] as { _id: string })._id,
    chatbot: (await call('create-or-update-chatbot', validDraft({ name: 'Chatbot de A' }), ownerA))._id,
    audience: await importAudience(ownerA, 'Audiência de A', A_PHONE),
    campaign: '',
    officialCampaign: '',
    webhook: (
      await call(
        'create-or-update-webhook',
        { _id: newId(), name: 'Webhook de A', ...WEBHOOK_MAPPING },
        ownerA,
      )
    )._id,
  };
  A.campaign = await campaignIn(ownerA, A.chip, 'Campanha de A', A.audience);
  // A's scheduled official campaign, as the official call stores one (an official chip needs a Graph API).
  A.officialCampaign = newId();
  const [ownerRow] = await db().select().from(users).where(eq(users.email, 'dono@demo.com'));
  await db()
    .insert(campaigns)
    .values({
      id: A.officialCampaign,
      accountId: aAccountId,
      userId: ownerRow?.id ?? '',
      name: 'Oficial de A',
      chipId: A.chip,
      audienceType: 'audience',
      audienceId: A.audience,
      messageType: 'text',
      intervalSeconds: 0,
      scheduledTo: new Date(inHours(48)),
      official: true,
      template: { name: 'modelo_a', language: 'pt_BR', category: 'MARKETING', components: [] },
      conversationCreationRule: 'all',
      redirect: 'human',
      departmentId: A.department,
    });
  const salesMessages = await db()
    .select()
    .from(messages)
    .where(eq(messages.conversationId, sales.conversation));
  salesRefs = [
    sales.chip,
    sales.conversation,
    sales.contact,
    salesScheduled._id,
    ...salesMessages.flatMap((m) => [m.id, ...(m.messageId ? [m.messageId] : [])]),
  ];
  // The rows as they were: an id the walk sends may name a new row of A's (ids are chosen by the client).
  const salesRows = new Map<PgTable, string[]>();
  for (const table of accountTables()) {
    const cols = table as unknown as Record<string, PgColumn>;
    if (!cols.id) continue;
    const rows = await db().select({ id: cols.id }).from(table).where(inArray(cols.id, salesRefs));
    if (rows.length)
      salesRows.set(
        table,
        rows.map((r) => String(r.id)),
      );
  }
  salesSnapshot = () =>
    snapshot((table) => {
      const ids = salesRows.get(table);
      const cols = table as unknown as Record<string, PgColumn>;
      return ids && cols.id ? (inArray(cols.id, ids) as ReturnType<typeof eq>) : undefined;
    });
}, 120_000);
afterAll(() => t?.close());

let salesSnapshot: () => Promise<Record<string, unknown[]>>;

const report = (who: string, r: { callsWalked: number; tries: number; leaks: Leak[] }, ids: number) => {
  console.log(
    `cross-account walk (${who}): ${r.callsWalked} calls × ${ids} ids tried, leaks: ${r.leaks.length}`,
  );
  for (const l of r.leaks) console.log(`  leak: ${l.call} [${l.path}] ${l.id} → ${l.why}`);
};

describe('cross-account walk', () => {
  it('knows a valid payload for every call of the registry (the walk grows with it)', async () => {
    // Each call's base payload passes its own schema: a call added later is walked with valid bodies.
    const invalid = (Object.keys(calls) as CallName[])
      .filter((n) => !skipped(n))
      .flatMap((name) => {
        const parsed = calls[name].payload.safeParse(basePayload(name));
        return parsed.success
          ? []
          : [`${name}: ${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}`];
      });
    expect(invalid).toEqual([]);
  });

  it("gives an attendant nothing of her account's other department", async () => {
    const r = await walk({
      token: attendantA,
      foreign: salesRefs,
      secrets: [SALES_SECRET, SALES_PHONE],
      snapshot: salesSnapshot,
    });
    report('department boundary', r, salesRefs.length);
    expect(r.leaks).toEqual([]);
  }, 600_000);

  it("gives account A's owner and attendant nothing of account B, and changes none of B's rows", async () => {
    expect(bRefs.length).toBeGreaterThan(15);
    const secrets = [SECRET, B_PHONE, 'b.test', 'push.example.com/send/contab'];
    const owner = await walk({ token: ownerA, foreign: bRefs, secrets, snapshot: snapshotB });
    report("A's owner", owner, bRefs.length);
    const attendant = await walk({ token: attendantA, foreign: bRefs, secrets, snapshot: snapshotB });
    report("A's attendant", attendant, bRefs.length);
    const total = owner.leaks.length + attendant.leaks.length;
    console.log(
      `cross-account walk: ${owner.callsWalked} calls × ${bRefs.length} ids tried, leaks: ${total}` +
        ` (${owner.tries + attendant.tries} requests)`,
    );
    expect([...owner.leaks, ...attendant.leaks]).toEqual([]);
  }, 600_000);
});
