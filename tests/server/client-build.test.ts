// `npm start` builds the app with the server's environment: NODE_ENV=development (the README's default) must
// still give the production app, with its service worker registered, or the PWA silently stops working offline.
// The suite's one build (tests/build.mjs) is made under NODE_ENV=development: when dist/ holds it for today's
// sources, it is the build checked; otherwise (a server run alone) this test builds one of its own.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { BUILD_NODE_ENV, DIST, freshStamp } from '../build.mjs';

let outDir = '';
afterAll(() => (outDir ? rm(outDir, { recursive: true, force: true }) : undefined));

async function buildUnderDevelopment() {
  if (freshStamp()?.nodeEnv === 'development') return DIST;
  outDir = await mkdtemp(path.join(tmpdir(), 'painel-build-'));
  const run = spawnSync(
    process.execPath,
    ['node_modules/vite/bin/vite.js', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'],
    { env: { ...process.env, NODE_ENV: 'development' }, encoding: 'utf8' },
  );
  expect(run.status, run.stderr).toBe(0);
  return outDir;
}

it('a build under NODE_ENV=development is the production app with its service worker', async () => {
  expect(BUILD_NODE_ENV).toBe('development');
  const dir = await buildUnderDevelopment();
  expect(existsSync(path.join(dir, 'sw.js'))).toBe(true);
  const js = readdirSync(path.join(dir, 'assets')).filter((f) => f.endsWith('.js'));
  // The registration (src/app/main.tsx: import.meta.env.PROD) is kept: its chunk is built.
  expect(js.some((f) => /^pwa-.+\.js$/.test(f))).toBe(true);
  // React's production build: no development JSX runtime anywhere.
  const devBuilt = js.filter((f) => readFileSync(path.join(dir, 'assets', f), 'utf8').includes('jsxDEV'));
  expect(devBuilt).toEqual([]);
}, 120_000);
