// Issue 24: three server processes on one PostgreSQL behind a round-robin balancer (startBalancer), as in
// production. Simulator customers write through it, so each process takes some of their messages; attendants'
// sockets are spread over the three and each gets every event once. A campaign and scheduled messages are sent
// while one process is killed (SIGKILL): the other two finish both, each person reached exactly once. The sockets
// of the killed process reconnect through the balancer to another one, catch up as the app does (get-changes-since
// from the cursor they had) and get the next events there. PostgreSQL only: PGlite is one process.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { io } from 'socket.io-client';
import { afterAll, expect, it } from 'vitest';
import { type Database, openDatabase } from '@/server/db';
import { audiencePeople, audiences } from '@/server/db/schema';
import { MESSAGE_STATUS } from '@/shared/constants';
import type { Campaign } from '@/shared/contract/campaigns';
import type { ReceiveMessage } from '@/shared/contract/events';
import { newId } from '@/shared/ids';
import { collect, connected, connectedSimulatorChip, roundTrip, until } from './channel-helpers';
import { dropDatabase, freshPostgres } from './helpers';
import { exited, remote, startBalancer, startProcess } from './process-helpers';

const onPostgres = Boolean(process.env.DATABASE_URL);
/**
 * SCALE_OUT_REAL_TIME=1: no time compression after the kill (see speedUpClaims); the survivors then take the
 * dead process's leftovers at the leases' and expiries' real length (minutes).
 */
const realTime = process.env.SCALE_OUT_REAL_TIME === '1';

const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step().catch((err: unknown) => console.warn(err));
});

/** What an attendant's screen is told: a conversation (with its first message, if any) or a message. */
function tally(events: ReceiveMessage[]) {
  const deliveries = new Map<string, number>();
  const seen = new Set<string>();
  for (const e of events) {
    if (e.type === 'new_conversation') {
      deliveries.set(`c:${e.message._id}`, (deliveries.get(`c:${e.message._id}`) ?? 0) + 1);
      seen.add(`c:${e.message._id}`);
      if (e.message.last_message) seen.add(`m:${e.message.last_message._id}`);
    } else if (e.type === 'new_message') {
      deliveries.set(`m:${e.message.message._id}`, (deliveries.get(`m:${e.message.message._id}`) ?? 0) + 1);
      seen.add(`m:${e.message.message._id}`);
    }
  }
  const doubles = [...deliveries].filter(([, n]) => n > 1).map(([key]) => key);
  return { seen, doubles };
}

/**
 * After the kill, time runs fast for claims: a claim or a pg-boss job the dead process held (anything claimed
 * before the previous tick and still held) counts as run out, as it would after its real length (a scheduled
 * message's lease 90 s, a campaign's 15 s, a send's 90 s; a job's expiry of 2-3 min plus pg-boss's 2-minute
 * maintenance), and a retry's delay (90 s and more for a scheduled message) has passed. What the survivors do with
 * them is their own code: only the waiting is cut. A claim a survivor still holds after a second is treated
 * the same: the exactly-once rests on the claims in SQL and the message_id, not on a lease's length.
 */
async function speedUpClaims(sql: Database['executeSql'], since: Date) {
  const held = (lease: string, seconds: number) =>
    `${lease} > now() and ${lease} < $1::timestamptz + interval '${seconds} seconds'`;
  await sql(
    `update pgboss.job set state = 'retry', start_after = now() where state = 'active' and started_on < $1`,
    [since],
  );
  await sql(`update pgboss.job set start_after = now() where state = 'retry' and start_after > now()`);
  await sql(
    `update scheduled_messages set lease_until = now() where status = 'sending' and ${held('lease_until', 90)}`,
    [since],
  );
  await sql(`update campaigns set lease_until = now() where ${held('lease_until', 15)}`, [since]);
  const sendLease = `coalesce(send_lease_until, created_at + interval '90 seconds')`;
  await sql(
    `update messages set send_lease_until = now() - interval '1 second'
     where status = ${MESSAGE_STATUS.pending} and ${held(sendLease, 90)}`,
    [since],
  );
}

it.runIf(onPostgres)(
  'three processes behind a balancer: every event reaches every attendant once; a kill during a campaign and scheduled sends loses and doubles nothing; its sockets reconnect elsewhere and catch up',
  async () => {
    const began = Date.now();
    const marks: string[] = [];
    const mark = (what: string) => marks.push(`${what} ${((Date.now() - began) / 1000).toFixed(1)} s`);
    const databaseUrl = await freshPostgres(process.env.DATABASE_URL ?? '');
    cleanup.push(() => dropDatabase(databaseUrl));
    // One DATA_DIR for all three: the shared media volume of a real deployment.
    const dataDir = await mkdtemp(path.join(tmpdir(), 'painel-scale-out-'));
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
    const env = { DATABASE_URL: databaseUrl, DATA_DIR: dataDir, CAMPAIGN_INTERVAL_SCALE: '0.0025' };
    const stopAll: (() => Promise<void>)[] = [];
    cleanup.push(() => Promise.all(stopAll.map((stop) => stop())));
    const start = async () => {
      const p = await startProcess(env);
      stopAll.push(async () => {
        p.proc.kill('SIGTERM');
        await exited(p.proc);
      });
      return p;
    };
    // The first one migrates and seeds the demo; the other two start on the same database at once.
    const procs = [await start()];
    mark('1 process up');
    procs.push(...(await Promise.all([start(), start()])));
    mark('3 processes up');
    const lb = await startBalancer(procs.map((p) => p.url));
    cleanup.push(() => lb.close());
    const database = await openDatabase({ databaseUrl, dataDir });
    cleanup.push(() => database.close());
    const sql = database.executeSql;
    const t = remote(lb.url);

    const owner = await t.login('dono@demo.com');
    const departments = (await t.call('get-departments-by-user', {}, owner)) as {
      _id: string;
      name: string;
    }[];
    // The support attendant's department: all six attendants see the chip's conversations.
    const support = departments.find((d) => d.name === 'Suporte');
    const { chip, simulatorToken } = await connectedSimulatorChip(t, owner, {
      department: support?._id ?? '',
    });

    // Six attendants' apps (owner, manager, the support attendant, twice each) through the balancer.
    const emails = ['dono@demo.com', 'gerente@demo.com', 'atendente@demo.com'];
    const attendants: {
      name: string;
      token: string;
      sock: ReturnType<typeof io>;
      events: ReceiveMessage[];
      backend: number | undefined;
    }[] = [];
    for (let i = 0; i < 6; i++) {
      const name = `attendant-${i}`;
      const token = await t.login(emails[i % 3] ?? '');
      const sock = io(lb.url, {
        path: '/sock/',
        auth: { token },
        transports: ['websocket'],
        query: { name },
        reconnectionDelay: 200,
        reconnectionDelayMax: 1000,
      });
      cleanup.push(async () => sock.close());
      await connected(sock);
      attendants.push({ name, token, sock, events: collect(sock).events, backend: lb.sockets.get(name) });
    }
    // Spread: two on each process.
    expect(attendants.map((a) => a.backend).sort()).toEqual([0, 0, 1, 1, 2, 2]);

    /** Waits until every attendant has seen `expected`, then for what may still come (a double). */
    const allSee = async (who: typeof attendants, from: number[], expected: Set<string>, ms = 20_000) => {
      const missing = () =>
        who.map((a, i) => {
          const { seen } = tally(a.events.slice(from[i]));
          return {
            name: a.name,
            on: lb.sockets.get(a.name),
            missing: [...expected].filter((k) => !seen.has(k)),
          };
        });
      await until(() => missing().every((m) => m.missing.length === 0), ms).catch(() => {
        throw new Error(`not seen by every attendant: ${JSON.stringify(missing())}`);
      });
      await Promise.all(who.map((a) => roundTrip(a.sock)));
      await new Promise((r) => setTimeout(r, 300));
    };
    const since = async (at: Date, conversationsToo = true) => {
      const conversations = conversationsToo
        ? await sql('select id from conversations where created_at >= $1', [at])
        : { rows: [] };
      const messages = await sql('select id from messages where created_at >= $1', [at]);
      return new Set([
        ...conversations.rows.map((r) => `c:${r.id}`),
        ...messages.rows.map((r) => `m:${r.id}`),
      ]);
    };

    // 1. Customers write through the balancer: each process takes some; every attendant sees each message once.
    const customers = Array.from({ length: 12 }, (_, i) => `5511972${String(i).padStart(6, '0')}`);
    const customerSays = (phone: string, n: number) =>
      t.call('simulator-send', {
        token: simulatorToken,
        phone,
        name: `Cliente ${phone.slice(-2)}`,
        id: `c${phone}n${n}`,
        type: 'text',
        text: `Mensagem ${n}`,
      });
    const phaseA = new Date();
    let from = attendants.map((a) => a.events.length);
    for (const n of [1, 2]) await Promise.all(customers.map((phone) => customerSays(phone, n)));
    const expectedA = await since(phaseA);
    expect(expectedA.size).toBe(12 + 24);
    await allSee(attendants, from, expectedA);
    for (const [i, a] of attendants.entries()) {
      const { seen, doubles } = tally(a.events.slice(from[i]));
      expect(doubles, a.name).toEqual([]);
      expect([...seen].sort(), a.name).toEqual([...expectedA].sort());
    }
    for (const served of lb.served) expect(served.get('/api/simulator-send') ?? 0).toBeGreaterThan(0);
    mark('customers seen by all');

    // 2. A campaign to 300 people (20 s × 0.0025 = 50 ms apart), and 45 scheduled messages due at one moment.
    const cursors = await Promise.all(
      attendants.map(async (a) => (await t.call('get-changes-since', {}, a.token)).cursor),
    );
    from = attendants.map((a) => a.events.length);
    const phaseB = new Date();
    const [{ accountId = '' } = {}] = (
      await sql('select account_id as "accountId" from chips where id = $1', [chip._id])
    ).rows as { accountId: string }[];
    const people = Array.from({ length: 300 }, (_, i) => `5511974${String(i).padStart(6, '0')}`);
    const audience = newId();
    await database.db.insert(audiences).values({ id: audience, accountId, name: 'Escala', peopleCount: 300 });
    await database.db
      .insert(audiencePeople)
      .values(people.map((phone, position) => ({ audienceId: audience, phone, position })));
    const campaign = (await t.call(
      'create-campaign',
      {
        name: 'Três processos',
        chip: chip._id,
        audience_type: 'audience',
        audience,
        message_type: 'text',
        message: ['Oi, novidade da loja'],
        interval: 20,
        scheduledTo: null,
      },
      owner,
    )) as Campaign;
    const campaignSent = async () =>
      Number(
        (await sql('select sent_messages from campaigns where id = $1', [campaign._id])).rows[0]
          ?.sent_messages,
      );
    // A minute and a half: three processes beside CI's other suites on 2 cores.
    await until(async () => (await campaignSent()) >= 60, 90_000);

    // The process to kill. The scheduled messages are created on it, so that its wake-up at their time (on a
    // 50 ms step) comes before the others' polls (every 500 ms): it most likely takes the whole batch.
    const victim = Math.floor(Math.random() * 3);
    const dead = procs[victim] as (typeof procs)[number];
    const onVictim = remote(dead.url);
    // Far enough ahead that the 45 creations, on a machine running CI's suites side by side, all come before it
    // (a creation after it is refused as past).
    const due = new Date(Math.ceil((Date.now() + 10_000) / 50) * 50);
    const scheduledPhones = Array.from({ length: 45 }, (_, i) => `11973${String(i).padStart(6, '0')}`);
    const scheduled = await Promise.all(
      scheduledPhones.map(
        async (to) =>
          (
            (await onVictim.call(
              'create-scheduled-message',
              { chip: chip._id, to, message: `Lembrete ${to}`, scheduledTo: due.toISOString() },
              owner,
            )) as { _id: string }
          )._id,
      ),
    );
    const scheduledSent = async () =>
      Number(
        (await sql(`select count(*)::int as n from scheduled_messages where status = 'sent'`)).rows[0]?.n,
      );

    // 3. Mid-send (some scheduled messages sent, the campaign under way), one process is killed.
    await until(async () => (await scheduledSent()) >= 5, 15_000);
    const killedAt = new Date();
    dead.proc.kill('SIGKILL');
    await exited(dead.proc);
    const atKill = { campaign: await campaignSent(), scheduled: await scheduledSent() };
    mark(`process ${victim} killed (campaign ${atKill.campaign}/300, scheduled ${atKill.scheduled}/45)`);
    // What it left (claimed before the kill and still held a second later: the survivors' work is quicker).
    await new Promise((r) => setTimeout(r, 1000));
    const left = await sql(
      `select (select count(*)::int from pgboss.job where state = 'active' and started_on < $1) as jobs,
        (select count(*)::int from scheduled_messages
         where status = 'sending' and lease_until < $1::timestamptz + interval '90 seconds') as scheduled_claims,
        (select count(*)::int from messages where status = ${MESSAGE_STATUS.pending} and created_at < $1) as sends,
        (select count(*)::int from campaigns
         where lease_until > now() and lease_until < $1::timestamptz + interval '15 seconds') as campaign_lease`,
      [killedAt],
    );
    marks.push(`left by the killed process: ${JSON.stringify(left.rows[0])}`);

    // 4. The two others finish both.
    let tick = killedAt;
    const finished = until(
      async () => {
        if (!realTime && Date.now() - tick.getTime() >= 1000) {
          const now = new Date();
          await speedUpClaims(sql, tick);
          tick = now;
        }
        const c = (await sql('select status from campaigns where id = $1', [campaign._id])).rows[0]?.status;
        return c === 'finished' && (await scheduledSent()) === 45;
      },
      // About 35 s alone; the CI runs it beside the whole PGlite suite on 2 cores.
      realTime ? 15 * 60_000 : 150_000,
    );
    await finished;
    mark('campaign and scheduled messages done');

    // Each person once, in the database and on their simulator phone.
    const recipients = await sql(
      'select status, count(*)::int as n from campaign_recipients where campaign_id = $1 group by status',
      [campaign._id],
    );
    expect(recipients.rows).toEqual([{ status: 'sent', n: 300 }]);
    const perPhone = await sql(
      `select c.phone, count(*)::int as n from messages m
       join conversations v on v.id = m.conversation_id join contacts c on c.id = v.contact_id
       where m.origin in ('user', 'chatbot') group by c.phone`,
    );
    const stored = new Map(perPhone.rows.map((r) => [String(r.phone), Number(r.n)]));
    const reached = [...people, ...scheduledPhones.map((p) => `55${p}`)];
    expect(reached.filter((p) => stored.get(p) !== 1)).toEqual([]);
    expect(stored.size).toBe(reached.length);
    const statuses = await sql(`select status, count(*)::int as n from scheduled_messages group by status`);
    expect(statuses.rows).toEqual([{ status: 'sent', n: 45 }]);
    // Each by its own message_id, once.
    const bySchedule = await sql('select count(*)::int as n from messages where message_id = any($1)', [
      scheduled.map((id) => `sched-${id}`),
    ]);
    expect(bySchedule.rows).toEqual([{ n: 45 }]);
    const onPhones: string[] = [];
    for (let i = 0; i < reached.length; i += 15)
      await Promise.all(
        reached.slice(i, i + 15).map(async (phone) => {
          const chat = (await t.call('simulator-get-messages', { token: simulatorToken, phone })) as {
            from_me: boolean;
          }[];
          if (chat.filter((m) => m.from_me).length !== 1) onPhones.push(phone);
        }),
      );
    expect(onPhones).toEqual([]);
    mark('each person once');

    // 5. The killed process's sockets are back, through the balancer, on the others.
    const moved = attendants.filter((a) => a.backend === victim);
    const stayed = attendants.filter((a) => a.backend !== victim);
    await until(() => moved.every((a) => a.sock.connected && lb.sockets.get(a.name) !== victim), 20_000);
    expect(lb.live[victim]).toBe(false);
    const expectedB = await since(phaseB);
    await Promise.all(attendants.map((a) => roundTrip(a.sock)));
    await new Promise((r) => setTimeout(r, 300));
    // The survivors' sockets: each event at most once, all alike; a miss only for what the killed process stored
    // in its last moment (it died before its emit).
    const survivors = stayed.map((a) => tally(a.events.slice(from[attendants.indexOf(a)])));
    for (const [i, s] of survivors.entries()) {
      expect(s.doubles, stayed[i]?.name).toEqual([]);
      expect([...s.seen].sort()).toEqual([...(survivors[0]?.seen ?? [])].sort());
    }
    const missed = [...expectedB].filter((k) => !survivors[0]?.seen.has(k));
    const afterKill = await since(killedAt);
    const lastMoment = await since(new Date(killedAt.getTime() - 2000));
    // A wrong miss names when its row was stored, against the kill.
    const storedAt = async (key: string) => {
      const [kind, id] = key.split(':');
      const table = kind === 'c' ? 'conversations' : 'messages';
      const at = (await sql(`select created_at from ${table} where id = $1`, [id])).rows[0]?.created_at;
      return `${key} stored ${at ? new Date(String(at)).getTime() - killedAt.getTime() : '?'} ms after the kill`;
    };
    const wrong = missed.filter((k) => afterKill.has(k) || !lastMoment.has(k));
    expect(await Promise.all(wrong.map(storedAt))).toEqual([]);
    marks.push(`survivors' sockets: ${survivors[0]?.seen.size} seen, ${missed.length} missed at the kill`);
    // The moved sockets catch up as the app does: what changed since their cursor, merged with what they got.
    const onlyByCatchUp: number[] = [];
    for (const a of moved) {
      const i = attendants.indexOf(a);
      const { seen, doubles } = tally(a.events.slice(from[i]));
      expect(doubles, a.name).toEqual([]);
      const changed = new Set<string>();
      for (let cursor = cursors[i], page = 0; page < 25; page++) {
        const changes = await t.call('get-changes-since', { cursor, limit: 200 }, a.token);
        expect(changes.reset).toBe(false);
        for (const c of changes.conversations) changed.add(`c:${c._id}`);
        for (const m of changes.messages) changed.add(`m:${m._id}`);
        cursor = changes.cursor;
        if (!changes.more) break;
      }
      expect(
        [...expectedB].filter((k) => !seen.has(k) && !changed.has(k)),
        a.name,
      ).toEqual([]);
      onlyByCatchUp.push([...expectedB].filter((k) => !seen.has(k)).length);
    }
    marks.push(`moved sockets: ${onlyByCatchUp.join(' and ')} missed while reconnecting, caught up`);
    mark('moved sockets caught up');

    // 6. New events reach every socket once, the moved ones on their new process too.
    from = attendants.map((a) => a.events.length);
    const phaseD = new Date();
    await Promise.all(customers.slice(0, 6).map((phone) => customerSays(phone, 3)));
    const expectedD = await since(phaseD, false);
    expect(expectedD.size).toBe(6);
    await allSee(attendants, from, expectedD);
    for (const [i, a] of attendants.entries()) {
      const { seen, doubles } = tally(a.events.slice(from[i]));
      expect(doubles, a.name).toEqual([]);
      expect([...seen].filter((k) => k.startsWith('m:')).sort(), a.name).toEqual([...expectedD].sort());
    }
    mark('new events on every socket');
    console.log(`scale-out-processes: ${marks.join('; ')}`);
  },
  realTime ? 20 * 60_000 : 360_000,
);
