// Web Push (issue 7) against a local push service: the server encrypts 'Nova conversa' (aes128gcm, RFC 8291)
// for each subscribed device of the users allowed to see the new conversation, signs it with its VAPID key,
// and the test decrypts each payload with the subscription's own keys (http_ece) and reads it.
import { createECDH, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
// @ts-expect-error http_ece ships no types
import ece from 'http_ece';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages as texts } from '@/shared/messages';
import { connectedSimulatorChip, until } from './channel-helpers';
import { testServerPerFile } from './helpers';

const s = testServerPerFile();

interface Received {
  device: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A push service: stores what it receives; answers 410 for the devices told to be gone. */
let pushService: Server;
let pushUrl = '';
const received: Received[] = [];
const gone = new Set<string>();
beforeAll(async () => {
  pushService = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const device = (req.url ?? '').split('/').at(-1) ?? '';
      received.push({ device, headers: req.headers, body: Buffer.concat(chunks) });
      res.statusCode = gone.has(device) ? 410 : 201;
      res.end();
    });
  });
  await new Promise<void>((r) => pushService.listen(0, '127.0.0.1', r));
  pushUrl = `http://127.0.0.1:${(pushService.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => pushService.close(r)));

const b64url = (b: Buffer) => b.toString('base64url');

/** A browser's subscription: its own P-256 key pair and auth secret. */
function device(name: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    name,
    ecdh,
    auth,
    subscription: {
      endpoint: `${pushUrl}/push/${name}`,
      keys: { p256dh: b64url(ecdh.getPublicKey()), auth: b64url(auth) },
    },
    decrypt(body: Buffer) {
      const plain: Buffer = ece.decrypt(body, { version: 'aes128gcm', privateKey: ecdh, authSecret: auth });
      return JSON.parse(plain.toString('utf8'));
    },
  };
}

let seq = 0;
const localId = () => `p${Date.now().toString(36)}${(seq++).toString(36)}xx`;

describe('web push', () => {
  it('made one VAPID key pair at the first start: the same public key on every call', async () => {
    const token = await s.t.login('atendente@demo.com');
    const a = await s.t.call('get-push-key', {}, token);
    const b = await s.t.call('get-push-key', {}, await s.t.login('dono@demo.com'));
    expect(a.public_key).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(b.public_key).toBe(a.public_key);
    expect((await s.t.post('get-push-key', {})).status).toBe(401);
  });

  it("'Nova conversa' reaches who may see it, encrypted for each device, with the sound toggle", async () => {
    received.length = 0;
    const owner = await s.t.login('dono@demo.com');
    const support = await s.t.login('atendente@demo.com');
    const sales = await s.t.login('atendente2@demo.com');
    const { public_key } = await s.t.call('get-push-key', {}, owner);
    // Ana (Suporte) has the sound off.
    await s.t.call('update-user-config', { disable_notification_sound: true }, support);
    const devices = {
      owner: device('owner'),
      ana: device('ana'),
      anaTablet: device('ana-tablet'),
      bruno: device('bruno'),
    };
    await s.t.call('subscribe-push', devices.owner.subscription, owner);
    await s.t.call('subscribe-push', devices.ana.subscription, support);
    await s.t.call('subscribe-push', devices.anaTablet.subscription, support);
    await s.t.call('subscribe-push', devices.bruno.subscription, sales);
    // A repeat is the same subscription, not a second one.
    await s.t.call('subscribe-push', devices.ana.subscription, support);

    const { simulatorToken } = await connectedSimulatorChip(s.t, owner, {
      department: s.seed.departments.support,
    });
    await s.t.call('simulator-send', {
      token: simulatorToken,
      phone: '11 98765-1111',
      name: 'Joana Compradora',
      id: localId(),
      type: 'text',
      text: 'Oi! Vocês entregam em Campinas?',
    });
    await until(() => (received.length >= 3 ? true : undefined));
    await new Promise((r) => setTimeout(r, 300));
    // Suporte's conversation: the owner and both of Ana's devices; not Bruno (Vendas), not twice.
    expect(received.map((r) => r.device).sort()).toEqual(['ana', 'ana-tablet', 'owner']);

    const [conversation] = (
      await s.t.call('get-conversations-with-last-message', { filter: { text: '5511987651111' } }, owner)
    ).conversations;
    for (const r of received) {
      expect(r.headers['content-encoding']).toBe('aes128gcm');
      expect(String(r.headers.authorization)).toMatch(new RegExp(`^vapid t=[^,]+, k=${public_key}$`));
      expect(Number(r.headers.ttl)).toBeGreaterThan(0);
      const d = Object.values(devices).find((x) => x.name === r.device);
      if (!d) throw new Error(`unknown device ${r.device}`);
      // The body is not readable without the device's keys.
      expect(r.body.toString('utf8')).not.toContain('Joana');
      const payload = d.decrypt(r.body);
      expect(payload).toEqual({
        type: 'new_conversation',
        title: texts.newConversationPushTitle,
        body: 'Joana Compradora: Oi! Vocês entregam em Campinas?',
        conversation_id: conversation?._id,
        silent: r.device !== 'owner',
      });
    }
    // Another device's keys cannot read it.
    const ownerCopy = received.find((r) => r.device === 'owner') as Received;
    expect(() => devices.ana.decrypt(ownerCopy.body)).toThrow();
  });

  it('unsubscribed devices get nothing; a device the push service says is gone is forgotten', async () => {
    received.length = 0;
    gone.clear();
    const owner = await s.t.login('dono@demo.com');
    const manager = await s.t.login('gerente@demo.com');
    const off = device('off');
    const lost = device('lost');
    const kept = device('kept');
    await s.t.call('subscribe-push', off.subscription, owner);
    await s.t.call('subscribe-push', kept.subscription, owner);
    await s.t.call('subscribe-push', lost.subscription, manager);
    await s.t.call('unsubscribe-push', { endpoint: off.subscription.endpoint }, owner);
    gone.add('lost');
    const { simulatorToken } = await connectedSimulatorChip(s.t, owner, {
      department: s.seed.departments.support,
    });
    const send = (phone: string) =>
      s.t.call('simulator-send', {
        token: simulatorToken,
        phone,
        name: 'Cliente',
        id: localId(),
        type: 'text',
        text: 'Oi',
      });
    await send('11 98765-2222');
    await until(() => (received.length >= 2 ? true : undefined));
    await new Promise((r) => setTimeout(r, 300));
    expect(received.map((r) => r.device).sort()).toEqual(['kept', 'lost']);
    // The 410 removed 'lost': the next new conversation reaches only 'kept'.
    received.length = 0;
    await send('11 98765-3333');
    await until(() => (received.length >= 1 ? true : undefined));
    await new Promise((r) => setTimeout(r, 300));
    expect(received.map((r) => r.device)).toEqual(['kept']);
  });

  it('refuses a subscription that is not a web address or has malformed keys, in pt-BR', async () => {
    const owner = await s.t.login('dono@demo.com');
    const bad = await s.t.post(
      'subscribe-push',
      { endpoint: 'javascript:alert(1)', keys: { p256dh: 'x', auth: 'y' } },
      owner,
    );
    expect(bad.status).toBeLessThan(500);
    expect(bad.body).toMatchObject({ error: true, message: expect.stringMatching(/endpoint|keys/) });
  });
});
