import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { loginFailures, passwordResets, sessions } from '@/server/db/schema';
import { authRepo } from '@/server/domains/auth/auth.repo';
import { messages } from '@/shared/messages';
import { until } from './channel-helpers';
import { mailsHandedOn, testServerPerFile } from './helpers';

const s = testServerPerFile({ LOGIN_MAX_FAILURES_PER_EMAIL: '3', LOGIN_MAX_FAILURES_PER_IP: '6' });

describe('auth', () => {
  it('signs in the owner and get-user returns the owner', async () => {
    const res = await s.t.post('auth', { email: 'dono@demo.com', password: 'demo123' });
    expect(res.status).toBe(200);
    expect(res.body.error).toBe(false);
    const { token, user } = res.body.message as { token: string; user: { email: string; user_role: string } };
    expect(token.length).toBeGreaterThanOrEqual(22); // ≥128 bits in base64url
    expect(user).toMatchObject({ email: 'dono@demo.com', user_role: 'owner' });
    const me = await s.t.call('get-user', {}, token);
    expect(me.email).toBe('dono@demo.com');
    expect(me.account.name).toBe('Loja Demo');
  });

  it('accepts the e-mail in any case and with spaces', async () => {
    const token = await s.t.login('  DONO@Demo.com ');
    expect((await s.t.call('get-user', {}, token)).email).toBe('dono@demo.com');
  });

  it('stores the token only hashed', async () => {
    const token = await s.t.login('dono@demo.com');
    const rows = await s.t.server.services.db.select().from(sessions);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.tokenHash).not.toContain(token);
    expect(rows[0]?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('remember chooses a 30-day session, otherwise 12 hours', async () => {
    const long = await s.t.call('auth', { email: 'dono@demo.com', password: 'demo123', remember: true });
    const short = await s.t.call('auth', { email: 'dono@demo.com', password: 'demo123' });
    const hours = (iso: string) => (new Date(iso).getTime() - Date.now()) / 3_600_000;
    expect(hours(long.expires_at)).toBeGreaterThan(30 * 24 - 1);
    expect(hours(long.expires_at)).toBeLessThanOrEqual(30 * 24);
    expect(hours(short.expires_at)).toBeGreaterThan(11.9);
    expect(hours(short.expires_at)).toBeLessThanOrEqual(12);
  });

  it('answers the 401 envelope with logout for a missing, unknown, expired or revoked token', async () => {
    const missing = await s.t.post('get-user', {});
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ error: true, message: messages.unauthorized, logout: true });
    expect((await s.t.post('get-user', {}, 'not-a-token')).status).toBe(401);

    const token = await s.t.login('dono@demo.com');
    await s.t.server.services.db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) });
    expect((await s.t.post('get-user', {}, token)).status).toBe(401);

    const token2 = await s.t.login('dono@demo.com');
    expect((await s.t.post('logout', {}, token2)).body).toEqual({ error: false, message: { ok: true } });
    expect((await s.t.post('get-user', {}, token2)).status).toBe(401);
  });

  it('refuses a wrong password and an unknown e-mail with the same message', async () => {
    const wrong = await s.t.post('auth', { email: 'dono@demo.com', password: 'errada' });
    const unknown = await s.t.post('auth', { email: 'ninguem@demo.com', password: 'errada' });
    expect(wrong.body).toEqual({ error: true, message: messages.invalidCredentials });
    expect(unknown.body).toEqual(wrong.body);
  });

  it('asks for every field with the login message', async () => {
    for (const body of [
      {},
      { email: 'dono@demo.com' },
      { email: '', password: 'x' },
      { email: 'a@b.co', password: '' },
    ]) {
      const res = await s.t.post('auth', body);
      expect(res.body).toEqual({ error: true, message: messages.fillAllFields });
    }
  });

  it('limits failed logins per e-mail with 429, and the right password still waits', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await s.t.post('auth', { email: 'gerente@demo.com', password: 'x' })).status).toBe(200);
    }
    const blocked = await s.t.post('auth', { email: 'gerente@demo.com', password: 'demo123' });
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toMatch(
      /^Muitas tentativas de login sem sucesso\. Tente novamente em 1[45] minutos\.$/,
    );
    // Another e-mail from the same IP is not yet blocked.
    expect((await s.t.post('auth', { email: 'dono@demo.com', password: 'demo123' })).status).toBe(200);
  });

  it('limits failed logins per IP across e-mails', async () => {
    for (let i = 0; i < 6; i++) await s.t.post('auth', { email: `x${i}@demo.com`, password: 'x' });
    const blocked = await s.t.post('auth', { email: 'dono@demo.com', password: 'demo123' });
    expect(blocked.status).toBe(429);
  });

  it('a password change ends the other sessions but keeps this one', async () => {
    const phone = await s.t.login('gerente@demo.com');
    const desktop = await s.t.login('gerente@demo.com');
    const wrongOld = await s.t.post(
      'change-user-password',
      { old_password: 'nope', password: 'nova123' },
      desktop,
    );
    expect(wrongOld.body).toEqual({ error: true, message: messages.wrongOldPassword });
    const short = await s.t.post(
      'change-user-password',
      { old_password: 'demo123', password: '123' },
      desktop,
    );
    expect(short.body).toEqual({ error: true, message: messages.teamPasswordTooShort });

    await s.t.call('change-user-password', { old_password: 'demo123', password: 'nova123' }, desktop);
    expect((await s.t.post('get-user', {}, phone)).status).toBe(401);
    expect((await s.t.post('get-user', {}, desktop)).status).toBe(200);
    await expect(s.t.login('gerente@demo.com')).rejects.toThrow();
    expect(await s.t.login('gerente@demo.com', 'nova123')).toBeTruthy();
  });

  it('admin login opens a session on the customer account, marked as admin', async () => {
    const res = await s.t.call('auth', {
      email: 'admin@demo.com',
      password: 'demo123',
      admin_login: true,
      customer_email: 'dono@demo.com',
    });
    expect(res.user).toMatchObject({ email: 'dono@demo.com', acting_admin: true });
    const me = await s.t.call('get-user', {}, res.token);
    expect(me.acting_admin).toBe(true);
    expect(me.account.name).toBe('Loja Demo');

    const notAdmin = await s.t.post('auth', {
      email: 'gerente@demo.com',
      password: 'demo123',
      admin_login: true,
      customer_email: 'dono@demo.com',
    });
    expect(notAdmin.body).toEqual({ error: true, message: messages.adminInvalidCredentials });
    const noCustomer = await s.t.post('auth', {
      email: 'admin@demo.com',
      password: 'demo123',
      admin_login: true,
      customer_email: 'ninguem@demo.com',
    });
    expect(noCustomer.body).toEqual({ error: true, message: messages.customerNotFound });
  });
});

describe('password recovery', () => {
  /** The mails written so far, once every queued one was handed on. */
  async function mails() {
    await mailsHandedOn(s.t);
    const dir = path.join(s.t.dataDir, 'mail');
    const files = await readdir(dir).catch(() => [] as string[]);
    return Promise.all(files.sort().map((f) => readFile(path.join(dir, f), 'utf8')));
  }
  const linkIn = (mail: string) => {
    const unfolded = mail.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const m = /\/redefinir-senha\?token=([\w-]+)/.exec(unfolded);
    if (!m?.[1]) throw new Error(`no link in mail:\n${mail}`);
    return m[1];
  };

  it('mails a one-time link that sets a new password and ends old sessions', async () => {
    const before = (await mails()).length;
    const old = await s.t.login('atendente@demo.com');
    expect(await s.t.call('send-password-recovery', { email: 'atendente@demo.com' })).toEqual({ ok: true });
    const all = await mails();
    expect(all.length).toBe(before + 1);
    const mail = all.at(-1) as string;
    expect(mail).toContain('To: atendente@demo.com');
    const token = linkIn(mail);

    const tooShort = await s.t.post('reset-password', { token, password: '12345' });
    expect(tooShort.body.error).toBe(true);
    expect(await s.t.call('reset-password', { token, password: 'segredo1' })).toEqual({ ok: true });
    expect((await s.t.post('get-user', {}, old)).status).toBe(401);
    expect(await s.t.login('atendente@demo.com', 'segredo1')).toBeTruthy();
    // One time only.
    const again = await s.t.post('reset-password', { token, password: 'outra123' });
    expect(again.body).toEqual({ error: true, message: messages.resetLinkInvalid });
  });

  it('answers an unknown e-mail exactly like a known one and sends nothing', async () => {
    const before = (await mails()).length;
    const res = await s.t.post('send-password-recovery', { email: 'ninguem@demo.com' });
    expect(res).toEqual({ status: 200, body: { error: false, message: { ok: true } } });
    expect((await mails()).length).toBe(before);
  });

  it('answers a link without its token as a broken link', async () => {
    for (const body of [{ password: 'segredo1' }, { token: '', password: 'segredo1' }]) {
      expect((await s.t.post('reset-password', body)).body).toEqual({
        error: true,
        message: messages.resetLinkInvalid,
      });
    }
  });

  /** Makes every write of `column` on `table` fail (a real fault in the database), until the returned undo. */
  async function failWritesOf(table: 'users' | 'sessions', column: string) {
    const { db } = s.t.server.services;
    await db.execute(
      sql.raw(`create or replace function test_fault() returns trigger language plpgsql as $$
        begin raise exception 'test fault'; end $$`),
    );
    await db.execute(
      sql.raw(`create trigger test_fault before update of ${column} on ${table}
        for each row execute function test_fault()`),
    );
    return async () => {
      await db.execute(sql.raw(`drop trigger test_fault on ${table}`));
      await db.execute(sql.raw('drop function test_fault()'));
    };
  }

  it('a reset that fails to write the password leaves the link usable and the sessions open', async () => {
    const old = await s.t.login('gerente@demo.com');
    await s.t.call('send-password-recovery', { email: 'gerente@demo.com' });
    const token = linkIn((await mails()).at(-1) as string);
    const undo = await failWritesOf('users', 'password_hash');
    const failed = await s.t.post('reset-password', { token, password: 'segredo2' });
    await undo();
    expect(failed.body.error).toBe(true);
    expect((await s.t.post('get-user', {}, old)).status).toBe(200);
    expect(await s.t.login('gerente@demo.com')).toBeTruthy();
    // The same link still works once the fault is gone.
    expect(await s.t.call('reset-password', { token, password: 'segredo2' })).toEqual({ ok: true });
    expect((await s.t.post('get-user', {}, old)).status).toBe(401);
    expect(await s.t.login('gerente@demo.com', 'segredo2')).toBeTruthy();
  });

  it('a password change that fails to end the other sessions keeps the old password', async () => {
    const phone = await s.t.login('dono@demo.com');
    const desktop = await s.t.login('dono@demo.com');
    const undo = await failWritesOf('sessions', 'revoked_at');
    const failed = await s.t.post(
      'change-user-password',
      { old_password: 'demo123', password: 'nova456' },
      desktop,
    );
    await undo();
    expect(failed.body.error).toBe(true);
    expect(await s.t.login('dono@demo.com')).toBeTruthy();
    expect((await s.t.post('get-user', {}, phone)).status).toBe(200);
  });

  it('refuses an expired link', async () => {
    await s.t.call('send-password-recovery', { email: 'gerente@demo.com' });
    const token = linkIn((await mails()).at(-1) as string);
    await s.t.server.services.db.update(passwordResets).set({ expiresAt: new Date(Date.now() - 1) });
    const res = await s.t.post('reset-password', { token, password: 'segredo1' });
    expect(res.body).toEqual({ error: true, message: messages.resetLinkInvalid });
  });
});

describe('housekeeping', () => {
  it('purges sessions and reset links dead for over a day and failure windows that ended, nothing live', async () => {
    const { db } = s.t.server.services;
    // The server's own housekeeping (queued at its start) must not purge these rows first.
    await until(async () => {
      const jobs = await db.execute(
        sql`select count(*)::int as n from pgboss.job where name = 'housekeeping' and state in ('created', 'retry', 'active')`,
      );
      return (jobs as unknown as { rows: { n: number }[] }).rows[0]?.n === 0 ? true : undefined;
    }, 20_000);
    const live = await s.t.login('dono@demo.com');
    const revokedNow = await s.t.login('dono@demo.com');
    await s.t.call('logout', {}, revokedNow);
    // Two sessions of the manager that expired a day and a minute ago.
    const manager = await s.t.call('get-user', {}, await s.t.login('gerente@demo.com'));
    await s.t.login('gerente@demo.com');
    const dayAndAMinute = new Date(Date.now() - 24 * 3_600_000 - 60_000);
    await db.update(sessions).set({ expiresAt: dayAndAMinute }).where(eq(sessions.userId, manager._id));
    await s.t.post('auth', { email: 'dono@demo.com', password: 'errada' });
    await db.update(loginFailures).set({ windowStart: new Date(Date.now() - 16 * 60_000) });
    // A recovery counter keeps its own (hour-long) window: not purged with the login ones.
    await s.t.call('send-password-recovery', { email: 'ninguem@demo.com' });
    await db
      .update(loginFailures)
      .set({ windowStart: new Date(Date.now() - 20 * 60_000) })
      .where(sql`${loginFailures.key} LIKE 'recovery:%'`);

    const removed = await authRepo.purgeExpired(db, 15);
    expect(removed).toEqual({ sessions: 2, passwordResets: 0, loginFailures: 2 });
    expect((await db.select().from(loginFailures)).map((r) => r.key).sort()).toEqual([
      'recovery:email:ninguem@demo.com',
      'recovery:ip:127.0.0.1',
    ]);
    expect((await s.t.post('get-user', {}, live)).status).toBe(200);
    // Revoked a moment ago: kept for a day, still refused.
    expect((await db.select().from(sessions)).length).toBe(2);
    expect((await s.t.post('get-user', {}, revokedNow)).status).toBe(401);
  });
});
