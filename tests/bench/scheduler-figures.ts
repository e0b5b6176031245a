// Prints the scheduled-messages job's lateness on the real server (simulator channel): 1,000 messages due in
// the same minute, created through create-scheduled-message, each timed from its scheduledTo until the
// simulated customer's phone has it (p50, p99, max). PGlite by default; PostgreSQL with DATABASE_URL.
// Run: npm run bench:scheduler
import { cpus, loadavg } from 'node:os';
import { eq } from 'drizzle-orm';
import { io, type Socket } from 'socket.io-client';
import { scheduledMessages } from '@/server/db/schema';
import type { SimulatorEvent } from '@/shared/contract/events';
import { connectedSimulatorChip } from '../server/channel-helpers';
import { startTestServer } from '../server/helpers';

const TOTAL = 1000;
const CUSTOMERS = 100;
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))] as number;
};

async function main() {
  const t = await startTestServer({ LOG_LEVEL: 'error' });
  const sockets: Socket[] = [];
  try {
    const seed = await t.reset();
    const owner = await t.login('dono@demo.com');
    const { chip, simulatorToken } = await connectedSimulatorChip(t, owner, {
      department: seed.departments.support,
    });
    const phoneOf = (i: number) => `11987${String(100000 + (i % CUSTOMERS)).slice(1)}`;

    // The customers' phones: when each message arrives.
    const arrived = new Map<string, number>();
    for (let c = 0; c < CUSTOMERS; c++) {
      const sock = io(t.url, {
        path: '/sock/',
        auth: { simulator: simulatorToken, phone: `55${phoneOf(c)}` },
        transports: ['websocket'],
      });
      sock.on('simulator', (e: SimulatorEvent) => {
        if (e.type === 'message') arrived.set(e.message.text, Date.now());
      });
      sockets.push(sock);
    }
    await Promise.all(
      sockets.map((s) => new Promise<void>((r) => (s.connected ? r() : s.once('connect', () => r())))),
    );

    // Due in one minute that starts 70 s or more from now (room to create them all), spread over that minute.
    const minute = Math.ceil((Date.now() + 70_000) / 60_000) * 60_000;
    const due = new Map<string, number>();
    const started = Date.now();
    for (let i = 0; i < TOTAL; i += 25) {
      await Promise.all(
        Array.from({ length: Math.min(25, TOTAL - i) }, (_, k) => {
          const n = i + k;
          const at = minute + Math.floor(Math.random() * 60_000);
          const text = `Lembrete ${n}`;
          due.set(text, at);
          return t.call(
            'create-scheduled-message',
            {
              chip: chip._id,
              country_code: '55',
              to: phoneOf(n),
              message: text,
              scheduledTo: new Date(at).toISOString(),
            },
            owner,
          );
        }),
      );
    }
    const created = Date.now();
    if (created >= minute) throw new Error('creating took longer than the lead time; raise it');

    // Wait for them all (the minute, and then some).
    const deadline = minute + 60_000 + 120_000;
    // Every row settled too (a phone socket dropped under load misses its messages; the row does not).
    const read = () =>
      t.server.services.db
        .select({
          status: scheduledMessages.status,
          scheduledTo: scheduledMessages.scheduledTo,
          sentAt: scheduledMessages.sentAt,
        })
        .from(scheduledMessages)
        .where(eq(scheduledMessages.chipId, chip._id));
    const settle = deadline;
    let rows = await read();
    while (rows.some((r) => r.status === 'scheduled' || r.status === 'sending') && Date.now() < settle) {
      await new Promise((r) => setTimeout(r, 500));
      rows = await read();
    }
    await new Promise((r) => setTimeout(r, 1000));
    const lateness = [...due].flatMap(([text, at]) => {
      const got = arrived.get(text);
      return got === undefined ? [] : [got - at];
    });
    const recorded = rows.flatMap((r) => (r.sentAt ? [r.sentAt.getTime() - r.scheduledTo.getTime()] : []));
    const byStatus = rows.reduce<Record<string, number>>((acc, r) => {
      acc[r.status] = (acc[r.status] ?? 0) + 1;
      return acc;
    }, {});

    console.log(
      `machine: ${cpus().length} cores, load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    console.log(`database: ${t.databaseUrl ? 'PostgreSQL' : 'PGlite'}`);
    console.log(`created ${TOTAL} scheduled messages in ${((created - started) / 1000).toFixed(1)} s`);
    console.log(
      `arrived at the customers' phones: ${lateness.length}/${TOTAL}; statuses ${JSON.stringify(byStatus)}`,
    );
    console.log(
      `lateness (sent, recorded once the provider accepted it − scheduledTo), ${recorded.length} of ${TOTAL} due in the same minute: p50 ${pct(recorded, 50)} ms, p99 ${pct(recorded, 99)} ms, max ${Math.max(...recorded)} ms`,
    );
    if (lateness.length)
      console.log(
        `lateness (arrival at the customer's phone − scheduledTo), ${lateness.length} seen: p50 ${pct(lateness, 50)} ms, p99 ${pct(lateness, 99)} ms, max ${Math.max(...lateness)} ms`,
      );
  } finally {
    for (const s of sockets) s.close();
    await t.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
