// Data survives a restart: the same DATA_DIR (or the same PostgreSQL database) opened again.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import type { ChannelAdapter } from '@/server/channels/adapter';
import { messages } from '@/server/db/schema';
import { resumePendingSends } from '@/server/domains/conversations/delivery';
import { messages as texts } from '@/shared/messages';
import { connected, connectedSimulatorChip, listen, simulatorSocket, until } from './channel-helpers';
import { startTestServer, type TestServer } from './helpers';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

it('keeps users, sessions and changes across a restart', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'painel-restart-'));
  dirs.push(dir);
  const first = await startTestServer({ SEED_DEMO: 'true' }, dir);
  expect(first.server.firstStartLines?.[0]).toContain('Loja Demo');
  const token = await first.login('dono@demo.com');
  await first.call('update-user', { name: 'Dona Maria' }, token);
  const databaseUrl = first.databaseUrl;
  await first.close({ keepDatabase: true });

  const second = await startTestServer(
    { SEED_DEMO: 'true', ...(databaseUrl && { DATABASE_URL: databaseUrl }) },
    dir,
  );
  try {
    // Not seeded again, the session still valid, the change kept.
    expect(second.server.firstStartLines).toBeNull();
    expect((await second.call('get-user', {}, token)).name).toBe('Dona Maria');
  } finally {
    await second.close();
  }
});

it('a send repeated after a restart answers the first result and reaches the phone once; a cut-off one stored without its provider request fails, unsent', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'painel-restart-'));
  dirs.push(dir);
  const first = await startTestServer({ SEED_DEMO: 'true' }, dir);
  const owner = await first.login('dono@demo.com');
  const [support] = await first.call('get-departments-by-user', {}, owner);
  const { chip, simulatorToken } = await connectedSimulatorChip(first, owner, {
    department: support?._id ?? '',
  });
  const manager = await listen(first, 'gerente@demo.com');
  await first.call('simulator-send', {
    token: simulatorToken,
    phone: '5511977776666',
    name: 'Rita',
    id: 'restart-first-message',
    type: 'text',
    text: 'Oi',
  });
  const { message: conversation } = await manager.next('new_conversation');
  const body = { conversation_id: conversation._id, message_id: 'restart-send-0001', text: 'Resposta' };
  const answer = await first.call('send-conversation-message', body, owner);
  // A send cut off by a crash before sends kept their provider request (an older version): it cannot be
  // resumed, so it fails.
  await first.server.services.db.insert(messages).values({
    id: 'INTERRUPTED00000000000000000',
    accountId: (await first.call('get-user', {}, owner)).account._id,
    conversationId: conversation._id,
    chipId: chip._id,
    origin: 'user',
    type: 'text',
    message: 'Perdida',
    messageId: 'restart-send-0002',
    status: 0,
    createdAt: new Date(Date.now() - 10 * 60 * 1000),
  });
  const databaseUrl = first.databaseUrl;
  await first.close({ keepDatabase: true });

  const second = await startTestServer(
    { SEED_DEMO: 'true', ...(databaseUrl && { DATABASE_URL: databaseUrl }) },
    dir,
  );
  try {
    const phone = simulatorSocket(second, simulatorToken, '5511977776666');
    await connected(phone.sock);
    expect(await second.call('send-conversation-message', body, owner)).toEqual(answer);
    const interrupted = await second.call(
      'send-conversation-message',
      { ...body, message_id: 'restart-send-0002', text: 'Perdida' },
      owner,
    );
    expect(interrupted).toMatchObject({ status: -1, failure: texts.sendInterrupted });
    await second.call(
      'send-conversation-message',
      { ...body, message_id: 'restart-send-0003', text: 'Nova' },
      owner,
    );
    // Only the new message reached the phone after the restart.
    const got = await until(() => {
      const m = phone.events.filter((e) => e.type === 'message');
      return m.length ? m : undefined;
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(got.map((e) => (e.type === 'message' ? e.message.text : ''))).toEqual(['Nova']);
  } finally {
    await second.close();
  }
});

/** An owner, a connected simulator chip and a customer's conversation on a server started on `dir`. */
async function customerConversation(t: TestServer, phoneNumber: string) {
  const owner = await t.login('dono@demo.com');
  const [support] = await t.call('get-departments-by-user', {}, owner);
  const { chip, simulatorToken } = await connectedSimulatorChip(t, owner, { department: support?._id ?? '' });
  const manager = await listen(t, 'gerente@demo.com');
  await t.call('simulator-send', {
    token: simulatorToken,
    phone: phoneNumber,
    name: 'Rita',
    id: `first-${phoneNumber}`,
    type: 'text',
    text: 'Oi',
  });
  const { message: conversation } = await manager.next('new_conversation');
  const accountId = (await t.call('get-user', {}, owner)).account._id;
  return { owner, accountId, chip, simulatorToken, conversation };
}

/** The claim of a cut-off send runs out: as if its lease's minutes had passed. */
const leaseRunsOut = (t: TestServer, messageId: string) =>
  t.server.services.db
    .update(messages)
    .set({ sendLeaseUntil: sql`now() - interval '1 second'` })
    .where(eq(messages.messageId, messageId));

it('a send cut off by a kill before the provider had it is resumed after the restart: the customer gets it once and it ends sent; a retry answers pending at once', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'painel-restart-'));
  dirs.push(dir);
  const first = await startTestServer({ SEED_DEMO: 'true' }, dir);
  const { owner, simulatorToken, conversation } = await customerConversation(first, '5511966665555');
  // The provider never answers: the process is killed while the send waits on it.
  const adapter = first.server.services.channels.simulator.adapter as { send: ChannelAdapter['send'] };
  adapter.send = () => new Promise(() => undefined);
  const body = { conversation_id: conversation._id, message_id: 'restart-cut-0001', text: 'Chegou?' };
  const cut = first.post('send-conversation-message', body, owner).catch(() => null);
  const stored = await until(async () => {
    const [row] = await first.server.services.db
      .select()
      .from(messages)
      .where(eq(messages.messageId, body.message_id));
    return row;
  });
  expect(stored.status).toBe(0);

  // The device's retry (its answer was lost) answers at once, as still pending: never as sent.
  const asked = Date.now();
  const retry = await first.call('send-conversation-message', body, owner);
  expect(Date.now() - asked).toBeLessThan(10_000);
  expect(retry).toMatchObject({ _id: stored.id, status: 0, message_id: body.message_id });

  const databaseUrl = first.databaseUrl;
  await first.close({ keepDatabase: true });
  await cut;

  const second = await startTestServer(
    { SEED_DEMO: 'true', ...(databaseUrl && { DATABASE_URL: databaseUrl }) },
    dir,
  );
  try {
    const phone = simulatorSocket(second, simulatorToken, '5511966665555');
    await connected(phone.sock);
    // Still pending after the restart, while its claim holds.
    expect(await second.call('send-conversation-message', body, owner)).toMatchObject({ status: 0 });
    // Its claim runs out: the device's next retry still answers pending, and resumes the send meanwhile.
    await leaseRunsOut(second, body.message_id);
    expect(await second.call('send-conversation-message', body, owner)).toMatchObject({ status: 0 });
    const got = await until(() => {
      const m = phone.events.filter((e) => e.type === 'message');
      return m.length ? m : undefined;
    });
    expect(got.map((e) => (e.type === 'message' ? e.message.text : ''))).toEqual(['Chegou?']);
    const sent = await second.call('send-conversation-message', body, owner);
    expect(sent).toMatchObject({ _id: stored.id, status: 1, failure: null });
    expect(sent.platform_message_id).toMatch(/^SIM/);
    // Settled: another sweep and another retry send nothing more.
    await leaseRunsOut(second, body.message_id);
    expect(await resumePendingSends({ services: second.server.services })).toEqual({ resumed: 0, failed: 0 });
    await new Promise((r) => setTimeout(r, 200));
    expect(phone.events.filter((e) => e.type === 'message')).toHaveLength(1);
  } finally {
    await second.close();
  }
}, 180_000);

it('order after a crash: a send cut off by a kill still reaches the customer before those the attendant typed after the restart', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'painel-restart-'));
  dirs.push(dir);
  const first = await startTestServer({ SEED_DEMO: 'true' }, dir);
  const { owner, simulatorToken, conversation } = await customerConversation(first, '5511944443333');
  // The provider never answers the first send: the process is killed while it waits on it.
  const adapter = first.server.services.channels.simulator.adapter as { send: ChannelAdapter['send'] };
  adapter.send = () => new Promise(() => undefined);
  const cutBody = { conversation_id: conversation._id, message_id: 'order-cut-0001', text: 'Primeira' };
  const cut = first.post('send-conversation-message', cutBody, owner).catch(() => null);
  await until(
    async () =>
      (
        await first.server.services.db
          .select()
          .from(messages)
          .where(eq(messages.messageId, cutBody.message_id))
      )[0],
  );
  const databaseUrl = first.databaseUrl;
  await first.close({ keepDatabase: true });
  await cut;

  const second = await startTestServer(
    { SEED_DEMO: 'true', ...(databaseUrl && { DATABASE_URL: databaseUrl }) },
    dir,
  );
  try {
    const phone = simulatorSocket(second, simulatorToken, '5511944443333');
    await connected(phone.sock);
    // After the restart she types two more. The first send's claim still holds (its process may be alive
    // and talking to the provider): they wait behind it, 'enviando'.
    const later = ['Segunda', 'Terceira'].map((text, i) => ({
      conversation_id: conversation._id,
      message_id: `order-after-000${i}`,
      text,
    }));
    for (const body of later)
      expect(await second.call('send-conversation-message', body, owner)).toMatchObject({ status: 0 });
    await new Promise((r) => setTimeout(r, 1000));
    expect(phone.events.filter((e) => e.type === 'message')).toEqual([]);
    // Its claim runs out: the device's retry of the last one resumes the conversation, the cut-off send first.
    await leaseRunsOut(second, cutBody.message_id);
    await second.call('send-conversation-message', later[1], owner);
    const got = await until(() => {
      const m = phone.events.flatMap((e) => (e.type === 'message' ? [e.message.text] : []));
      return m.length === 3 ? m : undefined;
    }, 15_000);
    expect(got).toEqual(['Primeira', 'Segunda', 'Terceira']);
    await new Promise((r) => setTimeout(r, 300));
    expect(phone.events.filter((e) => e.type === 'message')).toHaveLength(3);
  } finally {
    await second.close();
  }
}, 180_000);

it('a send cut off again and again gives up after its attempts, with the pt-BR reason', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'painel-restart-'));
  dirs.push(dir);
  const t = await startTestServer({ SEED_DEMO: 'true' }, dir);
  try {
    const { owner, conversation } = await customerConversation(t, '5511955554444');
    const adapter = t.server.services.channels.simulator.adapter as { send: ChannelAdapter['send'] };
    adapter.send = () => new Promise(() => undefined);
    const body = { conversation_id: conversation._id, message_id: 'restart-cut-0002', text: 'De novo' };
    void t.post('send-conversation-message', body, owner).catch(() => null);
    await until(
      async () =>
        (
          await t.server.services.db.select().from(messages).where(eq(messages.messageId, body.message_id))
        )[0],
    );
    // Each resume hangs too (the provider never answers), as if each one's process were killed.
    for (let i = 0; i < 2; i++) {
      await leaseRunsOut(t, body.message_id);
      void resumePendingSends({ services: t.server.services });
      await until(async () => {
        const [row] = await t.server.services.db
          .select()
          .from(messages)
          .where(eq(messages.messageId, body.message_id));
        return row && row.sendAttempts === i + 2;
      });
    }
    await leaseRunsOut(t, body.message_id);
    // Not resumed a third time: failed, by this call or by the server's own resume job if it came first (on a
    // busy machine it may), and then this call finds nothing to do.
    const last = await resumePendingSends({ services: t.server.services });
    expect(last.resumed).toBe(0);
    expect(last.failed).toBeLessThanOrEqual(1);
    expect(await t.call('send-conversation-message', body, owner)).toMatchObject({
      status: -1,
      failure: texts.sendInterrupted,
    });
  } finally {
    await t.close();
  }
}, 120_000);

it.skipIf(!process.env.DATABASE_URL)(
  'two processes on one PostgreSQL resume each cut-off send once',
  async () => {
    const first = await startTestServer({ SEED_DEMO: 'true' });
    const second = await startTestServer({
      SEED_DEMO: 'true',
      DATABASE_URL: first.databaseUrl ?? '',
    });
    try {
      const { accountId, chip, conversation } = await customerConversation(first, '5511944443333');
      const sentBy: string[][] = [[], []];
      [first, second].forEach((t, i) => {
        const adapter = t.server.services.channels.simulator.adapter as { send: ChannelAdapter['send'] };
        const send = adapter.send.bind(adapter);
        adapter.send = async (c, to, content) => {
          sentBy[i]?.push(content.type === 'text' ? content.text : '');
          await new Promise((r) => setTimeout(r, 5)); // a provider takes a moment
          return send(c, to, content);
        };
      });
      // 40 sends cut off by a crash, their claims run out.
      const texts40 = Array.from({ length: 40 }, (_, i) => `Cortada ${i}`);
      await first.server.services.db.insert(messages).values(
        texts40.map((text, i) => ({
          id: `CUTOFF${String(i).padStart(22, '0')}`,
          accountId,
          conversationId: conversation._id,
          chipId: chip._id,
          origin: 'user' as const,
          type: 'text' as const,
          message: text,
          messageId: `cutoff-${i}`,
          status: 0,
          outbound: { to: '5511944443333', content: { type: 'text' as const, text } },
          sendAttempts: 1,
          sendLeaseUntil: sql`now() - interval '1 second'`,
        })),
      );
      const runs = await Promise.all([
        resumePendingSends({ services: first.server.services }, { limit: 10 }),
        resumePendingSends({ services: second.server.services }, { limit: 10 }),
        resumePendingSends({ services: first.server.services }, { limit: 10 }),
        resumePendingSends({ services: second.server.services }, { limit: 10 }),
        resumePendingSends({ services: first.server.services }, { limit: 10 }),
        resumePendingSends({ services: second.server.services }, { limit: 10 }),
      ]);
      const resumed = runs.reduce((n, r) => n + r.resumed, 0);
      expect(resumed).toBeGreaterThanOrEqual(1);
      // What the six runs left goes too: a sweep, or the conversation's resume job that each send queues for
      // the sends behind it (a job of either process, running beside this test's calls).
      await resumePendingSends({ services: second.server.services });
      const statuses = () =>
        first.server.services.db
          .select({ status: messages.status })
          .from(messages)
          .where(sql`${messages.messageId} like 'cutoff-%'`);
      await until(async () => (await statuses()).every((r) => r.status === 1), 30_000);
      expect((await statuses()).map((r) => r.status)).toEqual(texts40.map(() => 1));
      // Each once, across both processes.
      const all = [...(sentBy[0] ?? []), ...(sentBy[1] ?? [])].sort();
      expect(all).toEqual([...texts40].sort());
    } finally {
      await second.close({ keepDatabase: true });
      await first.close();
    }
  },
  120_000,
);
