// Data survives a restart: the same DATA_DIR (or the same PostgreSQL database) opened again.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { messages } from '../../src/server/db/schema';
import { messages as texts } from '../../src/shared/messages';
import { connected, connectedSimulatorChip, listen, simulatorSocket, until } from './channel-helpers';
import { startTestServer } from './helpers';

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

it('a send repeated after a restart answers the first result and reaches the phone once; an interrupted one fails, unsent', async () => {
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
  // A send cut off by a crash: stored, never handed to the provider.
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
