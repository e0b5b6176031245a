// Several server processes on one PostgreSQL (issue 24, the socket fan-out): an event emitted by one process
// reaches the sockets of its rooms on the other, online users are counted across both, and ending a session on
// one closes its socket on the other (@socket.io/postgres-adapter, NOTIFY on the shared database).
// PostgreSQL only: PGlite is one process.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { collect, connected, connectedSimulatorChip, until } from './channel-helpers';
import { startTestServer, type TestServer } from './helpers';

const onPostgres = Boolean(process.env.DATABASE_URL);
let a: TestServer;
let b: TestServer;
let seed: Awaited<ReturnType<TestServer['reset']>>;
beforeAll(async () => {
  if (!onPostgres) return;
  a = await startTestServer();
  b = await startTestServer({ DATABASE_URL: a.databaseUrl ?? '' });
  seed = await a.reset();
});
afterAll(async () => {
  if (!onPostgres) return;
  await b.close({ keepDatabase: true });
  await a.close();
});

it.runIf(onPostgres)(
  "a customer's message taken by one process reaches an attendant's socket on the other",
  async () => {
    const owner = await a.login('dono@demo.com');
    const { simulatorToken } = await connectedSimulatorChip(a, owner, {
      department: seed.departments.support,
    });
    // The attendant's app is connected to process b; the customer writes through process a.
    const attendant = b.socket(await b.login('atendente@demo.com'));
    await connected(attendant);
    const events = collect(attendant);
    await a.call('simulator-send', {
      token: simulatorToken,
      phone: '5511977776666',
      name: 'Rita',
      id: `scale${Date.now().toString(36)}xxxxxxxxxx`,
      type: 'text',
      text: 'Oi, vocês abrem sábado?',
    });
    const opened = await events.next('new_conversation');
    expect(opened.message.last_message?.message ?? JSON.stringify(opened.message)).toContain('sábado');
    // Once: not again by the other process.
    await new Promise((r) => setTimeout(r, 500));
    expect(events.events.filter((e) => e.type === 'new_conversation')).toHaveLength(0);
  },
);

it.runIf(onPostgres)('online users are counted across both processes', async () => {
  const admin = await a.login('admin@demo.com');
  const before = (await a.call('get-online-users', {}, admin)).count;
  const onA = a.socket(await a.login('gerente@demo.com'));
  const onB = b.socket(await b.login('dono@demo.com'));
  await Promise.all([connected(onA), connected(onB)]);
  expect((await a.call('get-online-users', {}, admin)).count).toBe(before + 2);
  expect((await b.call('get-online-users', {}, admin)).count).toBe(before + 2);
  onB.close();
  await until(async () => (await a.call('get-online-users', {}, admin)).count === before + 1);
});

it.runIf(onPostgres)("a logout on one process closes that session's socket on the other", async () => {
  const token = await a.login('gerente@demo.com');
  const sock = b.socket(token);
  await connected(sock);
  const closed = new Promise<string>((resolve) => sock.once('disconnect', (reason) => resolve(reason)));
  await a.call('logout', {}, token);
  expect(await closed).toBe('io server disconnect');
});

it.runIf(onPostgres)('the public API rate limit is one count for both processes', async () => {
  // No key: each request counts for its IP, on the same route, whichever process takes it.
  const max = 60; // PUBLIC_API_RATE_MAX's default
  const statuses: number[] = [];
  for (let i = 0; i <= max; i++) {
    const server = i % 2 ? b : a;
    const r = await fetch(`${server.url}/api/v1/tags`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    statuses.push(r.status);
  }
  expect(statuses.slice(0, max).every((s) => s === 401)).toBe(true);
  expect(statuses[max]).toBe(429);
});
