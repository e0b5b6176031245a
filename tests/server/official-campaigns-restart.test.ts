// Exactly once through crashes, on the official API: 2,000 people sent by the real server process at the
// number's throughput (set to 200 a second for this number, which the fake Graph API enforces; the bench
// runs the default 80), killed with SIGKILL mid-send and restarted. Sends cut off by a kill are found again by their status webhooks' callback data (the
// fake retries them until the restarted server takes them); every person gets exactly one template message,
// counted as the sends the fake took per `to`.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startFakeGraph } from '../fakes/graph-api';
import { dropDatabase, freshPostgres } from './helpers';
import { officialCrashRun } from './official-campaign-crash';

const dirs: string[] = [];
const databases: string[] = [];
const graph = await startFakeGraph();
afterAll(async () => {
  await graph.close();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
  for (const url of databases) await dropDatabase(url);
});

it('an official campaign of 2,000 people killed (SIGKILL) mid-send reaches every person exactly once', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'painel-official-crash-'));
  dirs.push(dir);
  let databaseUrl: string | undefined;
  if (process.env.DATABASE_URL) {
    databaseUrl = await freshPostgres(process.env.DATABASE_URL);
    databases.push(databaseUrl);
  }
  const kills: string[] = [];
  const result = await officialCrashRun({
    dataDir: dir,
    databaseUrl,
    graph,
    people: 2000,
    kills: 1,
    throughput: 200,
    log: (line) => kills.push(line),
  });
  expect(kills).toHaveLength(1);
  expect(result.problems).toEqual([]);
  expect(result).toMatchObject({ people: 2000, sent: 2000, doubles: 0, skips: 0, status: 'finished' });
  expect(graph.sent).toHaveLength(2000);
}, 900_000);
