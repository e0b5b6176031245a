import type { Socket } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import type { ReceiveMessage } from '@/shared/contract/events';
import { messages } from '@/shared/messages';
import { testServerPerFile } from './helpers';

const s = testServerPerFile();

const connected = (s: Socket) =>
  new Promise<void>((resolve, reject) => {
    if (s.connected) return resolve();
    s.once('connect', () => resolve());
    s.once('connect_error', reject);
  });

describe('socket.io at /sock/', () => {
  it('a client with a token joins its account room and receives its events, not another account’s', async () => {
    const mine = s.t.socket(await s.t.login('atendente@demo.com'));
    const other = s.t.socket(await s.t.login('admin@demo.com'));
    await Promise.all([connected(mine), connected(other)]);

    const got: ReceiveMessage[] = [];
    const gotOther: ReceiveMessage[] = [];
    other.on('receive-message', (e) => gotOther.push(e));
    const arrived = new Promise<ReceiveMessage>((resolve) => mine.once('receive-message', resolve));
    mine.on('receive-message', (e) => got.push(e));

    s.t.server.services.realtime.toAccount(s.seed.accountId, {
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
    const sock = s.t.socket(await s.t.login('dono@demo.com'));
    await connected(sock);
    const ask = (room: string) => new Promise<boolean>((resolve) => sock.emit('join-room', room, resolve));
    expect(await ask(s.seed.accountId)).toBe(true);
    expect(await ask(`account_${s.seed.accountId}`)).toBe(true);
    expect(await ask('account_0000000000000000000000000000')).toBe(false);
  });

  it('refuses a client without a valid token, or with a revoked one', async () => {
    for (const token of [undefined, 'forged-token']) {
      const sock = s.t.socket(token);
      await expect(connected(sock)).rejects.toThrow(messages.unauthorized);
    }
    const token = await s.t.login('dono@demo.com');
    await s.t.call('logout', {}, token);
    await expect(connected(s.t.socket(token))).rejects.toThrow(messages.unauthorized);
  });
});
