import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accounts, chips } from '@/server/db/schema';
import { newId } from '@/shared/ids';
import { messages } from '@/shared/messages';
import { planAllows, planOfAnswer } from '@/shared/rules/access';
import { statusOf, testServerPerFile } from './helpers';

const s = testServerPerFile();

// Smallest valid PNG (1×1) and a JPEG header: real magic bytes.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0]),
  Buffer.alloc(64),
]);

async function upload(token: string, bytes: Buffer, filename: string, type: string) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), filename);
  const res = await fetch(`${s.t.url}/api/upload-profile-picture`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as { error: boolean; message: unknown } };
}

describe('profile', () => {
  it('updates name and phone, and the user config toggles', async () => {
    const token = await s.t.login('atendente@demo.com');
    const updated = await s.t.call('update-user', { name: 'Ana Souza', phone: '(11) 98765-4321' }, token);
    expect(updated).toMatchObject({ name: 'Ana Souza', phone: '(11) 98765-4321' });
    const cfg = await s.t.call('update-user-config', { user_signature: true }, token);
    expect(cfg.config).toEqual({ disable_notification_sound: false, user_signature: true });
    const cfg2 = await s.t.call('update-user-config', { disable_notification_sound: true }, token);
    expect(cfg2.config).toEqual({ disable_notification_sound: true, user_signature: true });
    expect((await s.t.call('get-user', {}, token)).name).toBe('Ana Souza');
    const bad = await s.t.post('update-user', { name: '   ' }, token);
    expect(bad.body).toEqual({ error: true, message: messages.fieldRequired('name') });
    // A partial phone is refused; an empty one clears it.
    for (const phone of ['(11) 9876', '(11', 'abc']) {
      expect((await s.t.post('update-user', { phone }, token)).body, phone).toEqual({
        error: true,
        message: messages.invalidPhone,
      });
    }
    expect((await s.t.call('update-user', { phone: '' }, token)).phone).toBe('');
  });

  it('stores a PNG or JPEG profile picture under a generated name and serves it', async () => {
    const token = await s.t.login('atendente@demo.com');
    const res = await upload(token, PNG, '../../etc/passwd.png', 'image/png');
    expect(res.body.error).toBe(false);
    const { url } = res.body.message as { url: string };
    expect(url).toMatch(/^\/media\/[0-9a-z]{28}\.png$/);
    const served = await fetch(`${s.t.url}${url}`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
    expect(await readFile(path.join(s.t.dataDir, 'media', url.slice('/media/'.length)))).toEqual(PNG);
    expect((await s.t.call('get-user', {}, token)).profile_picture).toBe(url);

    const jpeg = await upload(token, JPEG, 'foto.jpg', 'image/jpeg');
    expect((jpeg.body.message as { url: string }).url).toMatch(/\.jpg$/);
    // The replaced picture is deleted.
    expect(await statusOf(`${s.t.url}${url}`)).toBe(404);
    await expect(readFile(path.join(s.t.dataDir, 'media', url.slice('/media/'.length)))).rejects.toThrow();
  });

  it('checks the picture by content, not by name, and refuses more than 2 MB', async () => {
    const token = await s.t.login('atendente@demo.com');
    const fake = await upload(token, Buffer.from('<svg onload=alert(1)>'), 'foto.png', 'image/png');
    expect(fake.body).toEqual({ error: true, message: messages.profilePictureType });
    const gif = await upload(
      token,
      Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;'),
      'foto.jpg',
      'image/jpeg',
    );
    expect(gif.body).toEqual({ error: true, message: messages.profilePictureType });
    const big = await upload(
      token,
      Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]),
      'foto.png',
      'image/png',
    );
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ error: true, message: messages.profilePictureSize });
    const none = await s.t.post('upload-profile-picture', {}, token);
    expect(none.body).toEqual({ error: true, message: messages.fileRequired });
    expect((await s.t.call('get-user', {}, token)).profile_picture).toBeNull();
  });
});

describe('accounts', () => {
  it('only a platform admin creates a customer account with its owner', async () => {
    const owner = await s.t.login('dono@demo.com');
    const refused = await s.t.post(
      'create-user',
      { name: 'Nova', email: 'nova@loja.com', password: 'abc123' },
      owner,
    );
    expect(refused.body).toEqual({ error: true, message: messages.insufficientPermissions });

    const admin = await s.t.login('admin@demo.com');
    const created = await s.t.call(
      'create-user',
      { name: 'Nova', email: 'nova@loja.com', password: 'abc123' },
      admin,
    );
    expect(created).toMatchObject({ email: 'nova@loja.com', user_role: 'owner' });
    expect(created.account._id).not.toBe((await s.t.call('get-user', {}, owner)).account._id);
    expect((await s.t.call('get-user', {}, await s.t.login('nova@loja.com', 'abc123'))).name).toBe('Nova');

    const dup = await s.t.post(
      'create-user',
      { name: 'Outra', email: 'NOVA@loja.com', password: 'abc123' },
      admin,
    );
    expect(dup.body).toEqual({ error: true, message: messages.emailInUse });
  });

  it('regenerates the API key for owner and manager, never for an attendant', async () => {
    const owner = await s.t.login('dono@demo.com');
    const before = (await s.t.call('get-user', {}, owner)).account.api_key;
    const { api_key } = await s.t.call('update-api-key', {}, owner);
    expect(api_key).not.toBe(before);
    expect((await s.t.call('get-user', {}, await s.t.login('gerente@demo.com'))).account.api_key).toBe(
      api_key,
    );

    const attendant = await s.t.login('atendente@demo.com');
    expect((await s.t.call('get-user', {}, attendant)).account.api_key).toBeNull();
    const refused = await s.t.post('update-api-key', {}, attendant);
    expect(refused.body).toEqual({ error: true, message: messages.insufficientPermissions });
  });

  it('refuses a new API key on a plan of one channel, the same plan rule the app gates the page with', async () => {
    const { db } = s.t.server.services;
    const owner = await s.t.login('dono@demo.com');
    const before = (await s.t.call('get-user', {}, owner)).account.api_key;
    await db.update(accounts).set({ maxChannels: 1 }).where(eq(accounts.id, s.seed.accountId));
    const single = await s.t.login('dono@demo.com');
    expect(
      planAllows(planOfAnswer((await s.t.call('get-user', {}, single)).account), { plan: 'integrations' }),
    ).toBe(false);
    expect((await s.t.post('update-api-key', {}, single)).body).toEqual({
      error: true,
      message: messages.planNeedsMoreChannels,
    });
    expect((await s.t.call('get-user', {}, single)).account.api_key).toBe(before);

    await db.update(accounts).set({ maxChannels: 2 }).where(eq(accounts.id, s.seed.accountId));
    const { api_key } = await s.t.call('update-api-key', {}, await s.t.login('dono@demo.com'));
    expect(api_key).not.toBe(before);
  });

  it('answers the subscription status', async () => {
    const owner = await s.t.login('dono@demo.com');
    expect(await s.t.call('get-guru-subscription', {}, owner)).toEqual({
      last_status: 'active',
      invoices: [],
    });
  });
});

describe('chips', () => {
  it('lists the account chips; an attendant sees only those of their departments', async () => {
    const { db } = s.t.server.services;
    await db.insert(chips).values([
      {
        id: newId(),
        accountId: s.seed.accountId,
        name: 'Suporte 1',
        status: 'open',
        departmentId: s.seed.departments.support,
      },
      {
        id: newId(),
        accountId: s.seed.accountId,
        name: 'Vendas 1',
        status: 'close',
        departmentId: s.seed.departments.sales,
      },
      {
        id: newId(),
        accountId: s.seed.accountId,
        name: 'Apagado',
        filed: true,
        departmentId: s.seed.departments.support,
      },
    ]);
    const names = async (email: string) =>
      (await s.t.call('get-chip-numbers-by-user', {}, await s.t.login(email))).map((c) => c.name).sort();
    expect(await names('gerente@demo.com')).toEqual(['Suporte 1', 'Vendas 1']);
    expect(await names('atendente@demo.com')).toEqual(['Suporte 1']);
    expect(await names('atendente2@demo.com')).toEqual(['Vendas 1']);
    // Another account's owner sees none of them.
    expect(await names('admin@demo.com')).toEqual([]);
  });
});
