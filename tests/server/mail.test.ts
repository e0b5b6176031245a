// Issue 35 item 2, mail: the SMTP server refusing for a while (421, as one restarting does). A password
// recovery asked meanwhile answers as always; its mail waits in the job runner and goes once when SMTP takes
// mail again, and its link still sets the password. A permanent refusal is not repeated.
import { afterAll, expect, it } from 'vitest';
import { startFakeSmtp } from '../fakes/smtp';
import { until } from './channel-helpers';
import { testServerPerFile } from './helpers';

const smtp = await startFakeSmtp();
const s = testServerPerFile({ SMTP_URL: smtp.url, MAIL_RETRY_SECONDS: '1' });
afterAll(() => smtp.close());

const linkIn = (raw: string) =>
  /\/redefinir-senha\?token=([\w-]+)/.exec(raw.replace(/=\r?\n/g, '').replace(/=3D/g, '='))?.[1];

it('SMTP refusing for a while: the recovery answers as always, its mail goes once when SMTP is back, and the link works', async () => {
  smtp.down = true;
  const before = smtp.mails.length;
  expect(await s.t.call('send-password-recovery', { email: 'gerente@demo.com' })).toEqual({ ok: true });
  // Refused, then refused again later (1 s, then 2 s…): the mail waits, nothing is lost.
  await until(() => smtp.refused >= 2, 15_000);
  expect(smtp.mails.length).toBe(before);
  smtp.down = false;
  const mail = await until(
    () => smtp.mails.slice(before).find((m) => m.to.includes('gerente@demo.com')),
    20_000,
  );
  await new Promise((r) => setTimeout(r, 1500));
  expect(smtp.mails.slice(before)).toHaveLength(1);
  const token = linkIn(mail.data);
  expect(token).toBeTruthy();
  expect(await s.t.call('reset-password', { token, password: 'segredo9' })).toEqual({ ok: true });
  expect(await s.t.login('gerente@demo.com', 'segredo9')).toBeTruthy();
  console.log(`mail: SMTP refused ${smtp.refused} sessions; the mail went once when it was back`);
}, 60_000);
