// `npm run test:server:pg`: the server files that run a second time on a real PostgreSQL (CI does), each with
// the reason PostgreSQL may behave otherwise than PGlite, which runs one query at a time in one process. The
// whole server suite runs on PGlite in `npm test`; a file that only checks a call's validation, its access rule
// or a screen's data gets nothing more from a second database. `npm run test:server:pg:all` runs every file on
// PostgreSQL: run it when you change the data layer (the schema, a repository, the job runner, the db module).
//
// DATABASE_URL names the server (a database is made per file and dropped after); default: the local one.
// A file with tests that run only on PostgreSQL (it reads DATABASE_URL) must be listed: the script stops if
// one is not, so a PostgreSQL-only test is never left out.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const ON_POSTGRES = {
  'append-message': 'the append is one statement run as a named prepared statement, only on PostgreSQL',
  'auth-limits': 'sign-in failures counted by concurrent upserts',
  baileys: 'QR sessions leased to one process among several (row leases)',
  'campaigns-restart': 'kills mid-send, and two processes sending one campaign',
  campaigns: 'the campaign engine: claims and paced sends under the job runner',
  changes: "the catch-up's cursor on the database's clock, pages over concurrent commits",
  'chatbot-engine-restart': 'answers and 48 h finishes taken again by a restarted process',
  'chatbot-engine': 'the chatbot engine: debounce, retries and claims under the job runner',
  'cloud-api': 'inbound webhooks deduplicated by unique keys; media downloads retried as jobs',
  concurrency: 'the same rows written at once (lost updates, unique races, plan limits)',
  contacts: 'a 100,000-row import: bulk statements PostgreSQL plans on its own',
  'db-restart':
    'every connection ended under load (a restart, a failover): the pool, LISTEN and the job runner recover',
  dashboard: "the dashboards' aggregate SQL, planned by PostgreSQL",
  'engine-runs-migration': "migration 0030 carrying the engines' live positions, on PostgreSQL's own SQL",
  distribution: 'equal distribution: 300 conversations through two processes, decided under an advisory lock',
  'flow-engine-restart': "a wait across a restart, and two processes running one flow's steps",
  'flow-engine': 'the flow engine: steps claimed under the job runner',
  flows: 'the plan limit of flows under concurrent creations',
  'follow-ups-restart': 'kills while follow-ups are sent',
  'follow-ups': 'the follow-up engine: claims under the job runner',
  health: "/health reads the pool's and the job runner's state",
  jobs: 'pg-boss across two processes: each job once',
  'official-campaigns-engine': "the official campaign engine: batches, the number's pace and retries",
  'official-campaigns-restart': 'a kill mid-send of 2,000 people',
  outbound: "the integrations' sends: the same key sent at once sends once",
  pipeline: 'the inbound pipeline: lookups as prepared statements and events through the adapter',
  'provider-outage':
    'sends waiting for their provider, resumed by the job runner; claims under an advisory lock',
  'public-api': "the public API's rate limit and idempotency keys, counted in the database",
  realtime: 'socket events through the PostgreSQL adapter (LISTEN/NOTIFY)',
  restart: 'sends cut off by a kill, resumed once, also by two processes',
  'scale-out-processes': 'three processes behind a balancer, with kills',
  'scale-out': 'two processes: socket fan-out, online users, logouts and rate limits',
  'scheduled-messages': 'scheduled sends claimed and leased across restarts',
  send: 'the same send retried at once; message ids unique under concurrency',
  'session-sockets': 'a logout closing its sockets through the adapter',
  webhooks: 'webhook events deduplicated and rate-limited in the database',
  'webhooks-official': 'an event retried is sent once (unique keys, under concurrency)',
};

const DIR = path.resolve(import.meta.dirname, 'server');
const files = readdirSync(DIR).filter((f) => f.endsWith('.test.ts'));
const listed = new Set(Object.keys(ON_POSTGRES).map((name) => `${name}.test.ts`));
const unknown = [...listed].filter((f) => !files.includes(f));
const postgresOnly = files.filter(
  (f) => !listed.has(f) && readFileSync(path.join(DIR, f), 'utf8').includes('DATABASE_URL'),
);
if (unknown.length || postgresOnly.length) {
  for (const f of unknown) console.error(`tests/server-on-postgres.mjs lista ${f}, que não existe.`);
  for (const f of postgresOnly)
    console.error(`tests/server/${f} tem testes só para PostgreSQL (DATABASE_URL) e não está na lista.`);
  process.exit(1);
}

const all = process.argv.includes('--all');
const chosen = all ? files : files.filter((f) => listed.has(f));
console.log(
  `Suite do servidor no PostgreSQL: ${chosen.length} de ${files.length} arquivos${all ? ' (todos)' : ''}.`,
);
const run = spawnSync(
  process.execPath,
  [
    path.resolve(import.meta.dirname, '../node_modules/vitest/vitest.mjs'),
    'run',
    '--project',
    'server',
    ...chosen.map((f) => `tests/server/${f}`),
    ...process.argv.slice(2).filter((a) => a !== '--all'),
  ],
  {
    stdio: 'inherit',
    env: {
      ...process.env,
      DATABASE_URL: process.env.DATABASE_URL || 'postgres://postgres:postgres@127.0.0.1:5432/postgres',
    },
  },
);
process.exit(run.status ?? 1);
