// Prints the incoming webhooks' figures on the real server (issue 20): the public endpoint under load
// (autocannon on loopback, each request a different order for a different phone): the accepted (202) requests
// per second and the answer's p50/p99 latency; then the time from the POST (and from its 202) to the message on
// the simulated phone (the 'webhook-event' job starting the webhook's flow), p50/p99. PGlite by default; PostgreSQL with
// DATABASE_URL. Run: npm run bench:webhooks (LOAD=2000 EVENTS=100 to change the counts).
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { eq } from 'drizzle-orm';
import { io, type Socket } from 'socket.io-client';
import { webhookEvents } from '@/server/db/schema';
import type { SimulatorEvent } from '@/shared/contract/events';
import { newId } from '@/shared/ids';
import { connectedSimulatorChip } from '../server/channel-helpers';
import { insertFlow } from '../server/flow-helpers';
import { startTestServer } from '../server/helpers';

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))] as number;
};
const ms = (n: number) => `${n.toFixed(1)} ms`;
const phoneOf = (i: number) => `5511${String(900000000 + i)}`;

async function main() {
  // The rate limit is per webhook: lifted here, the figure is the endpoint's own.
  const t = await startTestServer({ LOG_LEVEL: 'error', WEBHOOK_RATE_PER_MINUTE: '1000000' });
  try {
    const seed = await t.reset();
    const owner = await t.login('dono@demo.com');
    const { chip, simulatorToken } = await connectedSimulatorChip(t, owner, {
      department: seed.departments.support,
    });
    // One message, no typing pause: the figure is the path's, not a flow's timing.
    const flowId = await insertFlow(
      t.server.services,
      seed.accountId,
      [
        { id: 'start', type: 'start' },
        {
          id: 'ok',
          type: 'message',
          data: { kind: 'text', text: 'Pedido {pedido} confirmado', typing_seconds: 0 },
        },
      ],
      [['start', 'ok']],
    );
    const webhookId = newId();
    await t.call('create-or-update-webhook', { _id: webhookId }, owner);
    await t.call(
      'create-or-update-webhook',
      {
        _id: webhookId,
        status: 'active',
        chip: chip._id,
        flow: flowId,
        data: JSON.stringify({ cliente: { fone: phoneOf(0) }, pedido: 1 }),
        fields: [
          { name: 'telefone', origin: ['cliente.fone'], value: '' },
          { name: 'pedido', origin: ['pedido'], value: '' },
        ],
      },
      owner,
    );
    const url = `${t.url}/api/v1/webhooks/${webhookId}`;
    const db = t.server.services.db;

    // Load: LOAD events (each a new order for a new phone), 20 connections.
    const total = Number(process.env.LOAD ?? 2000);
    let n = 0;
    const started = performance.now();
    const result = await autocannon({
      url,
      connections: 20,
      amount: total,
      requests: [
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          setupRequest: (req) => {
            const i = n++;
            return { ...req, body: JSON.stringify({ cliente: { fone: phoneOf(1000 + i) }, pedido: i }) };
          },
        },
      ],
    });
    const elapsed = performance.now() - started;
    const accepted = result['2xx'];
    if (result.non2xx || result.errors) console.log(`non-2xx ${result.non2xx}, errors ${result.errors}`);
    // The queue the load left is sent before the latency is timed.
    const drainStart = performance.now();
    for (;;) {
      const waiting = await db.$count(webhookEvents, eq(webhookEvents.status, 'queued'));
      if (waiting === 0) break;
      if (performance.now() - drainStart > 600_000) throw new Error(`${waiting} events still queued`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const drained = performance.now() - drainStart;
    const sent = await db.$count(webhookEvents, eq(webhookEvents.status, 'sent'));

    // 200 → phone: EVENTS events, 5 at a time, each to a phone whose simulator page is open.
    const count = Number(process.env.EVENTS ?? 100);
    const phones: Socket[] = [];
    const arrived = new Map<string, number>();
    for (let i = 0; i < count; i++) {
      const phone = phoneOf(500_000 + i);
      const sock = io(t.url, {
        path: '/sock/',
        auth: { simulator: simulatorToken, phone },
        transports: ['websocket'],
      });
      sock.on('simulator', (e: SimulatorEvent) => {
        if (e.type === 'message' && e.message.text.startsWith('Pedido'))
          arrived.set(phone, performance.now());
      });
      phones.push(sock);
    }
    await Promise.all(phones.map((s) => new Promise<void>((r) => s.once('connect', () => r()))));
    const answers: number[] = [];
    const toPhone: number[] = [];
    const postToPhone: number[] = [];
    for (let i = 0; i < count; i += 5) {
      await Promise.all(
        Array.from({ length: Math.min(5, count - i) }, async (_, k) => {
          const phone = phoneOf(500_000 + i + k);
          const start = performance.now();
          const res = await fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ cliente: { fone: phone }, pedido: i + k }),
          });
          const answeredAt = performance.now();
          if (res.status !== 202) throw new Error(`answer ${res.status}: ${await res.text()}`);
          answers.push(answeredAt - start);
          // The message may reach the phone before the 202 reaches the caller (the job is woken at commit):
          // then the 202 → phone time is negative, and the POST → phone time is the end-to-end figure.
          while (!arrived.has(phone)) {
            if (performance.now() - answeredAt > 30_000) throw new Error(`no message for ${phone}`);
            await new Promise((r) => setTimeout(r, 1));
          }
          toPhone.push((arrived.get(phone) as number) - answeredAt);
          postToPhone.push((arrived.get(phone) as number) - start);
        }),
      );
    }
    for (const s of phones) s.close();

    console.log(`Database: ${t.server.database.kind}`);
    console.log(
      `Webhook endpoint under load: ${total} events, 20 connections: ${Math.round((accepted * 1000) / elapsed)} accepted/s (${accepted} answered 202), latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`,
    );
    console.log(
      `  the load's queue sent in ${(drained / 1000).toFixed(1)} s after the last answer (${sent} sent)`,
    );
    console.log(
      `202 → message on the simulated phone (${count} events, 5 at a time): p50 ${ms(pct(toPhone, 50))}, p99 ${ms(pct(toPhone, 99))}; the 202 itself p50 ${ms(pct(answers, 50))}, p99 ${ms(pct(answers, 99))}; POST → message p50 ${ms(pct(postToPhone, 50))}, p99 ${ms(pct(postToPhone, 99))}`,
    );
  } finally {
    await t.close();
  }
}

await main();
process.exit(0);
