// Prints the financial dashboard's answer time (issue 22): get-financial-dashboard-data over the real server
// (HTTP, auth, access rule, the grouped queries, the arithmetic) with a ledger of EVENTS Guru events (100,000 by
// default) spread over 400 days, and SUBSCRIPTIONS Guru subscriptions; p50 and p99 of RUNS calls after a warm-up.
// Target: p99 ≤ 300 ms on PostgreSQL. PostgreSQL with DATABASE_URL (a fresh database is made next to it);
// PGlite otherwise. Run: DATABASE_URL=postgres://postgres:postgres@127.0.0.1:5432/postgres npm run bench:financial
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { accounts, billingEvents, billingSubscriptions } from '@/server/db/schema';
import { rebuildBillingDays } from '@/server/domains/billing/financial';
import { newId } from '@/shared/ids';
import { startTestServer } from '../server/helpers';

const EVENTS = Number(process.env.EVENTS ?? 100_000);
const SUBSCRIPTIONS = Number(process.env.SUBSCRIPTIONS ?? 5_000);
const RUNS = Number(process.env.RUNS ?? 200);
const DAY = 86_400_000;
const BATCH = 2_000;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))] as number;
};
const ms = (n: number) => `${n.toFixed(1)} ms`;

// A fixed sequence, so two runs measure the same ledger.
let seed = 42;
const rand = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};

async function main() {
  const t = await startTestServer({ LOG_LEVEL: 'error' });
  try {
    await t.reset();
    const db = t.server.services.db;
    const now = Date.now();
    const started = performance.now();

    const accountIds: string[] = [];
    for (let i = 0; i < SUBSCRIPTIONS; i += BATCH) {
      const rows = Array.from({ length: Math.min(BATCH, SUBSCRIPTIONS - i) }, (_, k) => ({
        id: newId(),
        name: `Cliente ${i + k}`,
      }));
      await db.insert(accounts).values(rows);
      accountIds.push(...rows.map((r) => r.id));
      await db.insert(billingSubscriptions).values(
        rows.map((r, k) => {
          const start = now - rand() * 400 * DAY;
          const canceled = rand() < 0.2 ? start + rand() * (now - start) : null;
          const status = canceled ? 'canceled' : rand() < 0.1 ? 'pastdue' : 'active';
          return {
            guruSubscriptionId: `sub-${i + k}`,
            accountId: r.id,
            status,
            startedAt: new Date(start),
            canceledAt: canceled ? new Date(canceled) : null,
          };
        }),
      );
    }
    for (let i = 0; i < EVENTS; i += BATCH) {
      const rows = Array.from({ length: Math.min(BATCH, EVENTS - i) }, (_, k) => {
        const r = rand();
        const kind =
          r < 0.7 ? 'sale' : r < 0.8 ? 'refund' : r < 0.85 ? 'cancel' : r < 0.95 ? 'status' : 'ignored';
        const cycle = kind === 'sale' ? (rand() < 0.2 ? 1 : 2 + Math.floor(rand() * 11)) : null;
        const sub = Math.floor(rand() * SUBSCRIPTIONS);
        return {
          id: newId(),
          eventKey: `bench:${i + k}`,
          webhookType: kind === 'sale' || kind === 'refund' ? 'transaction' : 'subscription',
          status:
            kind === 'sale'
              ? 'approved'
              : kind === 'refund'
                ? 'refunded'
                : kind === 'cancel'
                  ? 'canceled'
                  : 'active',
          kind,
          saleType: cycle === null ? null : cycle === 1 ? 'new' : 'old',
          cycle,
          amountCents: kind === 'sale' || kind === 'refund' ? 4_990 + Math.floor(rand() * 50_000) : 0,
          guruSubscriptionId: `sub-${sub}`,
          accountId: accountIds[sub] ?? null,
          payload: { bench: true },
          occurredAt: new Date(now - rand() * 400 * DAY),
        };
      });
      await db.insert(billingEvents).values(rows);
    }
    // Seeded straight into the ledger: its day totals are computed once, as the webhook keeps them.
    await rebuildBillingDays(db);
    // What autovacuum would have done on a live database.
    await db.execute(sql`analyze billing_events`);
    await db.execute(sql`analyze billing_subscriptions`);
    await db.execute(sql`analyze billing_days`);
    const seeded = performance.now() - started;

    const token = await t.login('admin@demo.com');
    const call = async () => {
      const t0 = performance.now();
      const res = await t.post('get-financial-dashboard-data', {}, token);
      if (res.body.error) throw new Error(String(res.body.message));
      return performance.now() - t0;
    };
    for (let i = 0; i < 10; i++) await call();
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) times.push(await call());

    const database = t.databaseUrl ? 'PostgreSQL' : 'PGlite';
    console.log(
      `Financial dashboard (${database}): ${EVENTS.toLocaleString('en')} ledger events, ${SUBSCRIPTIONS.toLocaleString('en')} subscriptions (seeded in ${(seeded / 1000).toFixed(1)} s)`,
    );
    console.log(`get-financial-dashboard-data, ${RUNS} calls one after another over HTTP:`);
    console.log(
      `  p50 ${ms(pct(times, 50))}   p99 ${ms(pct(times, 99))}   max ${ms(Math.max(...times))}   target p99 ≤ 300 ms: ${pct(times, 99) <= 300 ? 'OK' : 'OVER'}`,
    );
  } finally {
    await t.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
