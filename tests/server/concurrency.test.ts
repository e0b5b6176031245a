// Races on the same rows for every write call that changes existing rows (concurrency-scenarios.ts). Meant
// for PostgreSQL, where the calls run in parallel (CI runs the server suite again with DATABASE_URL); it
// passes on PGlite too. Prints 'calls tried: N, lost updates: M' at the end.
import { afterAll, describe, expect, it } from 'vitest';
import { type Outcome, scenarios } from './concurrency-scenarios';
import { testServerPerFile } from './helpers';

const s = testServerPerFile();
const totals = { tried: 0, lost: 0 };

describe(`concurrent calls on the same rows (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  for (const [name, run] of Object.entries(scenarios)) {
    it(name, async () => {
      const owner = await s.t.login('dono@demo.com');
      const o: Outcome = await run({ t: s.t, seed: s.seed, owner });
      totals.tried += o.tried;
      totals.lost += o.lost;
      expect(o.detail).toEqual([]);
      expect(o.lost).toBe(0);
    }, 60_000);
  }
});

afterAll(() => {
  console.log(`calls tried: ${totals.tried}, lost updates: ${totals.lost}`);
});
