// Incoming webhooks (spec 3 §2.13, §4 Webhook status, §5 Webhook save, §7 webhooks): the calls with their
// rules and access, the test event in the room webhook_<id>, and the public endpoint's answers to bad input
// (nothing queued), its dedupe of retries (Idempotency-Key or the body's hash) and its rate limit per webhook.
import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accounts, contacts, webhookEvents, webhooks } from '@/server/db/schema';
import { integrationKeysHousekeepingJob } from '@/server/jobs/public-api';
import { sendWebhookEvent, WAIT_FOR_CHIP_MS } from '@/server/jobs/webhook-events';
import { webhookRoom } from '@/shared/contract/events';
import type { Webhook } from '@/shared/contract/webhooks';
import { newId } from '@/shared/ids';
import { messages as texts } from '@/shared/messages';
import { apiMessages } from '@/shared/messages-api';
import { webhookMessages as M } from '@/shared/messages-webhooks';
import {
  collect,
  connected,
  connectedSimulatorChip,
  listen,
  simulatorSocket,
  until,
} from './channel-helpers';
import { botMessages, openConversationOf } from './flow-helpers';
import { startTestServer, testServerPerFile } from './helpers';

const s = testServerPerFile();

const ORDER = {
  pedido: { numero: 7 },
  cliente: { nome: 'Maria', sobrenome: 'Silva', fone: '11 98765-4321' },
};

async function newWebhook(token: string) {
  const _id = newId();
  const made = await s.t.call('create-or-update-webhook', { _id }, token);
  return made;
}

/** Makes the webhook active on a chip with a flow, straight in the database (the send is not under test). */
async function activate(id: string, fields = [{ name: 'telefone', origin: ['cliente.fone'], value: '' }]) {
  const { db } = s.t.server.services;
  await db
    .update(webhooks)
    .set({ status: 'active', chipId: null, flowId: null, fields })
    .where(eq(webhooks.id, id));
  // A chip and a flow of the account: only their presence matters to the endpoint.
  const chip = await s.t.call(
    'create-or-update-chip',
    { name: `Chip ${id.slice(-4)}`, redirect: 'human', department: s.seed.departments.support },
    await s.t.login('dono@demo.com'),
  );
  const [flow] = await db.query.flows.findMany({ limit: 1 });
  await db
    .update(webhooks)
    .set({ chipId: chip._id, flowId: flow?.id ?? null })
    .where(eq(webhooks.id, id));
}

const post = (id: string, body: string | Blob, headers: Record<string, string> = {}) =>
  fetch(`${s.t.url}/api/v1/webhooks/${id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });

const eventsOf = async (id: string) =>
  (
    await s.t.server.services.db
      .select({ n: count() })
      .from(webhookEvents)
      .where(eq(webhookEvents.webhookId, id))
  )[0]?.n ?? 0;

describe('webhook calls', () => {
  it('creates once per id (upsertedId), lists, edits, removes', async () => {
    const token = await s.t.login('gerente@demo.com');
    const _id = newId();
    const first = await s.t.call('create-or-update-webhook', { _id }, token);
    const again = await s.t.call('create-or-update-webhook', { _id }, token);
    expect(first.upsertedId).toBe(_id);
    expect(again.upsertedId).toBe(_id);
    expect(first).toMatchObject({ status: 'test', name: '', chip: null, conversation_creation_rule: 'all' });
    expect(first.fields).toEqual([{ name: 'telefone', origin: [], value: '' }]);
    // Without PUBLIC_URL, a path the page completes with its own address (never a guessed localhost).
    expect(first.url).toBe(`/api/v1/webhooks/${_id}`);
    expect(await s.t.call('get-webhooks-by-user', {}, token)).toHaveLength(1);

    const saved = await s.t.call(
      'create-or-update-webhook',
      {
        _id,
        name: 'Loja',
        data: JSON.stringify(ORDER),
        fields: [
          { name: 'telefone', origin: ['cliente.fone'], value: '11 98765-4321' },
          { name: 'nome', origin: ['cliente.nome', 'cliente.sobrenome'], value: 'Maria Silva' },
        ],
      },
      token,
    );
    expect(saved.upsertedId).toBeUndefined();
    expect(saved.name).toBe('Loja');
    expect((await s.t.call('get-webhook-by-id', { _id }, token)).fields[1]?.origin).toEqual([
      'cliente.nome',
      'cliente.sobrenome',
    ]);

    await s.t.call('create-or-update-webhook', { _id, filed: true }, token);
    expect(await s.t.call('get-webhooks-by-user', {}, token)).toEqual([]);
    expect((await s.t.post('get-webhook-by-id', { _id }, token)).body).toEqual({
      error: true,
      message: M.notFound,
    });
  });

  it('refuses a save without telefone mapped, with bad JSON, or an active one without chip', async () => {
    const token = await s.t.login('dono@demo.com');
    const w = await newWebhook(token);
    const save = (p: object) => s.t.post('create-or-update-webhook', { _id: w._id, ...p }, token);
    expect((await save({ fields: [{ name: 'telefone', origin: [] }] })).body).toMatchObject({
      error: true,
      message: M.phoneNotMapped,
      field: 'fields.0',
    });
    expect((await save({ fields: [{ name: 'fone', origin: ['a'] }] })).body).toMatchObject({
      message: M.phoneFieldFixed,
    });
    expect((await save({ data: '{"a":', fields: [{ name: 'telefone', origin: ['a'] }] })).body).toMatchObject(
      { message: M.dataNotJson, field: 'data' },
    );
    expect(
      (await save({ status: 'active', fields: [{ name: 'telefone', origin: ['a'] }] })).body,
    ).toMatchObject({ message: M.chipRequired, field: 'chip' });
    expect((await save({ chip: newId(), fields: [{ name: 'telefone', origin: ['a'] }] })).body).toMatchObject(
      {
        message: M.chipNotFound,
      },
    );
    // Nothing of the refused saves was kept.
    expect((await s.t.call('get-webhook-by-id', { _id: w._id }, token)).fields[0]?.origin).toEqual([]);
  });

  it("needs the account's API key to create or activate one (spec 3 §6)", async () => {
    const token = await s.t.login('dono@demo.com');
    const { db } = s.t.server.services;
    const w = await newWebhook(token);
    const [before] = await db
      .select({ key: accounts.apiKey })
      .from(accounts)
      .where(eq(accounts.id, s.seed.accountId));
    await db.update(accounts).set({ apiKey: null }).where(eq(accounts.id, s.seed.accountId));
    try {
      const refused = { error: true, message: M.apiKeyRequired };
      expect((await s.t.post('create-or-update-webhook', { _id: newId() }, token)).body).toEqual(refused);
      expect(
        (await s.t.post('create-or-update-webhook', { _id: w._id, status: 'active' }, token)).body,
      ).toEqual(refused);
      // Renaming one that exists, still in test, is not refused.
      expect(
        (
          await s.t.call(
            'create-or-update-webhook',
            { _id: w._id, name: 'Sem chave', fields: [{ name: 'telefone', origin: ['cliente.fone'] }] },
            token,
          )
        ).name,
      ).toBe('Sem chave');
      await s.t.call('update-api-key', {}, token);
      expect((await s.t.call('create-or-update-webhook', { _id: newId() }, token)).status).toBe('test');
    } finally {
      await db
        .update(accounts)
        .set({ apiKey: before?.key ?? null })
        .where(eq(accounts.id, s.seed.accountId));
    }
  });

  it('is for owners and managers with the api area, on a plan with integrations; never across accounts', async () => {
    const attendant = await s.t.login('atendente@demo.com');
    const r = await s.t.post('get-webhooks-by-user', {}, attendant);
    expect(r.body).toMatchObject({ error: true, message: texts.insufficientPermissions });
    const owner = await s.t.login('dono@demo.com');
    await newWebhook(owner);
    await s.t.server.services.db
      .update(accounts)
      .set({ maxChannels: 1 })
      .where(eq(accounts.id, s.seed.accountId));
    expect((await s.t.post('get-webhooks-by-user', {}, owner)).body).toMatchObject({ error: true });
    await s.t.server.services.db
      .update(accounts)
      .set({ maxChannels: 5 })
      .where(eq(accounts.id, s.seed.accountId));
    // Another account's webhook (or none) is not found.
    const foreign = newId();
    expect((await s.t.post('get-webhook-by-id', { _id: foreign }, owner)).body).toMatchObject({
      message: M.notFound,
    });
  });
});

describe('Receber evento teste', () => {
  it('a webhook in status test sends the posted JSON to its room only, and queues nothing', async () => {
    const token = await s.t.login('dono@demo.com');
    const w: Webhook = await newWebhook(token);
    const waiting = collect(s.t.socket(token));
    await connected(waiting.sock);
    const join = (room: string) =>
      new Promise<boolean>((resolve) => waiting.sock.emit('join-room', room, resolve));
    expect(await join(webhookRoom(w._id))).toBe(true);
    expect(await join(webhookRoom(newId()))).toBe(false);
    // An attendant may not wait for a webhook's events.
    const attendant = await listen(s.t, 'atendente@demo.com');
    expect(
      await new Promise<boolean>((resolve) => attendant.sock.emit('join-room', webhookRoom(w._id), resolve)),
    ).toBe(false);

    const res = await post(w._id, JSON.stringify(ORDER));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ error: false, message: M.testReceived });
    const event = await waiting.next('webhook_test');
    expect(event.message).toEqual({ _id: w._id, data: ORDER });
    expect(await eventsOf(w._id)).toBe(0);
    expect(attendant.events.filter((e) => e.type === 'webhook_test')).toEqual([]);
  });
});

describe('the public endpoint', () => {
  it('answers bad input with clear pt-BR errors and the right status, nothing queued', async () => {
    const token = await s.t.login('dono@demo.com');
    const w = await newWebhook(token);
    await activate(w._id);

    const cases: [Response, number, string][] = [
      [await post(newId(), '{}'), 404, M.notFound],
      [await post('not-an-id', '{}'), 404, M.notFound],
      [
        await post(w._id, 'nome=Maria', { 'content-type': 'application/x-www-form-urlencoded' }),
        400,
        M.notJson,
      ],
      [await post(w._id, '{"cliente":'), 400, M.notJson],
      [await post(w._id, ''), 400, M.notJson],
      [await post(w._id, JSON.stringify({ cliente: { nome: 'Maria' } })), 422, M.phoneMissing],
      [await post(w._id, JSON.stringify({ cliente: { fone: '12345' } })), 422, M.phoneInvalid('12345')],
      [await post(w._id, JSON.stringify({ cliente: { fone: 'abc' } })), 422, M.phoneInvalid('abc')],
    ];
    for (const [res, status, message] of cases) {
      expect(res.status).toBe(status);
      expect(await res.json()).toEqual({ error: true, message });
    }
    expect(await eventsOf(w._id)).toBe(0);
    // Another method on the webhook's URL is told to POST, as the public API does.
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await fetch(`${s.t.url}/api/v1/webhooks/${w._id}`, { method });
      expect([method, res.status, await res.json()]).toEqual([
        method,
        405,
        { error: true, message: apiMessages.methodNotAllowed },
      ]);
    }
    // JSON is read whatever the Content-Type says (or without one).
    const untyped = await fetch(`${s.t.url}/api/v1/webhooks/${w._id}`, {
      method: 'POST',
      body: new Blob([JSON.stringify(ORDER)]),
    });
    expect(untyped.status).toBe(202);
    const plain = await post(w._id, JSON.stringify({ ...ORDER, n: 2 }), { 'content-type': 'text/plain' });
    expect(plain.status).toBe(202);
    expect(await eventsOf(w._id)).toBe(2);
    await s.t.server.services.db.delete(webhookEvents).where(eq(webhookEvents.webhookId, w._id));

    // An inactive webhook refuses, a filed one is not found.
    await s.t.server.services.db.update(webhooks).set({ status: 'inactive' }).where(eq(webhooks.id, w._id));
    const inactive = await post(w._id, JSON.stringify(ORDER));
    expect([inactive.status, await inactive.json()]).toEqual([409, { error: true, message: M.inactive }]);
    await s.t.call('create-or-update-webhook', { _id: w._id, filed: true }, token);
    expect((await post(w._id, JSON.stringify(ORDER))).status).toBe(404);
    expect(await eventsOf(w._id)).toBe(0);
  });

  it('answers a 10 MB body 413 at once', async () => {
    const token = await s.t.login('dono@demo.com');
    const w = await newWebhook(token);
    await activate(w._id);
    const body = new Blob([new Uint8Array(10 * 1024 * 1024).fill(97)]);
    const started = Date.now();
    const res = await post(w._id, body).catch((err: unknown) => err as Error);
    // The server answers before reading the body; the client may see the answer or a reset connection.
    if (res instanceof Response) {
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({ error: true, message: M.tooLarge(1024) });
    }
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await eventsOf(w._id)).toBe(0);
  });

  it('stores a retried event once: the same Idempotency-Key, or the same body without one', async () => {
    const token = await s.t.login('dono@demo.com');
    const w = await newWebhook(token);
    await activate(w._id, [
      { name: 'telefone', origin: ['cliente.fone'], value: '' },
      { name: 'nome', origin: ['cliente.nome', 'cliente.sobrenome'], value: '' },
    ]);
    const body = JSON.stringify(ORDER);
    const first = await post(w._id, body);
    expect(first.status).toBe(202);
    const a = (await first.json()) as { event: string; duplicate: boolean };
    expect(a).toMatchObject({ error: false, message: M.received, duplicate: false });
    // Retries at once, and several at the same time: one event.
    const retries = await Promise.all([post(w._id, body), post(w._id, body), post(w._id, body)]);
    for (const r of retries) {
      expect(r.status).toBe(202);
      expect(r.headers.get('idempotent-replayed')).toBe('true');
      expect(await r.json()).toMatchObject({ event: a.event, duplicate: true, message: M.alreadyReceived });
    }
    expect(await eventsOf(w._id)).toBe(1);
    const [row] = await s.t.server.services.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.id, a.event));
    expect(row).toMatchObject({
      phone: '5511987654321',
      fields: { telefone: '11 98765-4321', nome: 'Maria Silva' },
    });

    // Another body is another event; with an Idempotency-Key the body does not matter.
    const other = JSON.stringify({ ...ORDER, pedido: { numero: 8 } });
    expect(((await (await post(w._id, other)).json()) as { duplicate: boolean }).duplicate).toBe(false);
    const k1 = await post(w._id, JSON.stringify({ ...ORDER, n: 1 }), { 'idempotency-key': 'pedido-9' });
    const k2 = await post(w._id, JSON.stringify({ ...ORDER, n: 2 }), { 'idempotency-key': 'pedido-9' });
    const [e1, e2] = [
      (await k1.json()) as { event: string },
      (await k2.json()) as { event: string; duplicate: boolean },
    ];
    expect(e2).toMatchObject({ event: e1.event, duplicate: true });
    expect(await eventsOf(w._id)).toBe(3);

    // Outside the window the same body is a new event.
    await s.t.server.services.db
      .update(webhookEvents)
      .set({ createdAt: new Date(Date.now() - 25 * 60 * 60 * 1000) })
      .where(eq(webhookEvents.id, a.event));
    const later = (await (await post(w._id, body)).json()) as { event: string; duplicate: boolean };
    expect(later.duplicate).toBe(false);
    expect(later.event).not.toBe(a.event);
    expect(await eventsOf(w._id)).toBe(4);
  });
});

describe('the send', () => {
  it("sends the webhook's flow to the mapped phone once, with the fields as its variables, however often retried", async () => {
    const token = await s.t.login('dono@demo.com');
    const { chip, simulatorToken } = await connectedSimulatorChip(s.t, token, {
      department: s.seed.departments.support,
    });
    const [flow] = await s.t.server.services.db.query.flows.findMany({ limit: 1 });
    const w = await newWebhook(token);
    await s.t.call(
      'create-or-update-webhook',
      {
        _id: w._id,
        status: 'active',
        chip: chip._id,
        flow: flow?.id ?? null,
        data: JSON.stringify(ORDER),
        fields: [
          { name: 'telefone', origin: ['cliente.fone'], value: '' },
          { name: 'pedido', origin: ['pedido.numero'], value: '' },
          { name: 'nome', origin: ['cliente.nome'], value: '' },
        ],
      },
      token,
    );
    const phone = '5511987654321';
    const customer = simulatorSocket(s.t, simulatorToken, phone);
    await connected(customer.sock);

    const body = JSON.stringify(ORDER);
    const first = (await (await post(w._id, body)).json()) as { event: string };
    const sent = await until(() =>
      customer.events.find((e) => e.type === 'message' && e.message.text.includes('Loja Demo')),
    );
    // The mapped name reaches the customer through the flow's {nome:first}.
    expect(sent.type === 'message' && sent.message.text).toBe('Olá, Maria! Bem-vindo(a) à Loja Demo.');
    // The retries: the endpoint's, and the job's own (a crash after the send, before the row was marked).
    await post(w._id, body);
    await s.t.server.services.db
      .update(webhookEvents)
      .set({ status: 'queued' })
      .where(eq(webhookEvents.id, first.event));
    await sendWebhookEvent(s.t.server.services, first.event);
    const conversation = await openConversationOf(s.t.server.services, phone);
    await new Promise((r) => setTimeout(r, 1500));
    const greetings = (await botMessages(s.t.server.services, conversation.id)).filter((m) =>
      m.message.includes('Loja Demo'),
    );
    expect(greetings).toHaveLength(1);
    // The mapped fields are the contact's variables, which the flow reads as {name}; the mapped name names
    // the new contact.
    const [contact] = await s.t.server.services.db
      .select({ name: contacts.name, data: contacts.data })
      .from(contacts)
      .where(eq(contacts.id, conversation.contactId));
    expect(contact?.data).toMatchObject({ pedido: '7', telefone: '11 98765-4321', nome: 'Maria' });
    expect(contact?.name).toBe('Maria');
    const [row] = await s.t.server.services.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.id, first.event));
    expect(row).toMatchObject({ status: 'sent', failure: null });
    expect(await eventsOf(w._id)).toBe(1);
  });

  it('waits a while for a disconnected chip, then records why the event was not sent', async () => {
    const token = await s.t.login('dono@demo.com');
    const w = await newWebhook(token);
    await activate(w._id);
    const { event } = (await (await post(w._id, JSON.stringify(ORDER))).json()) as { event: string };
    // The first try found the chip disconnected: the event waits for a retry.
    await new Promise((r) => setTimeout(r, 2000));
    const [waiting] = await s.t.server.services.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.id, event));
    expect(waiting?.status).toBe('queued');
    // Past the wait, the next retry (5 s after the first try) records the refusal.
    await s.t.server.services.db
      .update(webhookEvents)
      .set({ createdAt: new Date(Date.now() - WAIT_FOR_CHIP_MS - 1000) })
      .where(eq(webhookEvents.id, event));
    const row = await until(async () => {
      const [r] = await s.t.server.services.db
        .select()
        .from(webhookEvents)
        .where(eq(webhookEvents.id, event));
      return r?.status === 'queued' ? undefined : r;
    }, 15_000);
    expect(row.status).toBe('error');
    expect(row.failure).toBe(texts.chipDisconnected);
  });
});

describe('rate limit', () => {
  it('limits each webhook on its own: 429 with Retry-After and a pt-BR message', async () => {
    const t = await startTestServer({ WEBHOOK_RATE_PER_MINUTE: '3' });
    try {
      await t.reset();
      const token = await t.login('dono@demo.com');
      const a = await t.call('create-or-update-webhook', { _id: newId() }, token);
      const b = await t.call('create-or-update-webhook', { _id: newId() }, token);
      const hit = (id: string) =>
        fetch(`${t.url}/api/v1/webhooks/${id}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"x":1}',
        });
      for (let i = 0; i < 3; i++) expect((await hit(a._id)).status).toBe(200);
      const limited = await hit(a._id);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      const body = (await limited.json()) as { error: boolean; message: string };
      expect(body.error).toBe(true);
      expect(body.message).toMatch(/^Muitas requisições\. Tente novamente em \d+ segundos?\.$/);
      // The other webhook is not held back.
      expect((await hit(b._id)).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('housekeeping', () => {
  it('drops handled events after 30 days and keeps newer ones and any still queued', async () => {
    const token = await s.t.login('gerente@demo.com');
    const hook = await newWebhook(token);
    const { db } = s.t.server.services;
    const ago = (days: number) => new Date(Date.now() - days * 86_400_000);
    const event = (key: string, status: 'queued' | 'sent' | 'error', days: number) => ({
      id: newId(),
      webhookId: hook._id,
      accountId: s.seed.accountId,
      dedupeKey: key,
      phone: '5511976540000',
      status,
      createdAt: ago(days),
    });
    await db
      .insert(webhookEvents)
      .values([
        event('velho-enviado', 'sent', 31),
        event('velho-erro', 'error', 40),
        event('velho-na-fila', 'queued', 31),
        event('novo', 'sent', 29),
      ]);
    await integrationKeysHousekeepingJob.run(undefined as never, s.t.server.services);
    const left = await db
      .select({ key: webhookEvents.dedupeKey })
      .from(webhookEvents)
      .where(eq(webhookEvents.webhookId, hook._id));
    expect(left.map((r) => r.key).sort()).toEqual(['novo', 'velho-na-fila']);
  });
});
