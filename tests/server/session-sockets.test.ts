// Ending a session closes its live sockets at once: logout, a password change (the other sessions), a
// password reset (every session) and a deleted user. A closed socket gets no conversation event, while a
// socket that stays (another session, another user) gets the customer's message.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Socket } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { collect, connected, connectedSimulatorChip } from './channel-helpers';
import { mailsHandedOn, testServerPerFile } from './helpers';

const s = testServerPerFile();

let seq = 0;
const localId = () => `m${Date.now().toString(36)}${(seq++).toString(36)}xx`;

/** A live socket of a new session of `email`, its events collected; answers the token too. */
async function session(email: string, password?: string) {
  const token = await s.t.login(email, password);
  const sock = s.t.socket(token);
  await connected(sock);
  return { token, ...collect(sock) };
}

/** Watch before the action: resolves with the reason the server closed the socket. */
const closedBy = (sock: Socket, ms = 3000) =>
  new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the socket is still open')), ms);
    sock.once('disconnect', (reason) => {
      clearTimeout(timer);
      resolve(reason);
    });
  });

/** A support chip; `write()` sends a customer message through the simulator. */
async function customerChannel() {
  const { simulatorToken } = await connectedSimulatorChip(s.t, await s.t.login('dono@demo.com'), {
    department: s.seed.departments.support,
  });
  return {
    write: (text: string) =>
      s.t.call('simulator-send', {
        token: simulatorToken,
        phone: '11 98765-4321',
        name: 'Maria Cliente',
        id: localId(),
        type: 'text',
        text,
      }),
  };
}

const conversationEvents = (events: { type: string }[]) =>
  events.filter((e) => e.type === 'new_conversation' || e.type === 'new_message');

describe('ending a session closes its sockets', () => {
  it('logout closes that session’s socket, not another session’s', async () => {
    const customer = await customerChannel();
    const leaving = await session('gerente@demo.com');
    const staying = await session('gerente@demo.com');
    const closed = closedBy(leaving.sock);
    await s.t.call('logout', {}, leaving.token);
    expect(await closed).toBe('io server disconnect');
    await customer.write('Meu telefone é 11 91234-5678');
    await staying.next('new_conversation');
    expect(conversationEvents(leaving.events)).toEqual([]);
    expect(staying.sock.connected).toBe(true);
  });

  it('a password change closes the other sessions’ sockets and keeps this one', async () => {
    const customer = await customerChannel();
    const phone = await session('gerente@demo.com');
    const desktop = await session('gerente@demo.com');
    const closed = closedBy(phone.sock);
    await s.t.call('change-user-password', { old_password: 'demo123', password: 'nova123' }, desktop.token);
    expect(await closed).toBe('io server disconnect');
    await customer.write('Olá');
    await desktop.next('new_conversation');
    expect(conversationEvents(phone.events)).toEqual([]);
    expect(desktop.sock.connected).toBe(true);
  });

  it('a password reset closes every session’s socket', async () => {
    const customer = await customerChannel();
    const one = await session('gerente@demo.com');
    const two = await session('gerente@demo.com');
    const owner = await session('dono@demo.com');
    await s.t.call('send-password-recovery', { email: 'gerente@demo.com' });
    // The mail goes through the job runner, a moment after the answer.
    await mailsHandedOn(s.t);
    const dir = path.join(s.t.dataDir, 'mail');
    const files = (await readdir(dir)).sort();
    // The mail is quoted-printable: unfold its soft line breaks and '=3D' before reading the link.
    const mail = (await readFile(path.join(dir, files.at(-1) as string), 'utf8'))
      .replace(/=\r?\n/g, '')
      .replace(/=3D/g, '=');
    const token = /\/redefinir-senha\?token=([\w-]+)/.exec(mail)?.[1];
    const closed = Promise.all([closedBy(one.sock), closedBy(two.sock)]);
    await s.t.call('reset-password', { token, password: 'segredo1' });
    await closed;
    await customer.write('Olá');
    await owner.next('new_conversation');
    expect(conversationEvents([...one.events, ...two.events])).toEqual([]);
  });

  it('a deleted user’s sockets close', async () => {
    const customer = await customerChannel();
    const agent = await session('atendente@demo.com');
    const owner = await session('dono@demo.com');
    const me = (await s.t.call('get-team-users', {}, owner.token)).find(
      (u) => u.email === 'atendente@demo.com',
    );
    const closed = closedBy(agent.sock);
    await s.t.call('update-team-user', { ...me, filed: true }, owner.token);
    await closed;
    await customer.write('Olá');
    await owner.next('new_conversation');
    expect(conversationEvents(agent.events)).toEqual([]);
  });
});
