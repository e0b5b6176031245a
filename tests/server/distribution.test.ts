// Equal distribution among attendants (issue 34 item 1; spec 3 §9): a department's setting. Conversations in
// human service go to the online attendant with the fewest open ones (ties: idle longest), decided under a lock
// so that two processes keep the shares within one. On PostgreSQL through two processes; on PGlite through one.
import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { conversations } from '../../src/server/db/schema';
import { collect, connected, connectedSimulatorChip, until } from './channel-helpers';
import { startTestServer, type TestServer } from './helpers';

const onPostgres = Boolean(process.env.DATABASE_URL);
let a: TestServer;
let b: TestServer;
let seed: Awaited<ReturnType<TestServer['reset']>>;
beforeAll(async () => {
  a = await startTestServer();
  // PGlite is one process: the second "process" is the same server.
  b = onPostgres ? await startTestServer({ DATABASE_URL: a.databaseUrl ?? '' }) : a;
}, 600_000);
afterAll(async () => {
  if (b !== a) await b.close({ keepDatabase: true });
  await a.close();
});
beforeEach(async () => {
  seed = await a.reset();
});

const PASSWORD = '123456';
/** Conversations per burst (two bursts): PGlite runs one query at a time in one process, so fewer there. */
const BURST = onPostgres ? 150 : 30;
async function attendant(owner: string, name: string, email: string) {
  await a.call(
    'create-team-user',
    {
      name,
      email,
      user_role: 'user',
      password: PASSWORD,
      departments: [seed.departments.support],
      access_areas: ['contacts'],
    },
    owner,
  );
  const token = await a.login(email, PASSWORD);
  const me = await a.call('get-user', {}, token);
  return { token, id: me._id as string };
}

async function switchOn(owner: string, on = true) {
  await a.call(
    'create-or-update-department',
    { _id: seed.departments.support, name: 'Suporte', description: null, distribute: on },
    owner,
  );
}

let sent = 0;
function customerWrites(t: TestServer, token: string, phone: string) {
  sent += 1;
  return t.call('simulator-send', {
    token,
    phone,
    name: `Cliente ${phone.slice(-4)}`,
    id: `dist${Date.now().toString(36)}${sent}xxxxxxxx`,
    type: 'text',
    text: 'Oi, preciso de ajuda',
  });
}

const holders = async (t: TestServer) =>
  t.server.services.db
    .select({ id: conversations.id, user: conversations.assignedUserId, at: conversations.assignedAt })
    .from(conversations)
    .where(and(eq(conversations.departmentId, seed.departments.support)))
    .orderBy(asc(conversations.assignedAt));

it('off by default; switched on, what waits goes to the online attendant, who sees it arrive with their name', async () => {
  const owner = await a.login('dono@demo.com');
  const departments = await a.call('get-departments-by-user', {}, owner);
  expect(departments.find((d) => d._id === seed.departments.support)?.distribute).toBe(false);
  const { simulatorToken } = await connectedSimulatorChip(a, owner, { department: seed.departments.support });
  const ana = a.socket(await a.login('atendente@demo.com'));
  await connected(ana);
  await customerWrites(a, simulatorToken, '5511900000001');
  await new Promise((r) => setTimeout(r, 300));
  expect((await holders(a)).map((c) => c.user)).toEqual([null]);

  const events = collect(ana);
  await switchOn(owner);
  const updated = await events.next('conversation_updated');
  expect(updated.message.assigned_user_name).toBe('Ana Atendente');
  const [listed] = (await a.call('get-conversations-with-last-message', {}, owner)).conversations;
  expect(listed?.assigned_user_name).toBe('Ana Atendente');
  // 'Minhas': Ana's list holds it, the owner's own does not.
  const anaToken = await a.login('atendente@demo.com');
  const anaId = (await a.call('get-user', {}, anaToken))._id as string;
  const mine = (who: string, id: string) =>
    a.call('get-conversations-with-last-message', { filter: { assigned_user: id } }, who);
  expect((await mine(anaToken, anaId)).conversations.map((c) => c._id)).toEqual([listed?._id]);
  const ownerId = (await a.call('get-user', {}, owner))._id as string;
  expect((await mine(owner, ownerId)).conversations).toEqual([]);

  // Leaving the department lets go of it (the database's trigger).
  const moved = await a.call(
    'transfer-conversation',
    { conversation_id: listed?._id, type: 'department', department: seed.departments.sales },
    owner,
  );
  expect(moved.assigned_user).toBeNull();
});

it('nobody online: it waits, and goes to the first attendant who connects', async () => {
  const owner = await a.login('dono@demo.com');
  await switchOn(owner);
  const { simulatorToken } = await connectedSimulatorChip(a, owner, { department: seed.departments.support });
  await customerWrites(a, simulatorToken, '5511900000003');
  await new Promise((r) => setTimeout(r, 500));
  expect((await holders(a))[0]?.user).toBeNull();
  const carla = await attendant(owner, 'Carla Atendente', 'carla@demo.com');
  // Online on the other process: the first process's job sees her through the socket adapter.
  await connected(b.socket(carla.token));
  await until(async () => ((await holders(a))[0]?.user === carla.id ? true : undefined));
});

it('300 conversations at once through two processes: shares within 1; an attendant joining mid-way gets the next ones', async () => {
  const owner = await a.login('dono@demo.com');
  await switchOn(owner);
  const { simulatorToken } = await connectedSimulatorChip(a, owner, {
    department: seed.departments.support,
  });
  const ana = await a.login('atendente@demo.com');
  const carla = await attendant(owner, 'Carla Atendente', 'carla@demo.com');
  const davi = await attendant(owner, 'Davi Atendente', 'davi@demo.com');
  const eva = await attendant(owner, 'Eva Atendente', 'eva@demo.com');
  await Promise.all([
    connected(a.socket(ana)),
    connected(b.socket(carla.token)),
    connected(b.socket(davi.token)),
  ]);

  const burst = async (from: number, n: number) => {
    const phones = Array.from({ length: n }, (_, i) => `55119${String(from + i).padStart(8, '0')}`);
    // Arriving at once: 25 in flight, alternately through each process.
    for (let i = 0; i < phones.length; i += 25)
      await Promise.all(
        phones.slice(i, i + 25).map((p, j) => customerWrites((i + j) % 2 ? b : a, simulatorToken, p)),
      );
    await until(
      async () => ((await holders(a)).filter((c) => c.user).length === from + n - 10_000 ? true : undefined),
      60_000,
    );
  };
  const shares = async () => {
    const counts = new Map<string, number>();
    for (const c of await holders(a)) if (c.user) counts.set(c.user, (counts.get(c.user) ?? 0) + 1);
    return counts;
  };

  await burst(10_000, BURST);
  const first = [...(await shares()).values()];
  expect(first).toHaveLength(3);
  expect(Math.max(...first) - Math.min(...first)).toBeLessThanOrEqual(1);

  // Eva joins: she holds nothing, so the next BURST / 3 are hers; then the four share alike.
  await connected(a.socket(eva.token));
  const before = new Set((await holders(a)).filter((c) => c.user).map((c) => c.id));
  await burst(10_000 + BURST, BURST);
  const next = (
    await a.server.services.db
      .select({ id: conversations.id, user: conversations.assignedUserId })
      .from(conversations)
      .where(isNotNull(conversations.assignedUserId))
      .orderBy(asc(conversations.assignedAt))
  ).filter((c) => !before.has(c.id));
  expect(next.slice(0, BURST / 3).every((c) => c.user === eva.id)).toBe(true);
  const all = [...(await shares()).values()];
  expect(all).toHaveLength(4);
  expect(Math.max(...all) - Math.min(...all)).toBeLessThanOrEqual(1);
}, 300_000);
