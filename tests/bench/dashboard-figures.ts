// Prints the dashboards' figures on the real server and PostgreSQL (issue 21): one account with 100,000
// conversations and 1,000,000 messages over the last year (seeded in SQL, generate_series), then
// get-dashboard-data for 7 days, 1 year and a custom range, and get-admin-dashboard-data for 30 days (p50/p99
// over CALLS calls each, over HTTP as the app calls them); and the real-time cards after a new message: a
// simulator customer writes, the dashboard socket hears load_realtime, asks get-dashboard-real-time-data, and
// the time from the customer's send to that answer is taken (p50/p99). DATABASE_URL is required.
// Run: DATABASE_URL=postgres://… npm run bench:dashboard (CALLS=50 CONVERSATIONS=100000 MESSAGES=1000000;
// KEEP_DB=1 keeps the database and prints its URL, for EXPLAIN ANALYZE by hand).
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { dashboardRoom, type ReceiveMessage } from '@/shared/contract/events';
import { connected, connectedSimulatorChip } from '../server/channel-helpers';
import { startTestServer } from '../server/helpers';

if (!process.env.DATABASE_URL) {
  console.error('DATABASE_URL is required (the figures are PostgreSQL’s).');
  process.exit(1);
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))] as number;
};
const ms = (n: number) => `${n.toFixed(1)} ms`;
const figures = (xs: number[]) => `p50 ${ms(pct(xs, 50))}, p99 ${ms(pct(xs, 99))}`;
const sleep = (n: number) => new Promise((r) => setTimeout(r, n));
const localDay = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(d);

async function main() {
  const t = await startTestServer({ LOG_LEVEL: 'error' });
  const keep = process.env.KEEP_DB === '1';
  try {
    const seed = await t.reset();
    const db = t.server.services.db;
    const owner = await t.login('dono@demo.com');
    const admin = await t.login('admin@demo.com');
    const { chip, simulatorToken } = await connectedSimulatorChip(t, owner, {
      department: seed.departments.support,
      redirect: 'human',
    });
    const conversationCount = Number(process.env.CONVERSATIONS ?? 100_000);
    const messageCount = Number(process.env.MESSAGES ?? 1_000_000);
    const perConversation = Math.max(1, Math.round(messageCount / conversationCount));
    const contactCount = Math.round(conversationCount / 2);
    const a = seed.accountId;
    const { support, sales } = seed.departments;

    const seedStart = performance.now();
    await db.transaction(async (tx) => {
      // Three more chips, five tags, half as many contacts as conversations (tags on a third of them).
      await tx.execute(sql`
        insert into chips (id, account_id, name, status)
        select 'BCHIP' || lpad(i::text, 23, '0'), ${a}, 'Chip ' || i, case when i = 1 then 'open' else 'close' end
        from generate_series(1, 3) i`);
      await tx.execute(sql`
        insert into tags (id, account_id, name, color)
        select 'BTAG' || lpad(i::text, 24, '0'), ${a}, 'Etiqueta ' || i, '#00ff00'
        from generate_series(1, 5) i`);
      await tx.execute(sql`
        insert into contacts (id, account_id, name, phone, tags)
        select 'BCT' || lpad(i::text, 25, '0'), ${a}, 'Cliente ' || i, (5511900000000 + i)::text,
               case when i % 3 = 0 then jsonb_build_array('BTAG' || lpad((i % 5 + 1)::text, 24, '0'))
                    when i % 7 = 0 then jsonb_build_array('BTAG' || lpad((i % 5 + 1)::text, 24, '0'),
                                                          'BTAG' || lpad(((i + 1) % 5 + 1)::text, 24, '0'))
                    else '[]'::jsonb end
        from generate_series(1, ${contactCount}) i`);
      // Conversations spread over the last 365 days (by id order, oldest first, as they would be inserted);
      // 30 % handed to a person; 1 in 500 of the latest half still open.
      await tx.execute(sql`
        insert into conversations (id, account_id, chip_id, contact_id, department_id, is_manual, chatbot_type,
                                   waiting_response, finished_at, created_at, updated_at)
        select 'BCV' || lpad(i::text, 25, '0'), ${a},
               case i % 4 when 0 then ${chip._id} else 'BCHIP' || lpad((i % 4)::text, 23, '0') end,
               'BCT' || lpad((i % ${contactCount} + 1)::text, 25, '0'),
               case i % 3 when 0 then ${support} when 1 then ${sales} else null end,
               i % 10 < 3, case when i % 2 = 0 then 'chatbot' else 'flow_chatbot' end,
               i % 1000 = 0 and i > ${conversationCount - contactCount},
               case when i % 500 = 0 and i > ${conversationCount - contactCount} then null
                    else at + interval '20 minutes' end,
               at, at
        from (select i, now() - interval '365 days' + (i::float / ${conversationCount}) * interval '365 days' as at
              from generate_series(1, ${conversationCount}) i) s`);
      // Messages: `perConversation` per conversation, a minute apart, customer / chatbot / user in turn.
      await tx.execute(sql`
        insert into messages (id, account_id, conversation_id, chip_id, origin, type, message, status,
                              created_at, updated_at)
        select 'BMSG' || lpad((c.n * ${perConversation} + k)::text, 24, '0'), ${a}, c.id, c.chip_id,
               case k % 3 when 0 then 'customer' when 1 then 'chatbot' else 'user' end, 'text', 'Olá', 3,
               c.created_at + k * interval '1 minute', c.created_at + k * interval '1 minute'
        from (select id, chip_id, created_at, row_number() over (order by created_at) as n
              from conversations where id like 'BCV%') c
        cross join generate_series(0, ${perConversation - 1}) k`);
    });
    const seeded = performance.now() - seedStart;
    // Autovacuum would do this in the life of a database; a fresh bulk load gets it by hand.
    await db.execute(sql`vacuum analyze conversations`);
    await db.execute(sql`vacuum analyze messages`);
    await db.execute(sql`vacuum analyze contacts`);
    const counts = (await db.execute(
      sql`select (select count(*) from conversations)::int as c, (select count(*) from messages)::int as m`,
    )) as unknown as { rows: { c: number; m: number }[] };
    console.log(`Database: ${t.server.database.kind}`);
    console.log(
      `Seeded ${counts.rows[0]?.c} conversations and ${counts.rows[0]?.m} messages over a year in ${(seeded / 1000).toFixed(1)} s (+ vacuum analyze)`,
    );

    const calls = Number(process.env.CALLS ?? 50);
    const time = async (call: string, body: unknown, token: string) => {
      const out: number[] = [];
      for (let i = 0; i < 3; i++) await t.call(call as 'get-dashboard-data', body, token); // warm-up
      for (let i = 0; i < calls; i++) {
        const start = performance.now();
        const r = await t.post(call, body, token);
        out.push(performance.now() - start);
        if (r.body.error) throw new Error(`${call}: ${r.body.message}`);
      }
      return out;
    };
    const now = new Date();
    const range = {
      start: localDay(new Date(now.getTime() - 200 * 86_400_000)),
      end: localDay(new Date(now.getTime() - 110 * 86_400_000)),
    };
    const year = await t.call('get-dashboard-data', { interval: 365 }, owner);
    console.log(
      `  one year: ${year.conversation_cards.all} conversations (${year.conversation_cards.manual} human), ${year.departments.length} departments, ${year.tag_distribution.length} tags`,
    );
    const rows: [string, number[]][] = [
      ['get-dashboard-data, 7 days', await time('get-dashboard-data', { interval: 7 }, owner)],
      ['get-dashboard-data, 1 year', await time('get-dashboard-data', { interval: 365 }, owner)],
      [
        `get-dashboard-data, range ${range.start} to ${range.end}`,
        await time('get-dashboard-data', { interval: range }, owner),
      ],
      [
        'get-dashboard-data, 1 year, one chip',
        await time('get-dashboard-data', { interval: 365, selected_chip: chip._id }, owner),
      ],
      ['get-admin-dashboard-data, 30 days', await time('get-admin-dashboard-data', { interval: 30 }, admin)],
      ['get-admin-dashboard-data, 1 year', await time('get-admin-dashboard-data', { interval: 365 }, admin)],
      ['get-dashboard-real-time-data', await time('get-dashboard-real-time-data', {}, owner)],
    ];
    for (const [name, xs] of rows) console.log(`${name} (${calls} calls): ${figures(xs)}`);

    // Live: the dashboard's socket in its room; a customer writes every 300 ms (beyond the 250 ms window, so
    // each hint goes at once); on each load_realtime the dashboard asks for the cards again.
    const dash = t.socket(owner);
    await connected(dash);
    const joined = await new Promise<boolean>((r) => dash.emit('join-room', dashboardRoom(a), r));
    if (!joined) throw new Error('dashboard room refused');
    const hints: { at: number }[] = [];
    let waiter: ((at: number) => void) | null = null;
    dash.on('receive-message', (e: ReceiveMessage) => {
      if (e.type !== 'load_realtime' && e.type !== 'load_open_conversations') return;
      const at = performance.now();
      hints.push({ at });
      waiter?.(at);
      waiter = null;
    });
    let n = 0;
    const say = () =>
      t.call('simulator-send', {
        token: simulatorToken,
        phone: '5511977776666',
        name: 'Bench',
        id: `bench${Date.now().toString(36)}${n++}xxxxxxxx`,
        type: 'text',
        text: 'Oi',
      });
    await say(); // opens the conversation
    await sleep(400);
    const total: number[] = [];
    const toHint: number[] = [];
    const cardsCall: number[] = [];
    for (let i = 0; i < calls; i++) {
      const heard = new Promise<number>((resolve) => {
        waiter = resolve;
      });
      const start = performance.now();
      await say();
      const hintAt = await Promise.race([
        heard,
        sleep(5000).then(() => {
          throw new Error('no load_realtime within 5 s');
        }),
      ]);
      const cards = await t.call('get-dashboard-real-time-data', {}, owner);
      const end = performance.now();
      if (cards.all < 1) throw new Error('the cards missed the open conversation');
      total.push(end - start);
      toHint.push(hintAt - start);
      cardsCall.push(end - hintAt);
      await sleep(300);
    }
    console.log(
      `Real-time cards after a new message (${calls} messages): customer's send → cards answered ${figures(total)} (send → load_realtime ${figures(toHint)}; the cards call ${figures(cardsCall)})`,
    );
    if (keep) console.log(`Database kept: ${t.databaseUrl}`);
  } finally {
    await t.close({ keepDatabase: keep });
  }
}

await main();
process.exit(0);
