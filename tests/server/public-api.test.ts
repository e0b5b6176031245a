// The public integration API (issue 20) on the real server: every endpoint with a good key and with bad ones
// (none, unknown, revoked by update-api-key), the plan gate, the rate limit (429 + Retry-After), the
// Idempotency-Key (a retry sends once and replays the answer, another body is 422, one under way is 409, one
// that died is taken over), another account's chip, flow and tags (404 as if missing), bad input (not JSON,
// 10 MB, unknown paths, bad phones) with nothing sent, and the OpenAPI document.
import { eq } from 'drizzle-orm';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { accounts, apiIdempotency, campaigns, contacts, messages, outboundSends } from '@/server/db/schema';
import { createAccount, newApiKey } from '@/server/domains/accounts/accounts.service';
import { integrationKeysHousekeepingJob } from '@/server/jobs/public-api';
import { messages as texts } from '@/shared/messages';
import { apiMessages } from '@/shared/messages-api';
import { type FakeGraph, startFakeGraph } from '../fakes/graph-api';
import { connected, connectedSimulatorChip, simulatorSocket, until } from './channel-helpers';
import { flowsSettled, insertFlow, insertTag, waitBot } from './flow-helpers';
import { testServerPerFile } from './helpers';
import { graphEnv, officialChip, WABA } from './official-helpers';

const RATE_MAX = 25;
const graph: FakeGraph = await startFakeGraph();
const s = testServerPerFile(
  graphEnv(graph, { PUBLIC_API_RATE_MAX: String(RATE_MAX), PUBLIC_API_RATE_WINDOW_SECONDS: '30' }),
);
afterAll(() => graph.close());
beforeEach(() => graph.clear());

const services = () => s.t.server.services;
const db = () => services().db;
let n = 0;
const newPhone = () => `55219${String(80000000 + n++).padStart(8, '0')}`;

async function apiKey(accountId = s.seed.accountId) {
  const [row] = await db().select({ key: accounts.apiKey }).from(accounts).where(eq(accounts.id, accountId));
  if (!row?.key) throw new Error('no api key');
  return row.key;
}

interface Answer {
  status: number;
  headers: Headers;
  body: { error: boolean; message: unknown };
}

async function api(
  path: string,
  query: Record<string, string>,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await fetch(`${s.t.url}/api/v1/${path}?${new URLSearchParams(query)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Answer['body'] };
}

async function simulatorChip() {
  const owner = await s.t.login('dono@demo.com');
  const { chip, simulatorToken } = await connectedSimulatorChip(s.t, owner, {
    department: s.seed.departments.support,
  });
  return { owner, chipId: chip._id, token: simulatorToken };
}

async function phonePage(token: string, phone: string) {
  const page = simulatorSocket(s.t, token, phone);
  await connected(page.sock);
  return { ...page, received: () => page.events.filter((e) => e.type === 'message') };
}

const allMessages = () => db().select().from(messages);
const settle = () => new Promise((r) => setTimeout(r, 300));

describe('send-text', () => {
  it('sends with the key in the query or in x-api-key, and the simulator phone receives it', async () => {
    const { chipId, token } = await simulatorChip();
    const phone = newPhone();
    const page = await phonePage(token, phone);
    const key = await apiKey();
    const first = await api('send-text', { chip: chipId, api_key: key }, { phone, message: 'Olá pela API' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ error: false, message: { status: 'sent', failure: null } });
    // Stored as the API's (the pane labels it 'API', not 'Chatbot').
    const [stored] = await services().db.select().from(messages).where(eq(messages.message, 'Olá pela API'));
    expect(stored).toMatchObject({ origin: 'chatbot', source: 'api' });
    const second = await api(
      'send-text',
      { chip: chipId },
      { phone: Number(phone), message: 'Pelo cabeçalho' },
      { 'x-api-key': key },
    );
    expect(second.status).toBe(200);
    await until(() => page.received().length >= 2);
    expect(page.received().map((e) => (e as { text?: string }).text ?? JSON.stringify(e))).toHaveLength(2);
    page.sock.close();
  });

  it('the third-party form reads the phone at phone_field of any JSON body', async () => {
    const { chipId, token } = await simulatorChip();
    const phone = newPhone();
    const page = await phonePage(token, phone);
    const query = {
      chip: chipId,
      api_key: await apiKey(),
      message: 'Pedido recebido',
      phone_field: 'cliente.fones[1]',
    };
    const ok = await api('send-text', query, { cliente: { nome: 'Ana', fones: ['x', phone] }, total: 10 });
    expect(ok.status).toBe(200);
    await until(() => page.received().length >= 1);
    const missing = await api('send-text', { ...query, phone_field: 'cliente.telefone' }, { cliente: {} });
    expect(missing).toMatchObject({
      status: 400,
      body: { error: true, message: apiMessages.phoneFieldMissing('cliente.telefone') },
    });
    await settle();
    expect(page.received()).toHaveLength(1);
    page.sock.close();
  });
});

describe('keys and the plan', () => {
  it('every endpoint refuses no key, an unknown key and a revoked one with 401, sending nothing', async () => {
    const { owner, chipId } = await simulatorChip();
    const old = await apiKey();
    const { api_key: fresh } = await s.t.call('update-api-key', {}, owner);
    expect(fresh).not.toBe(old);
    const bodies: [string, Record<string, string>, unknown][] = [
      ['send-text', { chip: chipId }, { phone: newPhone(), message: 'x' }],
      ['send-text', { chip: chipId, message: 'x', phone_field: 'p' }, { p: newPhone() }],
      ['send-flow', { chip: chipId }, { phone: newPhone(), flow: 'A'.repeat(28) }],
      ['tags', {}, { phone: newPhone(), tags: ['vip'] }],
      ['tags/remove', {}, { phone: newPhone(), tags: ['vip'] }],
      ['send-template', { chip: chipId, template: 't' }, { to: newPhone() }],
    ];
    for (const [path, query, body] of bodies) {
      expect(await api(path, query, body), path).toMatchObject({
        status: 401,
        body: { error: true, message: apiMessages.apiKeyRequired },
      });
      for (const bad of [old, 'chave-inventada'])
        expect(await api(path, { ...query, api_key: bad }, body), path).toMatchObject({
          status: 401,
          body: { error: true, message: apiMessages.apiKeyInvalid },
        });
    }
    expect(await allMessages()).toHaveLength(0);
    expect(await db().select().from(contacts)).toHaveLength(0);
    // The new key works.
    const ok = await api('send-text', { chip: chipId, api_key: fresh }, { phone: newPhone(), message: 'ok' });
    expect(ok.status).toBe(200);
  });

  it('an account whose plan has one channel gets 403', async () => {
    const { chipId } = await simulatorChip();
    await db().update(accounts).set({ maxChannels: 1 }).where(eq(accounts.id, s.seed.accountId));
    const r = await api(
      'send-text',
      { chip: chipId, api_key: await apiKey() },
      { phone: newPhone(), message: 'x' },
    );
    expect(r).toMatchObject({ status: 403, body: { error: true, message: apiMessages.apiNotInPlan } });
    expect(await allMessages()).toHaveLength(0);
  });

  it(`past ${RATE_MAX} requests in the window a key gets 429 with Retry-After; another key is not limited`, async () => {
    const key = await apiKey();
    const statuses: number[] = [];
    let limited: Answer | null = null;
    for (let i = 0; i <= RATE_MAX; i++) {
      const r = await api('tags', { api_key: key }, { phone: 'x', tags: ['y'] });
      statuses.push(r.status);
      if (r.status === 429) limited = r;
    }
    expect(statuses.slice(0, RATE_MAX).every((st) => st === 400)).toBe(true);
    expect(limited?.status).toBe(429);
    const retryAfter = Number(limited?.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(30);
    expect(limited?.body).toEqual({ error: true, message: apiMessages.tooManyRequests(retryAfter) });
    const other = await api('tags', { api_key: 'outra-chave' }, { phone: 'x', tags: ['y'] });
    expect(other.status).toBe(401);
  });
});

describe('Idempotency-Key', () => {
  it('a retry sends once and replays the answer; another body is 422; one under way is 409; a dead one is taken over', async () => {
    const { chipId, token } = await simulatorChip();
    const phone = newPhone();
    const page = await phonePage(token, phone);
    const query = { chip: chipId, api_key: await apiKey() };
    const body = { phone, message: 'Uma vez só' };
    const headers = { 'idempotency-key': 'pedido-42' };
    const answers = await Promise.all([1, 2, 3].map(() => api('send-text', query, body, headers)));
    const ok = answers.filter((a) => a.status === 200);
    const busy = answers.filter((a) => a.status === 409);
    expect(ok.length + busy.length).toBe(3);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const b of busy) expect(b.body.message).toBe(apiMessages.idempotencyInProgress);
    const replay = await api('send-text', query, body, headers);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(ok[0]?.body);
    // The key keeps the request: another body with it is refused.
    const other = await api('send-text', query, { ...body, message: 'Outra' }, headers);
    expect(other).toMatchObject({ status: 422, body: { message: apiMessages.idempotencyMismatch } });
    await settle();
    expect(page.received()).toHaveLength(1);
    expect(await allMessages()).toHaveLength(1);

    // Under way (held by another request): 409. Its holder died (lease ran out): taken over, sent once.
    const hash = (await db().select().from(apiIdempotency))[0]?.requestHash ?? '';
    await db()
      .insert(apiIdempotency)
      .values({
        accountId: s.seed.accountId,
        key: 'segura',
        requestHash: hash,
        leaseUntil: new Date(Date.now() + 60_000),
      });
    const held = await api('send-text', query, body, { 'idempotency-key': 'segura' });
    expect(held.status).toBe(409);
    await db()
      .update(apiIdempotency)
      .set({ leaseUntil: new Date(Date.now() - 1000) })
      .where(eq(apiIdempotency.key, 'segura'));
    // Same request as the one recorded under 'pedido-42' (the hash is of route, query and body).
    const taken = await api('send-text', query, body, { 'idempotency-key': 'segura' });
    expect(taken.status).toBe(200);
    await until(() => page.received().length >= 2);
    expect(await allMessages()).toHaveLength(2);
    // Without the header every request is its own send.
    await api('send-text', query, body);
    await api('send-text', query, body);
    await until(() => page.received().length >= 4);
    page.sock.close();
  });

  it('a bad Idempotency-Key is refused; a refusal is replayed as it was', async () => {
    const { chipId } = await simulatorChip();
    const query = { chip: chipId, api_key: await apiKey() };
    const bad = await api(
      'send-text',
      query,
      { phone: newPhone(), message: 'x' },
      { 'idempotency-key': 'com espaço' },
    );
    expect(bad).toMatchObject({ status: 400, body: { message: apiMessages.idempotencyKeyInvalid } });
    const headers = { 'idempotency-key': 'fone-ruim' };
    const first = await api('send-text', query, { phone: '123', message: 'x' }, headers);
    expect(first).toMatchObject({ status: 400, body: { message: texts.invalidPhone } });
    const again = await api('send-text', query, { phone: '123', message: 'x' }, headers);
    expect(again.status).toBe(400);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await allMessages()).toHaveLength(0);
  });
});

describe('send-flow, tags and send-template', () => {
  it('send-flow starts the flow with metadata; another account’s flow or chip is 404', async () => {
    const { chipId, token } = await simulatorChip();
    const phone = newPhone();
    const page = await phonePage(token, phone);
    const flowId = await insertFlow(
      services(),
      s.seed.accountId,
      [
        { id: 'start', type: 'start' },
        { id: 'hi', type: 'message', data: { kind: 'text', text: 'Oi {primeiro}, pedido {pedido}' } },
      ],
      [['start', 'hi']],
    );
    const key = await apiKey();
    const r = await api(
      'send-flow',
      { chip: chipId, api_key: key },
      { phone, flow: flowId, metadata: { primeiro: 'Ana', pedido: 7 } },
    );
    expect(r.status).toBe(200);
    const conversationId = (r.body.message as { conversation_id: string }).conversation_id;
    expect((await waitBot(services(), conversationId, 1)).map((m) => m.message)).toEqual([
      'Oi Ana, pedido 7',
    ]);
    await until(() => page.received().length >= 1);
    await flowsSettled(services());

    const { accountId: other } = await createAccount(db(), {
      account: { name: 'Outra', maxChannels: 5, apiKey: newApiKey() },
      owner: { name: 'Outro', email: `outro${n++}@exemplo.com`, passwordHash: 'x' },
    });
    const foreignFlow = await insertFlow(services(), other, [{ id: 'start', type: 'start' }], []);
    const otherPhone = newPhone();
    expect(
      await api('send-flow', { chip: chipId, api_key: key }, { phone: otherPhone, flow: foreignFlow }),
    ).toMatchObject({ status: 404, body: { error: true, message: texts.flowNotFound } });
    // Account B's key with A's chip: not found, as if it did not exist.
    expect(
      await api(
        'send-text',
        { chip: chipId, api_key: await apiKey(other) },
        { phone: otherPhone, message: 'x' },
      ),
    ).toMatchObject({ status: 404, body: { error: true, message: apiMessages.chipNotFound } });
    expect(await db().select().from(contacts).where(eq(contacts.phone, otherPhone))).toHaveLength(0);
    page.sock.close();
  });

  it('tags adds by name or id and tags/remove removes, with metadata; unknown or foreign tags are 404', async () => {
    const key = await apiKey();
    const vip = await insertTag(services(), s.seed.accountId, 'VIP');
    const lead = await insertTag(services(), s.seed.accountId, 'Lead');
    const phone = newPhone();
    const added = await api(
      'tags',
      { api_key: key },
      { phone, tags: ['vip', lead], metadata: { origem: 'site' } },
    );
    expect(added.status).toBe(200);
    expect((added.body.message as { tags: string[] }).tags.sort()).toEqual([vip, lead].sort());
    const removed = await api('tags/remove', { api_key: key }, { phone, tags: ['VIP'] });
    expect((removed.body.message as { tags: string[] }).tags).toEqual([lead]);
    const [contact] = await db().select().from(contacts).where(eq(contacts.phone, phone));
    expect(contact).toMatchObject({ tags: [lead], data: { origem: 'site' } });

    const { accountId: other } = await createAccount(db(), {
      account: { name: 'Outra', maxChannels: 5 },
      owner: { name: 'Outro', email: `outro${n++}@exemplo.com`, passwordHash: 'x' },
    });
    const foreign = await insertTag(services(), other, 'Segredo');
    for (const tags of [[foreign], ['nao-existe'], ['Segredo']])
      expect(await api('tags', { api_key: key }, { phone, tags }), String(tags)).toMatchObject({
        status: 404,
        body: { error: true, message: apiMessages.tagsNotFound },
      });
    const [after] = await db().select().from(contacts).where(eq(contacts.phone, phone));
    expect(after?.tags).toEqual([lead]);
  });

  it('send-template sends an approved template once per Idempotency-Key; a missing variable is 400', async () => {
    graph.templates[WABA] = [
      {
        name: 'boas_vindas',
        status: 'APPROVED',
        language: 'pt_BR',
        category: 'UTILITY',
        components: [{ type: 'BODY', text: 'Bem-vindo, {{1}}!' }],
      },
    ];
    const { chipId } = await officialChip(s.t, s.seed.departments.support);
    const key = await apiKey();
    const phone = newPhone();
    const query = { chip: chipId, api_key: key, template: 'boas_vindas' };
    const headers = { 'idempotency-key': 'tpl-1' };
    const first = await api('send-template', query, { to: phone, '1': 'Ana' }, headers);
    expect(first).toMatchObject({ status: 200, body: { error: false, message: { status: 'queued' } } });
    const again = await api('send-template', query, { to: phone, '1': 'Ana' }, headers);
    expect(again.body).toEqual(first.body);
    const campaignId = (first.body.message as { campaign_id: string }).campaign_id;
    await until(async () => {
      const [c] = await db().select().from(campaigns).where(eq(campaigns.id, campaignId));
      return c?.status === 'finished';
    }, 15_000);
    expect(graph.sent.map((x) => x.to)).toEqual([phone]);

    const missing = await api('send-template', query, { to: newPhone() });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe(true);
    const regular = await simulatorChip();
    expect(
      await api('send-template', { ...query, chip: regular.chipId }, { to: newPhone(), '1': 'x' }),
    ).toMatchObject({
      status: 400,
      body: { message: apiMessages.chipNotOfficial },
    });
    await settle();
    expect(graph.sent).toHaveLength(1);
  });
});

describe('bad input', () => {
  it('not JSON, 10 MB, unknown paths, wrong methods and bad phones: clear errors, nothing sent', async () => {
    const { chipId } = await simulatorChip();
    const query = { chip: chipId, api_key: await apiKey() };
    expect(await api('send-text', query, '{"phone": ')).toMatchObject({
      status: 400,
      body: { error: true, message: texts.invalidJson },
    });
    const huge = JSON.stringify({ phone: newPhone(), message: 'x'.repeat(10 * 1024 * 1024) });
    expect(await api('send-text', query, huge)).toMatchObject({
      status: 413,
      body: { error: true, message: texts.bodyTooLarge },
    });
    for (const path of ['nada', 'send-text/extra', 'tags/remove/x'])
      expect(await api(path, query, {}), path).toMatchObject({
        status: 404,
        body: { error: true, message: apiMessages.endpointNotFound },
      });
    const get = await fetch(`${s.t.url}/api/v1/send-text`);
    expect(get.status).toBe(405);
    expect(await get.json()).toEqual({ error: true, message: apiMessages.methodNotAllowed });
    for (const phone of ['12', 'abc', '+999 123', ''])
      expect((await api('send-text', query, { phone, message: 'x' })).status, phone).toBe(400);
    // A missing field reads the same whichever it is (the phone's schema is a union, the message's a string).
    expect(await api('send-text', query, { phone: newPhone() })).toMatchObject({
      status: 400,
      body: { error: true, message: texts.fieldRequired('message') },
    });
    expect(await api('send-text', query, { message: 'x' })).toMatchObject({
      status: 400,
      body: { error: true, message: texts.fieldRequired('phone') },
    });
    expect(
      (await api('send-text', { api_key: query.api_key }, { phone: newPhone(), message: 'x' })).status,
    ).toBe(400);
    expect(
      (await api('send-text', { ...query, chip: 'nao-existe' }, { phone: newPhone(), message: 'x' })).status,
    ).toBe(404);
    expect(await allMessages()).toHaveLength(0);
    expect(await db().select().from(contacts)).toHaveLength(0);
  });

  it('a disconnected chip is 503 with the reason; nothing is stored', async () => {
    const { owner, chipId } = await simulatorChip();
    await s.t.call('connect-chip', { _id: chipId, connect: false }, owner);
    const r = await api(
      'send-text',
      { chip: chipId, api_key: await apiKey() },
      { phone: newPhone(), message: 'x' },
    );
    expect(r).toMatchObject({ status: 503, body: { error: true, message: texts.chipDisconnected } });
    expect(await allMessages()).toHaveLength(0);
  });
});

describe('OpenAPI', () => {
  it('is an OpenAPI 3.1 document of every endpoint, generated from the request schemas', async () => {
    const res = await fetch(`${s.t.url}/api/v1/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      openapi: string;
      paths: Record<
        string,
        {
          post: {
            parameters: { name: string; in: string; required: boolean }[];
            requestBody: { content: Record<string, { schema: Record<string, unknown> }> };
            responses: Record<string, unknown>;
          };
        }
      >;
      components: { securitySchemes: Record<string, { in: string; name: string }> };
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        '/api/v1/send-flow',
        '/api/v1/send-template',
        '/api/v1/send-text',
        '/api/v1/tags',
        '/api/v1/tags/remove',
      ].sort(),
    );
    for (const [path, item] of Object.entries(doc.paths)) {
      expect(item.post.requestBody.content['application/json']?.schema, path).toBeTruthy();
      expect(Object.keys(item.post.responses), path).toEqual(
        expect.arrayContaining(['200', '400', '401', '404', '429']),
      );
    }
    const names = (path: string) =>
      doc.paths[path]?.post.parameters.map((p) => `${p.in}:${p.name}:${p.required}`);
    expect(names('/api/v1/send-text')).toEqual(
      expect.arrayContaining([
        'query:chip:true',
        'query:message:false',
        'query:phone_field:false',
        'header:Idempotency-Key:false',
      ]),
    );
    expect(names('/api/v1/send-template')).toEqual(expect.arrayContaining(['query:template:true']));
    expect(names('/api/v1/tags')).not.toContain('header:Idempotency-Key:false');
    const flowBody = doc.paths['/api/v1/send-flow']?.post.requestBody.content['application/json']?.schema;
    expect(flowBody).toMatchObject({ type: 'object', required: ['phone', 'flow'] });
    expect(doc.components.securitySchemes).toMatchObject({
      apiKeyQuery: { in: 'query', name: 'api_key' },
      apiKeyHeader: { in: 'header', name: 'x-api-key' },
    });
  });
});

describe('housekeeping', () => {
  it('forgets Idempotency-Keys after a day and outbound keys after 30 days, keeping newer ones', async () => {
    const accountId = s.seed.accountId;
    const ago = (days: number) => new Date(Date.now() - days * 86_400_000);
    await db()
      .insert(apiIdempotency)
      .values([
        { accountId, key: 'velha', requestHash: 'h', createdAt: ago(2) },
        { accountId, key: 'nova', requestHash: 'h', createdAt: ago(0.5) },
      ]);
    await db()
      .insert(outboundSends)
      .values([
        { accountId, key: 'velha', kind: 'flow', createdAt: ago(31) },
        { accountId, key: 'nova', kind: 'flow', createdAt: ago(29) },
      ]);
    await integrationKeysHousekeepingJob.run(undefined as never, services());
    expect((await db().select().from(apiIdempotency)).map((r) => r.key)).toEqual(['nova']);
    expect((await db().select().from(outboundSends)).map((r) => r.key)).toEqual(['nova']);
  });
});
