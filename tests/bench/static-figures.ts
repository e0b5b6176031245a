// Prints the CPU the server spends sending the built app's files: the app's own static routes
// (src/server/http/static.ts: a route per file of dist/, listed at the start) against @fastify/static's wildcard
// route on the same dist/, which reads the folder on every request to check the path's spelling. Each round
// asks every JS and CSS file of dist/assets (br), as a browser opening the app does; 3 runs, medians and range.
// Run: npm run bench:static (builds dist/ first when it is not today's sources')
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';
import { registerStatic } from '@/server/http/static';
import { createLocalMediaStore } from '@/server/media';
import { DIST, ensureBuilt } from '../build.mjs';

const ROUNDS = 10;

async function cpuOf(register: (app: ReturnType<typeof Fastify>) => Promise<void>, files: string[]) {
  const app = Fastify();
  await register(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const get = (file: string) =>
    fetch(`http://127.0.0.1:${port}/assets/${file}`, { headers: { 'accept-encoding': 'br, gzip' } }).then(
      async (r) => {
        if (r.status !== 200) throw new Error(`${file}: ${r.status}`);
        await r.arrayBuffer();
      },
    );
  await Promise.all(files.map(get)); // warm-up: JIT, file handles
  // Client and server share this process: the client's part is the same on both sides of the comparison.
  const start = process.cpuUsage();
  for (let round = 0; round < ROUNDS; round++) await Promise.all(files.map(get));
  const used = process.cpuUsage(start);
  await app.close();
  return (used.user + used.system) / 1000;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

async function main() {
  ensureBuilt({ quiet: true });
  const files = (await readdir(path.join(DIST, 'assets'))).filter((f) => /\.(js|css)$/.test(f));
  const dataDir = await mkdtemp(path.join(tmpdir(), 'painel-static-'));
  const media = createLocalMediaStore(dataDir).serving;
  const ours: number[] = [];
  const wildcard: number[] = [];
  try {
    for (let run = 0; run < 3; run++) {
      ours.push(await cpuOf((app) => registerStatic(app, { distDir: DIST, media }), files));
      wildcard.push(
        await cpuOf(
          (app) => app.register(fastifyStatic, { root: DIST, wildcard: true, preCompressed: true }),
          files,
        ),
      );
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  const requests = files.length * ROUNDS;
  const line = (name: string, xs: number[]) =>
    `${name}: ${median(xs).toFixed(0)} ms of CPU for ${requests} requests (range ${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)})`;
  console.log(`${files.length} JS and CSS files in dist/assets; load (1 min) ${loadavg()[0]?.toFixed(1)}`);
  console.log(line("the app's static routes", ours));
  console.log(line("@fastify/static's wildcard route", wildcard));
  console.log(`ratio: ${(median(ours) / median(wildcard)).toFixed(2)}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
