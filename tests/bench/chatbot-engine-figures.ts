// Prints the AI chatbot engine's figures on the real server (simulator channel, fake provider answering in
// 300 ms): 200 conversations talking to one chatbot at once (response delay 2 s, typing 0 s so that the
// provider's time is the only wait besides the delay). Round 1: every customer writes one message; round 2:
// every customer writes three quick messages (the debounce: one answer each). Our side's overhead is the time
// from the customer's message the reply answers (stored by the pipeline; for a burst, its last) to the
// chatbot's reply stored and handed to the channel, minus the response delay and the provider's 300 ms; the
// pipeline's own time (the simulator-send call) is printed apart; and the provider calls per customer message.
// PGlite by default; PostgreSQL with DATABASE_URL.
// Run: npm run bench:chatbots
import { cpus, loadavg } from 'node:os';
import { and, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { chips, messages } from '@/server/db/schema';
import { startFakeOpenAi } from '../fakes/openai';
import { connectedSimulatorChip } from '../server/channel-helpers';
import { validDraft } from '../server/chatbot-helpers';
import { startTestServer, type TestServer } from '../server/helpers';

const TOTAL = Number(process.env.CHATBOTS_BENCH_TOTAL ?? 200);
const DELAY_S = 2;
const PROVIDER_MS = 300;
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))] as number;
};

async function main() {
  const fake = await startFakeOpenAi();
  fake.delayMs = PROVIDER_MS;
  let round = 1;
  fake.reply = () => `Resposta ${round}`;
  const t: TestServer = await startTestServer({
    LOG_LEVEL: 'error',
    AI_BASE_URL: fake.url,
    AI_API_KEY: fake.key,
    AI_MODEL: 'modelo-bench',
    CHATBOT_TYPING_SECONDS: '0',
  });
  try {
    const seed = await t.reset();
    const owner = await t.login('dono@demo.com');
    const chatbot = await t.call('create-or-update-chatbot', validDraft({ response_delay: DELAY_S }), owner);
    const { chip, simulatorToken } = await connectedSimulatorChip(t, owner, {
      department: seed.departments.support,
    });
    await t.server.services.db
      .update(chips)
      .set({ redirect: 'ai_chatbot', chatbotId: chatbot._id })
      .where(eq(chips.id, chip._id));
    const db = t.server.services.db;
    const phones = Array.from({ length: TOTAL }, (_, i) => `5511977${String(1000000 + i).slice(1)}`);
    let seq = 0;
    const say = async (phone: string, text: string) => {
      const id = `k${(seq++).toString(36).padStart(8, '0')}`;
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
    // Each reply with the customer message it answers (its message_id is ai-<conversation>-<that message>).
    const input = alias(messages, 'input');
    const replies = (text: string) =>
      db
        .select({ created: messages.createdAt, inputAt: input.createdAt })
        .from(messages)
        .innerJoin(
          input,
          sql`${input.id} = substr(${messages.messageId}, length(${messages.conversationId}) + 5)`,
        )
        .where(
          and(eq(messages.chipId, chip._id), eq(messages.origin, 'chatbot'), eq(messages.message, text)),
        );
    const customerMessages = async () => {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(messages)
        .where(and(eq(messages.chipId, chip._id), eq(messages.origin, 'customer')));
      return row?.n ?? 0;
    };

    console.log(
      `machine: ${cpus().length} cores, load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}; database: ${t.databaseUrl ? 'PostgreSQL' : 'PGlite'}`,
    );
    const runRound = async (n: number, burst: string[]) => {
      round = n;
      const ingest: number[] = [];
      const callsBefore = fake.chatCalls().length;
      const messagesBefore = await customerMessages();
      const started = Date.now();
      await Promise.all(
        phones.map(async (p) => {
          for (const text of burst) {
            const at = Date.now();
            await say(p, text);
            ingest.push(Date.now() - at);
          }
        }),
      );
      const sentIn = Date.now() - started;
      const deadline = Date.now() + 5 * 60_000;
      let rows = await replies(`Resposta ${n}`);
      const customers = async () => {
        const [row] = await db
          .select({ n: sql<number>`count(distinct ${messages.conversationId})::int` })
          .from(messages)
          .where(and(eq(messages.chipId, chip._id), eq(messages.message, `Resposta ${n}`)));
        return row?.n ?? 0;
      };
      while ((await customers()) < TOTAL) {
        if (Date.now() > deadline) throw new Error(`only ${rows.length}/${TOTAL} answers in round ${n}`);
        await new Promise((r) => setTimeout(r, 200));
        rows = await replies(`Resposta ${n}`);
      }
      // Late extra answers (a burst split by the debounce) would show up here.
      await new Promise((r) => setTimeout(r, (DELAY_S + 1) * 1000));
      rows = await replies(`Resposta ${n}`);
      const done = Date.now() - started;
      const overhead = rows.map(
        (r) => r.created.getTime() - r.inputAt.getTime() - DELAY_S * 1000 - PROVIDER_MS,
      );
      // The runner's side: how late each answer job started after it was due, and how long it ran.
      const jobs = (await db.execute(
        sql`select extract(epoch from (started_on - greatest(start_after, created_on))) * 1000 as late, extract(epoch from (completed_on - started_on)) * 1000 as ran from pgboss.job where name = 'chatbot-reply' and state = 'completed' and created_on >= ${new Date(started).toISOString()}::timestamptz`,
      )) as unknown as { rows: { late: string; ran: string }[] };
      const late = jobs.rows.map((r) => Math.round(Number(r.late)));
      const ran = jobs.rows.map((r) => Math.round(Number(r.ran)));
      const calls = fake.chatCalls().length - callsBefore;
      const inputs = (await customerMessages()) - messagesBefore;
      console.log(
        `round ${n}: ${TOTAL} customers × ${burst.length} message(s) (sent in ${(sentIn / 1000).toFixed(1)} s; one simulator-send call p50 ${pct(ingest, 50)} ms, p99 ${pct(ingest, 99)} ms), ${rows.length} answers, ${calls} provider calls for ${inputs} customer messages = ${(calls / inputs).toFixed(2)} calls per message; all answered in ${(done / 1000).toFixed(1)} s`,
      );
      console.log(
        `  overhead (customer message stored → reply stored, minus ${DELAY_S} s delay and ${PROVIDER_MS} ms provider): p50 ${pct(overhead, 50)} ms, p99 ${pct(overhead, 99)} ms, max ${Math.max(...overhead)} ms`,
      );
      console.log(
        `  answer jobs: ${jobs.rows.length}; started after due p50 ${pct(late, 50)} ms, p99 ${pct(late, 99)} ms; ran (provider included) p50 ${pct(ran, 50)} ms, p99 ${pct(ran, 99)} ms`,
      );
      return { calls, inputs };
    };
    const r1 = await runRound(1, ['Oi, tudo bem?']);
    const r2 = await runRound(2, ['Quero comprar', 'uma camiseta', 'tamanho G']);
    const [sent] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(messages)
      .where(
        and(eq(messages.chipId, chip._id), eq(messages.origin, 'chatbot'), sql`${messages.status} >= 1`),
      );
    console.log(
      `overall: ${r1.calls + r2.calls} provider calls for ${r1.inputs + r2.inputs} customer messages (${((r1.calls + r2.calls) / (r1.inputs + r2.inputs)).toFixed(2)} per message); ${sent?.n ?? 0} answers handed to the channel`,
    );
  } finally {
    await t.close();
    await fake.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
