// Prints the concurrency figures on the real server: every scenario of tests/server/concurrency-scenarios.ts
// (concurrent calls on the same rows for the write calls), the calls tried and the updates lost. PGlite by
// default; PostgreSQL, where the calls really run in parallel, with DATABASE_URL.
// Run: npm run bench:concurrency   (ROUNDS=3 repeats every scenario)
import { runScenarios } from '../server/concurrency-scenarios';
import { startTestServer } from '../server/helpers';

async function main() {
  const t = await startTestServer({ LOG_LEVEL: 'fatal' });
  const rounds = Number(process.env.ROUNDS ?? 1);
  let tried = 0;
  let lost = 0;
  try {
    for (let round = 1; round <= rounds; round++) {
      const figures = await runScenarios(t);
      for (const [name, o] of Object.entries(figures.results)) {
        const note = o.detail.length ? `  ← ${o.detail.join('; ')}` : '';
        console.log(`${name.padEnd(62)} calls ${String(o.tried).padStart(3)}, lost ${o.lost}${note}`);
      }
      tried += figures.tried;
      lost += figures.lost;
    }
    console.log(`Database: ${t.server.database.kind}`);
    console.log(`calls tried: ${tried}, lost updates: ${lost}`);
  } finally {
    await t.close();
  }
}

await main();
process.exit(0);
