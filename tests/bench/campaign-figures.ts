// Prints the campaigns' figures (issue 18): 10,000 people over 5 chips (5 campaigns of 2,000, one per
// simulator chip), sent by the real server process, killed with SIGKILL and restarted 3 times meanwhile.
// Prints the doubles and skips (people with more or fewer than one stored message: both must be 0), the
// total time, sends per second, and the pacing: each send's deviation from its planned time (p50, p99,
// max) and the shortest gap between two sends of one campaign (never below the interval).
// The interval is the shortest choice (20 s) shortened by CAMPAIGN_INTERVAL_SCALE (tests and bench only).
// PGlite by default; PostgreSQL with DATABASE_URL. Run: npm run bench:campaigns
// Options by environment: CAMPAIGNS (5), PEOPLE (2000), KILLS (3), SCALE (0.01: 20 s → 200 ms).
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { crashRun } from '../server/campaign-crash';
import { dropDatabase, freshPostgres } from '../server/helpers';

const CAMPAIGNS = Number(process.env.CAMPAIGNS ?? 5);
const PEOPLE = Number(process.env.PEOPLE ?? 2000);
const KILLS = Number(process.env.KILLS ?? 3);
const SCALE = Number(process.env.SCALE ?? 0.01);
const INTERVAL = 20;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))] ?? Number.NaN;
};

async function main() {
  const dir = await mkdtemp(path.join(tmpdir(), 'painel-bench-campaigns-'));
  const databaseUrl = process.env.DATABASE_URL ? await freshPostgres(process.env.DATABASE_URL) : undefined;
  try {
    const intervalMs = INTERVAL * 1000 * SCALE;
    console.log(
      `machine: ${cpus().length} cores, load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}; database: ${databaseUrl ? 'PostgreSQL' : 'PGlite'}`,
    );
    console.log(
      `${CAMPAIGNS} campaigns × ${PEOPLE} people on ${CAMPAIGNS} simulator chips, interval ${INTERVAL} s × ${SCALE} = ${intervalMs} ms, ${KILLS} kills (SIGKILL)`,
    );
    const r = await crashRun({
      dataDir: dir,
      databaseUrl,
      campaigns: CAMPAIGNS,
      people: PEOPLE,
      kills: KILLS,
      interval: INTERVAL,
      scale: SCALE,
      log: (line) => console.log(`  ${line}`),
      timeoutMs: 60 * 60_000,
    });
    const seconds = r.elapsedMs / 1000;
    const d = r.deviationsMs;
    console.log(`campaigns ended: ${r.statuses.join(', ')}`);
    console.log(`people: ${r.people}, sent: ${r.sent}, doubles: ${r.doubles}, skips: ${r.skips}`);
    console.log(
      `total time: ${seconds.toFixed(1)} s (the ideal, one interval per person: ${((PEOPLE * intervalMs) / 1000).toFixed(1)} s), ${(r.sent / seconds).toFixed(1)} sends/s`,
    );
    console.log(
      `pacing, deviation of each send from its planned time: p50 ${pct(d, 50)} ms, p99 ${pct(d, 99)} ms, max ${Math.max(...d)} ms (the kills' downtime included)`,
    );
    console.log(
      `shortest gap between two sends of one campaign: ${r.minGapMs} ms (interval ${intervalMs} ms)`,
    );
    if (r.problems.length) console.log('problems:', r.problems.slice(0, 20));
  } finally {
    if (databaseUrl) await dropDatabase(databaseUrl);
    await rm(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
