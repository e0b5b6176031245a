// `npm start` builds the app with the server's environment: NODE_ENV=development (the README's default) must
// still give the production app, with its service worker registered, or the PWA silently stops working offline.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';

let outDir = '';
afterAll(() => (outDir ? rm(outDir, { recursive: true, force: true }) : undefined));

it('a build under NODE_ENV=development is the production app with its service worker', async () => {
  outDir = await mkdtemp(path.join(tmpdir(), 'painel-build-'));
  const run = spawnSync(
    process.execPath,
    ['node_modules/vite/bin/vite.js', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'],
    { env: { ...process.env, NODE_ENV: 'development' }, encoding: 'utf8' },
  );
  expect(run.status, run.stderr).toBe(0);
  expect(existsSync(path.join(outDir, 'sw.js'))).toBe(true);
  const js = readdirSync(path.join(outDir, 'assets')).filter((f) => f.endsWith('.js'));
  // The registration (src/app/main.tsx: import.meta.env.PROD) is kept: its chunk is built.
  expect(js.some((f) => /^pwa-.+\.js$/.test(f))).toBe(true);
  // React's production build: no development JSX runtime anywhere.
  const devBuilt = js.filter((f) => readFileSync(path.join(outDir, 'assets', f), 'utf8').includes('jsxDEV'));
  expect(devBuilt).toEqual([]);
}, 120_000);
