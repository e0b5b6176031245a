// A small SMTP server at the boundary (RFC 5321's plain dialogue, no TLS, no auth): it keeps each mail it
// takes, and while `down` is set it refuses every new session with 421 (service not available), as a mail
// server being restarted or overloaded does.
import { createServer, type Socket } from 'node:net';

export interface FakeSmtp {
  /** SMTP_URL for the server under test. */
  url: string;
  /** What it took: the envelope's recipients and the raw message. */
  mails: { to: string[]; data: string }[];
  /** Sessions refused while down. */
  refused: number;
  down: boolean;
  close(): Promise<void>;
}

export async function startFakeSmtp(): Promise<FakeSmtp> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    if (fake.down) {
      fake.refused++;
      socket.end('421 4.3.2 Service not available, try again later\r\n');
      return;
    }
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 fake-smtp ESMTP');
    let buffer = '';
    let to: string[] = [];
    let data: string[] | null = null;
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (let i = buffer.indexOf('\r\n'); i >= 0; i = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        if (data) {
          if (line === '.') {
            fake.mails.push({ to, data: data.join('\r\n') });
            data = null;
            to = [];
            reply('250 2.0.0 queued');
          } else data.push(line.startsWith('..') ? line.slice(1) : line);
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') reply('250 fake-smtp');
        else if (verb === 'MAIL') reply('250 2.1.0 ok');
        else if (verb === 'RCPT') {
          to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
          reply('250 2.1.5 ok');
        } else if (verb === 'DATA') {
          data = [];
          reply('354 go ahead');
        } else if (verb === 'QUIT') {
          reply('221 bye');
          socket.end();
        } else if (verb === 'RSET' || verb === 'NOOP') reply('250 ok');
        else reply('502 5.5.2 not implemented');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const fake: FakeSmtp = {
    url: `smtp://127.0.0.1:${port}`,
    mails: [],
    refused: 0,
    down: false,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}
