// A fresh embedded database for a test server, copied from a template made once per machine: creating a PGlite
// directory from nothing (its initdb, then every migration) takes 3-20 s on a 2-core machine, copying one
// takes milliseconds, and the tests start dozens of servers. A template is named by what shapes it (the
// migrations, the job kinds, the demo seed, the e2e seeds, PGlite's and pg-boss's versions), so a changed
// migration makes a new one.
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const root = path.resolve(import.meta.dirname, '..');

async function templateKey(): Promise<string> {
  const hash = createHash('sha256');
  const migrations = path.join(root, 'src/server/db/migrations');
  const files = [
    ...(await readdir(migrations)).filter((f) => f.endsWith('.sql')).map((f) => path.join(migrations, f)),
    path.join(root, 'src/server/db/migrations/meta/_journal.json'),
    path.join(root, 'src/server/seed/demo.ts'),
    path.join(root, 'tests/e2e/seeds.ts'),
    path.join(root, 'node_modules/@electric-sql/pglite/package.json'),
    path.join(root, 'node_modules/pg-boss/package.json'),
    path.join(root, 'tests/db-template.ts'),
    ...(await readdir(path.join(root, 'src/server/jobs'))).map((f) => path.join(root, 'src/server/jobs', f)),
  ].sort();
  for (const file of files) hash.update(file).update(await readFile(file));
  return hash.digest('hex').slice(0, 16);
}

let key: Promise<string> | undefined;
const built = new Map<string, Promise<string>>();

/**
 * Copies the template `name` into `dataDir` (which then holds `pgdata/`), building the template first if this
 * machine has none: `build(dir)` fills a fresh data directory and closes its database. Several processes may
 * build the same template at once; the first to finish wins and the others use it.
 */
export async function copyTemplate(
  name: string,
  dataDir: string,
  build: (dir: string) => Promise<void>,
): Promise<void> {
  let ready = built.get(name);
  if (!ready) {
    ready = (async () => {
      key ??= templateKey();
      const target = path.join(tmpdir(), 'painel-db-templates', await key, name);
      if (await exists(target)) return target;
      await mkdir(path.dirname(target), { recursive: true });
      const work = await mkdtemp(`${target}.building-`);
      await build(work);
      try {
        await rename(work, target);
      } catch (err) {
        // Another process renamed its copy first: use that one.
        await rm(work, { recursive: true, force: true });
        if (!(await exists(target))) throw err;
      }
      return target;
    })();
    built.set(name, ready);
    ready.catch(() => built.delete(name));
  }
  await copyDir(await ready, dataDir);
}

/**
 * `cp -a`: a data directory is 1,200 files, which Node's fs.cp copies in 1.5-2 s of CPU and cp in 0.15 s (the
 * suites copy one for every server they start).
 */
async function copyDir(from: string, to: string) {
  await mkdir(to, { recursive: true });
  try {
    await promisify(execFile)('cp', ['-a', `${from}/.`, to]);
  } catch {
    await cp(from, to, { recursive: true });
  }
}

async function exists(p: string) {
  return stat(p).then(
    () => true,
    () => false,
  );
}

/**
 * Copies the template of a server's data directory as its first start leaves it, without data: every migration,
 * and the job runner's schema and queues (pg-boss makes a table and 8 indexes per queue: 1.5 s of PGlite at each
 * start). The template is made by starting the real server once; what that start queued or generated for itself
 * (its start-up jobs, the VAPID keys) is taken out, so each copy starts as a first start does.
 */
export function copyMigrated(dataDir: string) {
  return copyTemplate('migrated', dataDir, async (fresh) => {
    const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/server/main.ts')], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        DATABASE_URL: '',
        DATA_DIR: fresh,
        SEED_DEMO: 'false',
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'error',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const exited = new Promise<number | null>((resolve) => server.once('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        if (/listening on port \d+/.test(output)) resolve();
      };
      server.stdout?.on('data', read);
      server.stderr?.on('data', read);
      void exited.then((code) => reject(new Error(`template server exited with ${code}:\n${output}`)));
    });
    server.kill('SIGTERM');
    await exited;
    // Only the database: what else the start made (media/, mail/) a first start makes itself.
    for (const entry of await readdir(fresh))
      if (entry !== 'pgdata') await rm(path.join(fresh, entry), { recursive: true, force: true });
    const { PGlite } = await import('@electric-sql/pglite');
    const db = await PGlite.create(path.join(fresh, 'pgdata'));
    await db.exec('DELETE FROM pgboss.job; DELETE FROM pgboss.archive; DELETE FROM push_keys;');
    await db.close();
  });
}
