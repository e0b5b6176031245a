// The client is built once for the whole suite: `node tests/build.mjs` builds dist/ unless it already holds a
// build of the same sources, and every test that needs dist/ (the browser tests, client-build.test.ts,
// `npm run size`) uses it. The build runs under NODE_ENV=development, the server's default (README), so the
// one build is also the case client-build.test.ts checks: still the production app with its service worker.
// A stamp in dist/ names the sources' hash; any other build (`npm run build`, `npm start`) empties dist/ and
// with it the stamp, so the next test run builds again.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
export const DIST = path.join(root, 'dist');
const STAMP = path.join(DIST, '.build-stamp.json');
/** What the client is built from (the app never imports the server). */
const INPUTS = [
  'index.html',
  'vite.config.ts',
  'postcss.config.cjs',
  'package-lock.json',
  'tsconfig.json',
  'src/app',
  'src/shared',
  'sw',
  'public',
];
export const BUILD_NODE_ENV = 'development';

function files(entry) {
  const full = path.join(root, entry);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [entry];
  return readdirSync(full, { withFileTypes: true })
    .filter((d) => !d.name.startsWith('.'))
    .flatMap((d) => files(path.join(entry, d.name)));
}

export function sourcesHash() {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap(files).sort())
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(path.join(root, file)));
  return hash.digest('hex').slice(0, 20);
}

/** The stamp of dist/ when it is a build of today's sources, else undefined. */
export function freshStamp() {
  if (!existsSync(STAMP)) return undefined;
  const stamp = JSON.parse(readFileSync(STAMP, 'utf8'));
  return stamp.sources === sourcesHash() ? stamp : undefined;
}

/** Builds dist/ when it is missing or stale; answers whether it built. */
export function ensureBuilt({ quiet = false } = {}) {
  if (freshStamp()) {
    if (!quiet) console.log('dist/ já é o build destas fontes: nada a construir.');
    return false;
  }
  const sources = sourcesHash();
  const started = Date.now();
  const run = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build'], {
    cwd: root,
    env: { ...process.env, NODE_ENV: BUILD_NODE_ENV },
    stdio: quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit',
  });
  if (run.status !== 0) throw new Error(`vite build falhou (código ${run.status})`);
  writeFileSync(
    STAMP,
    JSON.stringify({ sources, nodeEnv: BUILD_NODE_ENV, builtAt: new Date().toISOString() }),
  );
  console.log(`dist/ construído em ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return true;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    ensureBuilt();
  } catch (err) {
    console.error(String(err instanceof Error ? err.message : err));
    process.exit(1);
  }
}
