// Prints equal distribution's figures (issue 34 item 1): 300 conversations arriving at once in a distributing
// department with 3 attendants online, through two servers on PostgreSQL (one on PGlite): how long each waited
// for its holder (assigned_at − created_at: p50, p99, max) and the shares.
// Run: npx tsx tests/bench/distribution-figures.ts   (DATABASE_URL=postgres://… for PostgreSQL; BURST=300)
import { eq } from 'drizzle-orm';
import { conversations } from '@/server/db/schema';
import { connected, connectedSimulatorChip, until } from '../server/channel-helpers';
import { startTestServer, type TestServer } from '../server/helpers';

const BURST = Number(process.env.BURST ?? 300);
const IN_FLIGHT = 25;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))] ?? Number.NaN;
};

async function main() {
  const a = await startTestServer({ LOG_LEVEL: 'fatal' });
  const b: TestServer = a.databaseUrl
    ? await startTestServer({ DATABASE_URL: a.databaseUrl, LOG_LEVEL: 'fatal' })
    : a;
  try {
    const seed = await a.reset();
    const support = seed.departments.support;
    const owner = await a.login('dono@demo.com');
    await a.call(
      'create-or-update-department',
      { _id: support, name: 'Suporte', description: null, distribute: true },
      owner,
    );
    const { simulatorToken } = await connectedSimulatorChip(a, owner, { department: support });
    const tokens = [await a.login('atendente@demo.com')];
    for (const n of [1, 2]) {
      const email = `bench${n}@demo.com`;
      await a.call(
        'create-team-user',
        {
          name: `Atendente ${n}`,
          email,
          user_role: 'user',
          password: '123456',
          departments: [support],
          access_areas: ['contacts'],
        },
        owner,
      );
      tokens.push(await a.login(email, '123456'));
    }
    await Promise.all(tokens.map((t, i) => connected((i % 2 ? b : a).socket(t))));

    const started = performance.now();
    const phones = Array.from({ length: BURST }, (_, i) => `55118${String(i).padStart(8, '0')}`);
    for (let i = 0; i < phones.length; i += IN_FLIGHT)
      await Promise.all(
        phones.slice(i, i + IN_FLIGHT).map((phone, j) =>
          ((i + j) % 2 ? b : a).call('simulator-send', {
            token: simulatorToken,
            phone,
            name: 'Cliente',
            id: `bench${i + j}xxxxxxxxxxxx`,
            type: 'text',
            text: 'Oi',
          }),
        ),
      );
    const arrived = performance.now() - started;
    const rows = await until(async () => {
      const all = await a.server.services.db
        .select({
          user: conversations.assignedUserId,
          at: conversations.assignedAt,
          created: conversations.createdAt,
        })
        .from(conversations)
        .where(eq(conversations.departmentId, support));
      return all.length === BURST && all.every((r) => r.at) ? all : undefined;
    }, 120_000);
    const waits = rows.map((r) => (r.at as Date).getTime() - r.created.getTime());
    const shares = new Map<string, number>();
    for (const r of rows) shares.set(r.user as string, (shares.get(r.user as string) ?? 0) + 1);
    console.log(`Database: ${a.server.database.kind}${b === a ? ' (one server)' : ' (two servers)'}`);
    console.log(`${BURST} conversations sent in ${arrived.toFixed(0)} ms (${IN_FLIGHT} in flight)`);
    console.log(
      `assignment time (assigned_at − created_at): p50 ${pct(waits, 50)} ms, p99 ${pct(waits, 99)} ms, max ${Math.max(...waits)} ms`,
    );
    console.log(`shares: ${[...shares.values()].sort((x, y) => x - y).join(' / ')}`);
  } finally {
    if (b !== a) await b.close({ keepDatabase: true });
    await a.close();
  }
}

await main();
process.exit(0);
