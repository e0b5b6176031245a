// Outgoing mail goes through the job runner: a request that mails (password recovery, a buyer's welcome)
// queues it and answers at once; the job hands it to SMTP, and while the SMTP server refuses for now or cannot
// be reached it tries again, waiting MAIL_RETRY_SECONDS, then twice as long each time (about a day in all),
// so an SMTP outage delays mail without losing the user's action. A permanent refusal (5xx: a mailbox that
// does not exist) is logged and not repeated. At least once: a process killed right after SMTP took the mail
// sends it again.
import type { Mail } from '../mail';
import type { Services } from '../services';
import type { JobKind } from './runner';

export const MAIL_JOB = 'mail-send';
/** Tries after the first: MAIL_RETRY_SECONDS × 2^(n-1) each, about 34 hours in all at the default 15 s. */
const MAX_RETRIES = 13;

type MailJob = Mail & { attempt?: number };

/** Queues a mail for the job runner to send. */
export async function queueMail(services: Pick<Services, 'jobs'>, mail: Mail) {
  await services.jobs.send<MailJob>(MAIL_JOB, { ...mail, attempt: 0 });
}

export const mailJob: JobKind<MailJob> = {
  name: MAIL_JOB,
  retryLimit: 0,
  expireInSeconds: 120,
  run: async ({ attempt = 0, ...mail }, services) => {
    try {
      await services.mail.send(mail);
    } catch (err) {
      const code = (err as { responseCode?: unknown }).responseCode;
      const permanent = typeof code === 'number' && code >= 500 && code < 600;
      if (permanent || attempt >= MAX_RETRIES) {
        services.log.error({ err, to: mail.to, attempt }, 'mail not sent: given up');
        return;
      }
      const wait = services.config.MAIL_RETRY_SECONDS * 1000 * 2 ** attempt;
      services.log.warn({ err, to: mail.to, attempt, waitMs: wait }, 'mail not sent: tried again later');
      await services.jobs.send<MailJob>(
        MAIL_JOB,
        { ...mail, attempt: attempt + 1 },
        { startAfter: new Date(Date.now() + wait) },
      );
    }
  },
};
