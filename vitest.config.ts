import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The server files that take longest (restarts and kills, the registry walks, the engines), started first so
 * that the last minute of a run is not one long file alone on one of the two workers (`npm run test:timings`
 * lists the slowest files when this needs updating).
 */
const LONG_FIRST = [
  'official-campaigns-restart',
  'flow-engine-restart',
  'scale-out-processes',
  'campaigns-restart',
  'cross-account',
  'follow-ups-restart',
  'official-campaigns-engine',
  'bad-input',
  'restart',
  'campaigns',
  'chatbot-engine-restart',
  'chatbot-engine',
  'scheduled-messages',
  'contacts',
].map((name) => `/tests/server/${name}.test.ts`);

class LongFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const rank = (f: TestSpecification) => {
      const i = LONG_FIRST.findIndex((end) => f.moduleId.endsWith(end));
      return i < 0 ? LONG_FIRST.length : i;
    };
    // Array.prototype.sort is stable: the groups (unit, then server) and the rest keep vitest's order.
    return (await super.sort(files)).sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder || rank(a) - rank(b),
    );
  }
}

// Each run leaves its JSON report in .tmp/timings/ for `npm run test:timings` (the slowest files, the counts).
const report = `.tmp/timings/vitest-${process.env.DATABASE_URL ? 'postgres' : 'pglite'}.json`;

export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname, 'src') } },
  test: {
    reporters: ['default', ['json', { outputFile: report }]],
    sequence: { sequencer: LongFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts?(x)'],
          // Pure logic runs in Node; a test that needs a DOM says so in its first line (@vitest-environment).
          environment: 'node',
          setupFiles: ['tests/unit/setup.ts'],
          // Vitest's default is one worker less than the cores: one, on CI's 2 cores.
          maxWorkers: 2,
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Each file starts its own server and database; two at a time fits 2 cores.
          maxWorkers: 2,
          // The files of a worker share one module graph: the server's code is loaded once per worker, not
          // once per file (a third of the suite's time). Each file still has its own server, database and
          // data directory; no server module keeps state across servers but per-server (keyed by db/config).
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
