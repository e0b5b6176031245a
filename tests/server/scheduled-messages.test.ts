// Scheduled messages: the calls' rules and visibility, the job sending at scheduledTo, and its crash safety.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import type { ChannelAdapter } from '@/server/channels/adapter';
import { messages, scheduledMessages } from '@/server/db/schema';
import { resumePendingSends } from '@/server/domains/conversations/delivery';
import {
  claimDue,
  deliver,
  runDue,
  runScheduledMessage,
  scheduledMessageId,
} from '@/server/jobs/scheduled-messages';
import { messages as texts } from '@/shared/messages';
import { connected, connectedSimulatorChip, simulatorSocket, until } from './channel-helpers';
import { startTestServer, testServerPerFile } from './helpers';

const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();

describe('scheduled-message calls', () => {
  const ctx = testServerPerFile();

  it('validates each field in the spec order and with its message', async () => {
    const { t, seed } = ctx;
    const owner = await t.login('dono@demo.com');
    const { chip } = await connectedSimulatorChip(t, owner, { department: seed.departments.support });
    const base = {
      chip: chip._id,
      country_code: '55',
      to: '11987654321',
      type: 'text',
      message: 'Oi',
      scheduledTo: inSeconds(3600),
    };
    const refused = async (body: Record<string, unknown>) => {
      const r = await t.post('create-scheduled-message', body, owner);
      expect(r.body.error).toBe(true);
      return r.body.message;
    };
    expect(await refused({ ...base, chip: '' })).toBe(texts.scheduleChipRequired);
    expect(await refused({ ...base, to: '' })).toBe(texts.scheduleToRequired);
    expect(await refused({ ...base, scheduledTo: '' })).toBe(texts.scheduleDateRequired);
    expect(await refused({ ...base, to: '11 98765-4321' })).toBe('Número de telefone inválido.');
    expect(await refused({ ...base, country_code: '+55' })).toBe(texts.scheduleCountryCodeInvalid);
    expect(await refused({ ...base, message: '  ' })).toBe(texts.scheduleTextRequired);
    expect(await refused({ ...base, type: 'flow' })).toBe(texts.scheduleFlowRequired);
    expect(await refused({ ...base, scheduledTo: inSeconds(-60) })).toBe(texts.scheduleDateInPast);

    const created = await t.call('create-scheduled-message', base, owner);
    expect(created).toMatchObject({ to: '5511987654321', status: 'scheduled', type: 'text', message: 'Oi' });
    const edited = await t.call(
      'update-scheduled-message',
      { ...base, _id: created._id, message: 'Olá' },
      owner,
    );
    expect(edited.message).toBe('Olá');
    expect(await t.call('get-scheduled-messages-by-user', {}, owner)).toHaveLength(1);
    await t.call('update-scheduled-message', { _id: created._id, filed: true }, owner);
    expect(await t.call('get-scheduled-messages-by-user', {}, owner)).toHaveLength(0);
  });

  it('attendants see and change only their departments’ chips; a sent item can no longer be changed', async () => {
    const { t, seed } = ctx;
    const owner = await t.login('dono@demo.com');
    const { chip } = await connectedSimulatorChip(t, owner, { department: seed.departments.sales });
    const body = {
      chip: chip._id,
      to: '11987654321',
      country_code: '55',
      message: 'Oi',
      scheduledTo: inSeconds(3600),
    };
    const item = await t.call('create-scheduled-message', body, owner);
    const ana = await t.login('atendente@demo.com'); // Suporte
    const bruno = await t.login('atendente2@demo.com'); // Vendas
    expect(await t.call('get-scheduled-messages-by-user', {}, ana)).toHaveLength(0);
    expect((await t.post('create-scheduled-message', body, ana)).body).toMatchObject({ error: true });
    expect(
      (await t.post('update-scheduled-message', { _id: item._id, filed: true }, ana)).body,
    ).toMatchObject({
      error: true,
    });
    expect(await t.call('get-scheduled-messages-by-user', {}, bruno)).toHaveLength(1);
    await t.server.services.db
      .update(scheduledMessages)
      .set({ status: 'sent' })
      .where(eq(scheduledMessages.id, item._id));
    expect((await t.post('update-scheduled-message', { _id: item._id, filed: true }, bruno)).body).toEqual({
      error: true,
      message: texts.scheduleNotEditable,
    });
  });

  it('the job sends a due message to the customer and marks it sent', async () => {
    const { t, seed } = ctx;
    const owner = await t.login('dono@demo.com');
    const { chip, simulatorToken } = await connectedSimulatorChip(t, owner, {
      department: seed.departments.support,
    });
    const phone = simulatorSocket(t, simulatorToken, '5511987654321');
    await connected(phone.sock);
    const item = await t.call(
      'create-scheduled-message',
      { chip: chip._id, to: '11987654321', message: 'Lembrete do pedido', scheduledTo: inSeconds(1) },
      owner,
    );
    const got = await until(() => phone.events.find((e) => e.type === 'message'), 5000);
    expect(got.type === 'message' && got.message.text).toBe('Lembrete do pedido');
    const [listed] = await until(async () => {
      const list = await t.call('get-scheduled-messages-by-user', {}, owner);
      return list[0]?.status === 'sent' ? list : undefined;
    });
    expect(listed?._id).toBe(item._id);
    // It lives in a conversation like any other message of the team.
    const stored = await t.server.services.db
      .select()
      .from(messages)
      .where(eq(messages.messageId, scheduledMessageId(item._id)));
    expect(stored).toHaveLength(1);
  });

  it('a message moved to a later time is sent once, then; a deleted one is never sent', async () => {
    const { t, seed } = ctx;
    const owner = await t.login('dono@demo.com');
    const { chip, simulatorToken } = await connectedSimulatorChip(t, owner, {
      department: seed.departments.support,
    });
    const phone = simulatorSocket(t, simulatorToken, '5511987654321');
    await connected(phone.sock);
    const body = { chip: chip._id, to: '11987654321', scheduledTo: inSeconds(3) };
    const moved = await t.call('create-scheduled-message', { ...body, message: 'Movida' }, owner);
    const deleted = await t.call('create-scheduled-message', { ...body, message: 'Apagada' }, owner);
    const later = inSeconds(7);
    await t.call(
      'update-scheduled-message',
      { ...body, _id: moved._id, message: 'Movida', scheduledTo: later },
      owner,
    );
    await t.call('update-scheduled-message', { _id: deleted._id, filed: true }, owner);
    // The jobs queued for the first time ran and claimed nothing.
    await new Promise((r) => setTimeout(r, Math.max(0, new Date(later).getTime() - Date.now() - 1500)));
    expect(phone.events.filter((e) => e.type === 'message')).toHaveLength(0);
    await until(() => phone.events.some((e) => e.type === 'message'), 10_000);
    await new Promise((r) => setTimeout(r, 1000));
    expect(phone.events.flatMap((e) => (e.type === 'message' ? [e.message.text] : []))).toEqual(['Movida']);
    const [row] = await t.server.services.db
      .select()
      .from(scheduledMessages)
      .where(eq(scheduledMessages.id, moved._id));
    expect(row).toMatchObject({ status: 'sent', attempts: 1 });
    expect(row?.sentAt?.getTime()).toBeGreaterThanOrEqual(new Date(later).getTime());
  });
});

describe('a scheduled message whose send is cut off', () => {
  const ctx = testServerPerFile();

  it('stays sending while its message is pending (the job is retried), and is marked sent once the resumed send is', async () => {
    const { t, seed } = ctx;
    const owner = await t.login('dono@demo.com');
    const { chip, simulatorToken } = await connectedSimulatorChip(t, owner, {
      department: seed.departments.support,
    });
    const phone = simulatorSocket(t, simulatorToken, '5511987654321');
    await connected(phone.sock);
    const item = await t.call(
      'create-scheduled-message',
      { chip: chip._id, to: '11987654321', message: 'Retomada', scheduledTo: inSeconds(3600) },
      owner,
    );
    const { db } = t.server.services;
    const row = () => db.select().from(scheduledMessages).where(eq(scheduledMessages.id, item._id));
    const claimRunsOut = () =>
      db
        .update(scheduledMessages)
        .set({ leaseUntil: sql`now() - interval '1 second'` })
        .where(eq(scheduledMessages.id, item._id));
    await db
      .update(scheduledMessages)
      .set({ scheduledTo: sql`now() - interval '1 second'` })
      .where(eq(scheduledMessages.id, item._id));
    // The provider never answers the first send, as if its process had died there.
    const adapter = t.server.services.channels.simulator.adapter as { send: ChannelAdapter['send'] };
    const send = adapter.send.bind(adapter);
    let asked = false;
    adapter.send = () => {
      asked = true;
      return new Promise(() => undefined);
    };
    void runScheduledMessage(t.server.services, item._id).catch(() => undefined);
    const messageOf = async () =>
      (
        await db
          .select()
          .from(messages)
          .where(eq(messages.messageId, scheduledMessageId(item._id)))
      )[0];
    await until(messageOf);
    // The provider has the first send (it never answers) before the real one is put back.
    await until(() => asked);
    adapter.send = send;
    // The job's retry finds the message pending: the row stays 'sending' and the job is retried later.
    await claimRunsOut();
    await expect(runScheduledMessage(t.server.services, item._id)).rejects.toThrow();
    expect((await row())[0]?.status).toBe('sending');
    // The send is resumed; the next retry marks the scheduled message sent.
    await db
      .update(messages)
      .set({ sendLeaseUntil: sql`now() - interval '1 second'` })
      .where(eq(messages.messageId, scheduledMessageId(item._id)));
    await resumePendingSends({ services: t.server.services });
    expect((await messageOf())?.status).toBe(1);
    await claimRunsOut();
    expect(await runScheduledMessage(t.server.services, item._id)).toBe(true);
    expect((await row())[0]).toMatchObject({ status: 'sent', failure: null });
    await new Promise((r) => setTimeout(r, 300));
    expect(phone.events.flatMap((e) => (e.type === 'message' ? [e.message.text] : []))).toEqual(['Retomada']);
  });
});

describe('crash safety', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  async function setup() {
    const dir = await mkdtemp(path.join(tmpdir(), 'painel-sched-'));
    dirs.push(dir);
    const first = await startTestServer({ SEED_DEMO: 'true' }, dir);
    const owner = await first.login('dono@demo.com');
    const [support] = await first.call('get-departments-by-user', {}, owner);
    const { chip, simulatorToken } = await connectedSimulatorChip(first, owner, {
      department: support?._id ?? '',
    });
    // Due in an hour: the running job leaves it alone; the test plays the clock forward itself.
    const item = await first.call(
      'create-scheduled-message',
      { chip: chip._id, to: '11987654321', message: 'Só uma vez', scheduledTo: inSeconds(3600) },
      owner,
    );
    const due = new Date(new Date(item.scheduledTo).getTime() + 1000);
    return { dir, first, owner, item, due, simulatorToken };
  }

  async function restart(dir: string, databaseUrl: string | null) {
    return startTestServer({ SEED_DEMO: 'true', ...(databaseUrl && { DATABASE_URL: databaseUrl }) }, dir);
  }

  it('a restart between claim and send sends the message exactly once, after the claim runs out', async () => {
    const { dir, first, item, due, simulatorToken } = await setup();
    const claimed = await claimDue(first.server.services.db, due, 60_000);
    expect(claimed.map((r) => r.id)).toEqual([item._id]);
    // The crash: claimed, never sent.
    const databaseUrl = first.databaseUrl;
    await first.close({ keepDatabase: true });

    const second = await restart(dir, databaseUrl);
    try {
      const phone = simulatorSocket(second, simulatorToken, '5511987654321');
      await connected(phone.sock);
      const { services } = second.server;
      // While the claim holds, nobody else takes it.
      expect(await runDue(services, new Date(due.getTime() + 30_000))).toBe(0);
      // Once it ran out, the next look sends it; later looks find nothing.
      expect(await runDue(services, new Date(due.getTime() + 61_000))).toBe(1);
      expect(await runDue(services, new Date(due.getTime() + 200_000))).toBe(0);
      await until(() => phone.events.some((e) => e.type === 'message'));
      await new Promise((r) => setTimeout(r, 300));
      expect(phone.events.filter((e) => e.type === 'message')).toHaveLength(1);
      const [row] = await services.db
        .select()
        .from(scheduledMessages)
        .where(eq(scheduledMessages.id, item._id));
      expect(row).toMatchObject({ status: 'sent', attempts: 2 });
    } finally {
      await second.close();
    }
  });

  it('a restart between the send and the status update sends nothing again and marks it sent', async () => {
    const { dir, first, item, due, simulatorToken } = await setup();
    const phoneBefore = simulatorSocket(first, simulatorToken, '5511987654321');
    await connected(phoneBefore.sock);
    const [claimed] = await claimDue(first.server.services.db, due, 60_000);
    expect(claimed?.id).toBe(item._id);
    // The send reached the provider, then the process died before writing the outcome: deliver() once,
    // then put the row back as the crash left it (claimed, outcome unwritten).
    await deliver(first.server.services, claimed as NonNullable<typeof claimed>);
    await first.server.services.db
      .update(scheduledMessages)
      .set({ status: 'sending', sentAt: null, leaseUntil: new Date(due.getTime() + 60_000) })
      .where(eq(scheduledMessages.id, item._id));
    await until(() => phoneBefore.events.some((e) => e.type === 'message'));
    const databaseUrl = first.databaseUrl;
    await first.close({ keepDatabase: true });

    const second = await restart(dir, databaseUrl);
    try {
      const phone = simulatorSocket(second, simulatorToken, '5511987654321');
      await connected(phone.sock);
      expect(await runDue(second.server.services, new Date(due.getTime() + 61_000))).toBe(1);
      await new Promise((r) => setTimeout(r, 300));
      expect(phone.events.filter((e) => e.type === 'message')).toHaveLength(0);
      const [row] = await second.server.services.db
        .select()
        .from(scheduledMessages)
        .where(eq(scheduledMessages.id, item._id));
      expect(row?.status).toBe('sent');
      const stored = await second.server.services.db
        .select()
        .from(messages)
        .where(eq(messages.messageId, scheduledMessageId(item._id)));
      expect(stored).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});
