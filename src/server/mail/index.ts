// Outgoing mail. With SMTP_URL, nodemailer sends it; without, the message is written as an .eml file to
// DATA_DIR/mail/ and its path logged, so recovery works on a machine with no mail server.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import { newId } from '../../shared/ids';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}
export interface Mailer {
  send(mail: Mail): Promise<void>;
}

export function createMailer(opts: {
  smtpUrl?: string;
  from: string;
  dataDir: string;
  log: FastifyBaseLogger;
}): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from: opts.from, ...mail });
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const dir = path.join(opts.dataDir, 'mail');
  return {
    async send(mail) {
      const info = await transport.sendMail({ from: opts.from, ...mail });
      await mkdir(dir, { recursive: true });
      const file = path.join(
        dir,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${newId().slice(0, 8)}.eml`,
      );
      await writeFile(file, info.message as Buffer);
      opts.log.info({ to: mail.to, file }, `mail written to ${file} (no SMTP_URL)`);
    },
  };
}
