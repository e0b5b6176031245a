// Data survives a restart: the same DATA_DIR (or the same PostgreSQL database) opened again.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startTestServer } from './helpers';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

it('keeps users, sessions and changes across a restart', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'painel-restart-'));
  dirs.push(dir);
  const first = await startTestServer({ SEED_DEMO: 'true' }, dir);
  expect(first.server.firstStartLines?.[0]).toContain('Loja Demo');
  const token = await first.login('dono@demo.com');
  await first.call('update-user', { name: 'Dona Maria' }, token);
  const databaseUrl = first.databaseUrl;
  await first.close({ keepDatabase: true });

  const second = await startTestServer(
    { SEED_DEMO: 'true', ...(databaseUrl && { DATABASE_URL: databaseUrl }) },
    dir,
  );
  try {
    // Not seeded again, the session still valid, the change kept.
    expect(second.server.firstStartLines).toBeNull();
    expect((await second.call('get-user', {}, token)).name).toBe('Dona Maria');
  } finally {
    await second.close();
  }
});
