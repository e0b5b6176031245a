import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ReceiveMessage } from '../../src/shared/contract/events';
import { messages } from '../../src/shared/messages';
import { startTestServer, type TestServer } from './helpers';

let t: TestServer;
let seed: Awaited<ReturnType<TestServer['reset']>>;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());
beforeEach(async () => {
  seed = await t.reset();
});

const connected = (s: Socket) =>
  new Promise<void>((resolve, reject) => {
    if (s.connected) return resolve();
    s.once('connect', () => resolve());
    s.once('connect_error', reject);
  });

describe('socket.io at /sock/', () => {
  it('a client with a token joins its account room and receives its events, not another account’s', async () => {
    const mine = t.socket(await t.login('atendente@demo.com'));
    const other = t.socket(await t.login('admin@demo.com'));
    await Promise.all([connected(mine), connected(other)]);

    const got: ReceiveMessage[] = [];
    const gotOther: ReceiveMessage[] = [];
    other.on('receive-message', (e) => gotOther.push(e));
    const arrived = new Promise<ReceiveMessage>((resolve) => mine.once('receive-message', resolve));
    mine.on('receive-message', (e) => got.push(e));

    t.server.services.realtime.toAccount(seed.accountId, {
      type: 'status',
      chip_number_id: 'X',
      message: 'open',
    });
    expect(await arrived).toEqual({ type: 'status', chip_number_id: 'X', message: 'open' });
    // A round trip on the other socket proves it had the chance to receive and did not.
    await new Promise<boolean>((resolve) => other.emit('join-room', 'account_someone_else', resolve));
    expect(gotOther).toEqual([]);
  });

  it('join-room accepts the own account only', async () => {
    const s = t.socket(await t.login('dono@demo.com'));
    await connected(s);
    const ask = (room: string) => new Promise<boolean>((resolve) => s.emit('join-room', room, resolve));
    expect(await ask(seed.accountId)).toBe(true);
    expect(await ask(`account_${seed.accountId}`)).toBe(true);
    expect(await ask('account_0000000000000000000000000000')).toBe(false);
  });

  it('refuses a client without a valid token, or with a revoked one', async () => {
    for (const token of [undefined, 'forged-token']) {
      const s = t.socket(token);
      await expect(connected(s)).rejects.toThrow(messages.unauthorized);
    }
    const token = await t.login('dono@demo.com');
    await t.call('logout', {}, token);
    await expect(connected(t.socket(token))).rejects.toThrow(messages.unauthorized);
  });
});
