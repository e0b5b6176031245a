// Prints the message pipeline's figures on the real server (simulator channel, over HTTP and socket.io):
// inbound messages per second (customer message → contact, conversation, message, auto-tags, socket event
// to the team), the time from a customer's send until the team's socket has it, and the send latency
// (send-conversation-message → the simulated phone has it). PGlite by default; PostgreSQL with DATABASE_URL.
// Run: npm run bench:pipeline
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { io } from 'socket.io-client';
import type { SimulatorEvent } from '@/shared/contract/events';
import { connectedSimulatorChip } from '../server/channel-helpers';
import { startTestServer } from '../server/helpers';
import { listen } from './team-socket';

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))] as number;
};
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function main() {
  const t = await startTestServer({ LOG_LEVEL: 'error' });
  try {
    const seed = await t.reset();
    const owner = await t.login('dono@demo.com');
    await t.call(
      'create-or-update-tag',
      { name: 'Orçamento', color: '#FF0000', auto_tag: true, keywords: ['orcamento', 'preço'] },
      owner,
    );
    const { simulatorToken } = await connectedSimulatorChip(t, owner, {
      department: seed.departments.support,
    });

    // The team: a manager's socket sees every event.
    const team = io(t.url, {
      path: '/sock/',
      auth: { token: await t.login('gerente@demo.com') },
      transports: ['websocket'],
    });
    await new Promise<void>((r) => team.once('connect', () => r()));
    const { arrivals } = listen(team);

    // Inbound: 3000 customer messages (INBOUND) from 200 customers, 20 connections (autocannon: the load generator's
    // own cost stays out of the figure), each timed until the team's socket has it.
    const customers = 200;
    const total = Number(process.env.INBOUND ?? 3000);
    const sentAt = new Map<string, number>();
    let n = 0;
    const started = performance.now();
    const result = await autocannon({
      url: `${t.url}/api/simulator-send`,
      connections: 20,
      amount: total,
      requests: [
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          setupRequest: (req) => {
            const i = n++;
            const text = `msg ${i} quero um orçamento`;
            sentAt.set(text, performance.now());
            return {
              ...req,
              body: JSON.stringify({
                token: simulatorToken,
                phone: `55119${String(10000000 + (i % customers))}`,
                name: 'Cliente',
                id: `bench-in-${i}-xxxx`,
                type: 'text',
                text,
              }),
            };
          },
        },
      ],
    });
    if (result.non2xx || result.errors) throw new Error(`inbound errors: ${result.non2xx} ${result.errors}`);
    await new Promise((r) => setTimeout(r, 300));
    // From the first request to the last message the team's socket got: autocannon's own clock ends its runs
    // on whole seconds.
    const inboundPerSecond = Math.round((total * 1000) / (Math.max(...arrivals.values()) - started));
    const toTeam = [...sentAt]
      .map(([text, at]) => (arrivals.get(text) ?? Number.NaN) - at)
      .filter(Number.isFinite);

    // Outbound: 200 sends, one at a time, each timed until the simulated phone shows it.
    const phoneNumber = '5511910000000';
    const phone = io(t.url, {
      path: '/sock/',
      auth: { simulator: simulatorToken, phone: phoneNumber },
      transports: ['websocket'],
    });
    await new Promise<void>((r) => phone.once('connect', () => r()));
    const onPhone = new Map<string, number>();
    phone.on('simulator', (e: SimulatorEvent) => {
      if (e.type === 'message') onPhone.set(e.message.text, performance.now());
    });
    const conversations = await t.server.services.db.query.conversations.findMany();
    const contacts = await t.server.services.db.query.contacts.findMany();
    const contact = contacts.find((c) => c.phone === phoneNumber);
    const conversation = conversations.find((c) => c.contactId === contact?.id);
    if (!conversation) throw new Error('no conversation for the bench phone');
    const sendTimes: number[] = [];
    const deliverTimes: number[] = [];
    for (let i = 0; i < 200; i++) {
      const text = `resposta ${i}`;
      const start = performance.now();
      await t.call(
        'send-conversation-message',
        { conversation_id: conversation.id, message_id: `bench-send-${i}-xx`, text },
        owner,
      );
      sendTimes.push(performance.now() - start);
      while (!onPhone.has(text)) await new Promise((r) => setTimeout(r, 1));
      deliverTimes.push((onPhone.get(text) as number) - start);
    }

    // The same message_id 10 times at once, 20 rounds: time until all ten answers are in.
    const idem: number[] = [];
    for (let i = 0; i < 20; i++) {
      const body = { conversation_id: conversation.id, message_id: `bench-idem-${i}-xx`, text: `idem ${i}` };
      const start = performance.now();
      await Promise.all(Array.from({ length: 10 }, () => t.call('send-conversation-message', body, owner)));
      idem.push(performance.now() - start);
    }

    const db = t.server.database.kind;
    console.log(`Database: ${db}`);
    console.log(
      `Inbound: ${total} customer messages from ${customers} customers: ${inboundPerSecond.toFixed(0)} messages/s (20 connections), HTTP p50 ${result.latency.p50} ms, p97.5 ${result.latency.p97_5} ms`,
    );
    console.log(
      `Customer send → team socket event: p50 ${ms(pct(toTeam, 50))}, p95 ${ms(pct(toTeam, 95))} (${toTeam.length} events)`,
    );
    console.log(
      `send-conversation-message answer: p50 ${ms(pct(sendTimes, 50))}, p95 ${ms(pct(sendTimes, 95))}`,
    );
    console.log(
      `send → on the simulated phone:   p50 ${ms(pct(deliverTimes, 50))}, p95 ${ms(pct(deliverTimes, 95))}`,
    );
    console.log(
      `Same message_id ×10 at once (all answered): p50 ${ms(pct(idem, 50))}, p95 ${ms(pct(idem, 95))}`,
    );
    team.close();
    phone.close();
  } finally {
    await t.close();
  }
}

await main();
process.exit(0);
