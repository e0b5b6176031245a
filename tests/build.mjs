// The client is built once for the whole suite: `node tests/build.mjs` builds dist/ unless it already holds a
// build of the same sources, and every test that needs dist/ (the browser tests, client-build.test.ts,
// `npm run size`) uses it. The build runs under NODE_ENV=development, the server's default (README), so the
// one build is also the case client-build.test.ts checks: still the production app with its service worker.
// A stamp in dist/ names the sources' hash; any other build (`npm run build`, `npm start`) empties dist/ and
// with it the stamp, so the next test run builds again.
//
// The server the tests start in processes of their own (the browser tests' servers, the restart and kill tests,
// the benches) is built here too: one ES module bundle of src/server (esbuild, the packages left to node_modules)
// in .tmp/server/, named by its sources' hash. Started through tsx, each process spent about 3.5 s of CPU
// resolving and loading some 400 TypeScript modules through tsx's loader thread; the bundle starts in about
// half of that, and CI starts dozens of them. The code is the same: each module keeps its own import.meta.url.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
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

/** What the server's bundle is built from (main.ts imports the fake Baileys socket when BAILEYS_FAKE=1). */
const SERVER_INPUTS = [
  'src/server',
  'src/shared',
  'tests/fakes',
  'package-lock.json',
  'tsconfig.json',
  'tests/build.mjs',
];
const SERVER_DIR = path.join(root, '.tmp', 'server');

function files(entry) {
  const full = path.join(root, entry);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [entry];
  return readdirSync(full, { withFileTypes: true })
    .filter((d) => !d.name.startsWith('.'))
    .flatMap((d) => files(path.join(entry, d.name)));
}

export function sourcesHash(inputs = INPUTS) {
  const hash = createHash('sha256');
  for (const file of inputs.flatMap(files).sort())
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

let serverBundle;
/**
 * The server's bundle of today's sources, built if missing (about 0.3 s): answers the path of its main module.
 * Asked once per process (hashing the sources reads ~500 files; they do not change during a test run).
 * Several processes may build it at once; each builds into a folder of its own and the first rename wins.
 */
export function serverMain() {
  serverBundle ??= buildServer().catch((err) => {
    serverBundle = undefined;
    throw err;
  });
  return serverBundle;
}

async function buildServer() {
  const target = path.join(SERVER_DIR, sourcesHash(SERVER_INPUTS));
  const main = path.join(target, 'main.mjs');
  if (existsSync(main)) return main;
  const { build } = await import('esbuild');
  const work = `${target}.building-${process.pid}-${Date.now()}`;
  const src = path.join(root, 'src');
  await build({
    entryPoints: [path.join(src, 'server/main.ts')],
    outdir: work,
    bundle: true,
    // Dynamic imports stay lazy (the S3 store, the fake Baileys socket): each is a chunk of its own.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    outExtension: { '.js': '.mjs' },
    logLevel: 'warning',
    plugins: [
      {
        // A module's import.meta.url is its source file's (the migrations folder, createRequire's base).
        name: 'own-import-meta-url',
        setup(b) {
          b.onLoad({ filter: /\.tsx?$/ }, (args) => ({
            contents: readFileSync(args.path, 'utf8').replaceAll(
              'import.meta.url',
              JSON.stringify(pathToFileURL(args.path).href),
            ),
            loader: args.path.endsWith('x') ? 'tsx' : 'ts',
          }));
        },
      },
    ],
  });
  try {
    renameSync(work, target);
  } catch (err) {
    rmSync(work, { recursive: true, force: true });
    if (!existsSync(main)) throw err;
  }
  // Older bundles go (one per change of the server's sources).
  for (const old of readdirSync(SERVER_DIR))
    if (old !== path.basename(target) && !old.includes('.building-'))
      rmSync(path.join(SERVER_DIR, old), { recursive: true, force: true });
  return main;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    ensureBuilt();
    await serverMain();
  } catch (err) {
    console.error(String(err instanceof Error ? err.message : err));
    process.exit(1);
  }
}
