// Prints the flow engine's figures on the real server (simulator channel): 1,000 conversations at once, each
// running a 10-node flow (start, 6 messages, 2 questions, end with a goodbye: 12 steps and 9 sends per
// conversation, 2 replies by the customer). Steps per second while all run, and the latency from a customer's
// reply (the simulator-send call) to the flow's next message (stored and handed to the channel), p50/p99.
// PGlite by default; PostgreSQL with DATABASE_URL.
// Run: npm run bench:flows
import { cpus, loadavg } from 'node:os';
import { and, eq, sql } from 'drizzle-orm';
import { chips, contacts, conversations, flowRuns, messages } from '@/server/db/schema';
import { connectedSimulatorChip } from '../server/channel-helpers';
import { insertFlow } from '../server/flow-helpers';
import { startTestServer, type TestServer } from '../server/helpers';

const TOTAL = Number(process.env.FLOWS_BENCH_TOTAL ?? 1000);
const PARALLEL = 50;
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))] as number;
};

async function inBatches<T>(items: T[], run: (item: T, i: number) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      for (let i = next++; i < items.length; i = next++) await run(items[i] as T, i);
    }),
  );
}

async function main() {
  const t: TestServer = await startTestServer({ LOG_LEVEL: 'error' });
  try {
    const seed = await t.reset();
    const owner = await t.login('dono@demo.com');
    const { chip, simulatorToken } = await connectedSimulatorChip(t, owner, {
      department: seed.departments.support,
    });
    const msg = (id: string, text: string) => ({
      id,
      type: 'message' as const,
      data: { kind: 'text', text },
    });
    const flowId = await insertFlow(
      t.server.services,
      seed.accountId,
      [
        { id: 'start', type: 'start' },
        msg('m1', 'Olá {nome:first}!'),
        msg('m2', 'Bem-vindo à Loja Demo.'),
        {
          id: 'q1',
          type: 'question',
          data: { text: 'Qual o seu nome completo?', variable: 'nome_completo' },
        },
        msg('m3', 'Obrigado, {nome_completo}.'),
        msg('m4', 'Mais uma pergunta.'),
        { id: 'q2', type: 'question', data: { text: 'Qual a sua cidade?', variable: 'cidade' } },
        msg('m5', 'Anotado: {cidade}.'),
        msg('m6', 'Um atendente falará com você.'),
        { id: 'end', type: 'end', data: { text: 'Até logo!' } },
      ],
      [
        ['start', 'm1'],
        ['m1', 'm2'],
        ['m2', 'q1'],
        ['q1', 'm3'],
        ['m3', 'm4'],
        ['m4', 'q2'],
        ['q2', 'm5'],
        ['m5', 'm6'],
        ['m6', 'end'],
      ],
    );
    await t.server.services.db
      .update(chips)
      .set({ redirect: 'flow_chatbot', flowId })
      .where(eq(chips.id, chip._id));
    const db = t.server.services.db;
    const phones = Array.from({ length: TOTAL }, (_, i) => `5511988${String(1000000 + i).slice(1)}`);
    let seq = 0;
    // A retried send is one message (the page's id): a keep-alive socket the server closed is tried again.
    const say = async (phone: string, text: string) => {
      const id = `b${(seq++).toString(36).padStart(8, '0')}`;
      for (let attempt = 0; ; attempt++) {
        try {
          return await t.call('simulator-send', {
            token: simulatorToken,
            phone,
            name: `Cliente ${phone.slice(-4)}`,
            id,
            type: 'text',
            text,
          });
        } catch (err) {
          if (attempt >= 3) throw err;
        }
      }
    };
    // How many conversations wait at `node` (or have finished, for null).
    const at = async (node: string | null) => {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(conversations)
        .leftJoin(flowRuns, eq(flowRuns.conversationId, conversations.id))
        .where(
          and(
            eq(conversations.chipId, chip._id),
            node
              ? sql`${flowRuns.position}->>'node' = ${node} and ${flowRuns.position}->>'waiting' = 'reply'`
              : sql`${conversations.finishedAt} is not null`,
          ),
        );
      return row?.n ?? 0;
    };
    const waitAll = async (node: string | null, limitMs = 15 * 60_000) => {
      const deadline = Date.now() + limitMs;
      while ((await at(node)) < TOTAL) {
        if (Date.now() > deadline)
          throw new Error(`only ${await at(node)}/${TOTAL} reached ${node ?? 'the end'}`);
        await new Promise((r) => setTimeout(r, 250));
      }
      return Date.now();
    };
    const steps = async () => {
      const [row] = await db
        .select({ n: sql<number>`coalesce(sum((${flowRuns.position}->>'step')::int), 0)::int` })
        .from(conversations)
        .innerJoin(flowRuns, eq(flowRuns.conversationId, conversations.id))
        .where(eq(conversations.chipId, chip._id));
      return row?.n ?? 0;
    };

    // 1. Every customer writes at once: each conversation opens and its flow runs to the first question.
    const t0 = Date.now();
    await inBatches(phones, (p) => say(p, 'Oi'));
    const t1 = await waitAll('q1');
    const s1 = await steps();
    console.log(
      `machine: ${cpus().length} cores, load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}; database: ${t.databaseUrl ? 'PostgreSQL' : 'PGlite'}`,
    );
    console.log(
      `phase 1 (all write at once, flows run to the first question): ${s1} steps in ${((t1 - t0) / 1000).toFixed(1)} s = ${Math.round(s1 / ((t1 - t0) / 1000))} steps/s`,
    );
    // 2 and 3. Every customer answers; each reply is timed to the flow's next message.
    const sentAt = new Map<string, number>();
    const answer = async (text: (i: number) => string) => {
      const started = Date.now();
      await inBatches(phones, async (p, i) => {
        sentAt.set(p, Date.now());
        await say(p, text(i));
      });
      return started;
    };
    const latencies: number[] = [];
    const measure = async (firstText: string) => {
      const rows = await db
        .select({ phone: contacts.phone, created: messages.createdAt })
        .from(messages)
        .innerJoin(conversations, eq(conversations.id, messages.conversationId))
        .innerJoin(contacts, eq(contacts.id, conversations.contactId))
        .where(
          and(eq(messages.chipId, chip._id), eq(messages.origin, 'chatbot'), eq(messages.message, firstText)),
        );
      for (const r of rows) {
        const s = sentAt.get(r.phone);
        if (s !== undefined) latencies.push(r.created.getTime() - s);
      }
    };
    const t2start = await answer((i) => `Cliente Número ${i}`);
    const t2 = await waitAll('q2');
    // m3's text carries the answer: the next message is found by its prefix.
    const rows2 = await db
      .select({ phone: contacts.phone, created: messages.createdAt })
      .from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .innerJoin(contacts, eq(contacts.id, conversations.contactId))
      .where(and(eq(messages.chipId, chip._id), sql`${messages.message} like 'Obrigado, %'`));
    for (const r of rows2) {
      const s = sentAt.get(r.phone);
      if (s !== undefined) latencies.push(r.created.getTime() - s);
    }
    const s2 = await steps();
    console.log(
      `phase 2 (all answer): ${s2 - s1} steps in ${((t2 - t2start) / 1000).toFixed(1)} s; reply → next message so far: p50 ${pct(latencies, 50)} ms, p99 ${pct(latencies, 99)} ms`,
    );
    const t3start = await answer(() => 'Campinas');
    const t3 = await waitAll(null);
    await measure('Anotado: Campinas.');
    const s3 = await steps();
    const [sent] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(messages)
      .where(and(eq(messages.chipId, chip._id), eq(messages.origin, 'chatbot'), eq(messages.status, 1)));

    const busy = t1 - t0 + (t2 - t2start) + (t3 - t3start);
    console.log(
      `${TOTAL} conversations, a 10-node flow each: ${s3} steps, ${sent?.n ?? 0} messages sent, every conversation finished`,
    );
    console.log(`phase 3 (all answer again): ${s3 - s2} steps in ${((t3 - t3start) / 1000).toFixed(1)} s`);
    console.log(`overall: ${Math.round(s3 / (busy / 1000))} steps/s while the flows ran`);
    console.log(
      `customer's reply → the flow's next message (${latencies.length} replies, ${TOTAL} customers answering at once): p50 ${pct(latencies, 50)} ms, p99 ${pct(latencies, 99)} ms, max ${Math.max(...latencies)} ms`,
    );
  } finally {
    await t.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
