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

  it('a hostile payload on any event (nested 100,000 deep, binary placeholders nested so, 3 MB) is refused: the sender is cut off, the process and the other sockets go on', async () => {
    const token = await s.t.login('dono@demo.com');
    const bystander = s.t.socket(token);
    await connected(bystander);
    const ask = (sock: Socket, room: string) =>
      new Promise<boolean>((resolve) => sock.emit('join-room', room, resolve));
    const deep = (inner: string) => `${'['.repeat(100_000)}${inner}${']'.repeat(100_000)}`;
    // Raw socket.io packets on the engine (the client's own encoder would not build them): an event, a binary
    // event whose attachment placeholder is deep inside, an event past the size limit, an unknown event.
    const packets: ((send: (m: string | Uint8Array) => void) => void)[] = [
      (send) => send(`2["join-room",${deep('1')}]`),
      (send) => {
        send(`51-["join-room",${deep('{"_placeholder":true,"num":0}')}]`);
        send(new Uint8Array([1, 2, 3]));
      },
      (send) => send(`2["join-room","${'x'.repeat(3 * 1024 * 1024)}"]`),
      (send) => send(`2["nao-existe",${deep('{}')}]`),
    ];
    for (const packet of packets) {
      const hostile = s.t.socket(token);
      await connected(hostile);
      const closed = new Promise<void>((resolve) => hostile.once('disconnect', () => resolve()));
      hostile.io.reconnection(false);
      packet((m) => (hostile.io.engine as unknown as { send(m: string | Uint8Array): void }).send(m));
      await closed;
      hostile.close();
      // The process is up, the other socket is served, and a new one connects.
      expect(await ask(bystander, s.seed.accountId)).toBe(true);
      expect((await fetch(`${s.t.url}/health`)).status).toBe(200);
    }
    const fresh = s.t.socket(token);
    await connected(fresh);
    expect(await ask(fresh, s.seed.accountId)).toBe(true);
    fresh.close();
    bystander.close();
  });
});
