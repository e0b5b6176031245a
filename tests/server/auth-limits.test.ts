// The sign-in and recovery limits under concurrent bursts, with the default limits. Each attempt reserves
// its place in the counters before the password hash (or the mail), so a burst cannot slip past the limit
// while the others are still hashing. Run on PostgreSQL too (DATABASE_URL), where the requests truly overlap.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '@/server/seed/demo';
import { mailsHandedOn, testServerPerFile } from './helpers';

const s = testServerPerFile();

const burst = (n: number, body: (i: number) => unknown, call = 'auth') =>
  Promise.all(Array.from({ length: n }, (_, i) => s.t.post(call, body(i))));

describe('login limits under a concurrent burst', () => {
  it('checks at most 5 of 100 concurrent guesses for one e-mail; the right password among them gets no token', async () => {
    const right = 50;
    const answers = await burst(100, (i) => ({
      email: 'gerente@demo.com',
      password: i === right ? DEMO_PASSWORD : `errada${i}`,
    }));
    const checked = answers.filter((a) => a.status !== 429);
    expect(checked.length).toBeGreaterThan(0);
    expect(checked.length).toBeLessThanOrEqual(5);
    expect(answers[right]?.status).toBe(429);
    expect(answers.some((a) => !a.body.error)).toBe(false);
    // The window holds afterwards too, even for the right password.
    expect((await s.t.post('auth', { email: 'gerente@demo.com', password: DEMO_PASSWORD })).status).toBe(429);
    // Another e-mail from the same IP is not blocked by the refused attempts.
    expect((await s.t.post('auth', { email: 'dono@demo.com', password: DEMO_PASSWORD })).status).toBe(200);
  });

  it('checks at most 20 of 100 concurrent guesses from one IP across e-mails', async () => {
    const answers = await burst(100, (i) => ({ email: `x${i}@demo.com`, password: 'errada' }));
    const checked = answers.filter((a) => a.status !== 429);
    expect(checked.length).toBeLessThanOrEqual(20);
    expect(checked.length).toBeGreaterThan(0);
  });

  it('a success forgives the e-mail and does not count against the IP', async () => {
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 4; i++) await s.t.post('auth', { email: 'gerente@demo.com', password: 'errada' });
      expect((await s.t.post('auth', { email: 'gerente@demo.com', password: DEMO_PASSWORD })).status).toBe(
        200,
      );
    }
    // 12 failures and 3 successes from this IP: 8 more failures are still allowed (20), the 9th is refused.
    for (let i = 0; i < 8; i++) {
      expect((await s.t.post('auth', { email: `y${i}@demo.com`, password: 'errada' })).status).toBe(200);
    }
    expect((await s.t.post('auth', { email: 'dono@demo.com', password: DEMO_PASSWORD })).status).toBe(429);
  });
});

describe('password recovery limits', () => {
  const mailCount = async () => {
    await mailsHandedOn(s.t);
    return (await readdir(path.join(s.t.dataDir, 'mail')).catch(() => [])).length;
  };

  it('30 concurrent requests for one e-mail send at most 3 mails, each answered like any other', async () => {
    const before = await mailCount();
    const answers = await burst(30, () => ({ email: 'atendente@demo.com' }), 'send-password-recovery');
    for (const a of answers)
      expect(a).toEqual({ status: 200, body: { error: false, message: { ok: true } } });
    const sent = (await mailCount()) - before;
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThanOrEqual(3);
  });

  it('one IP may ask at most 10 times an hour, for any e-mails, answered the same', async () => {
    const unknown = await burst(10, (i) => ({ email: `ninguem${i}@demo.com` }), 'send-password-recovery');
    for (const a of unknown) expect(a.body).toEqual({ error: false, message: { ok: true } });
    const before = await mailCount();
    const res = await s.t.post('send-password-recovery', { email: 'dono@demo.com' });
    expect(res).toEqual({ status: 200, body: { error: false, message: { ok: true } } });
    expect(await mailCount()).toBe(before);
  });
});
