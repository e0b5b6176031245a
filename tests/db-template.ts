// A fresh embedded database for a test server, copied from a template made once per machine: creating a PGlite
// directory from nothing (its initdb, then every migration) takes 3-20 s on a 2-core machine, copying one
// takes milliseconds, and the tests start dozens of servers. A template is named by what shapes it (the
// migrations, the demo seed, the e2e seeds and PGlite's version), so a changed migration makes a new one.
import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

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
  await cp(await ready, dataDir, { recursive: true });
}

async function exists(p: string) {
  return stat(p).then(
    () => true,
    () => false,
  );
}
