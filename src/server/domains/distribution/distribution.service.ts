// Equal distribution among attendants (spec 3 §9, a department setting; spec 2 §4 for human service). In a
// department with `distribute` on, each open conversation in human service goes at once to one of the
// department's attendants who is online (an open socket on any process): the one holding the fewest open
// conversations, ties to the one idle longest (the oldest last assignment). Nobody online: it waits, as
// without the setting, until someone connects. Going offline keeps what one holds.
//
// One decision at a time per department, across processes: a transaction under a PostgreSQL advisory lock
// reads the loads and writes the assignments, so two processes never both see an attendant as the least busy.
// It runs as a job (../../jobs/distribution.ts), queued when a conversation enters human service in such a
// department (seen in the conversation events this process emits), when a user connects, when the setting is
// switched on, and by a sweep every minute.
import { and, asc, count, eq, inArray, isNull, max, notInArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../db';
import { conversations, departments, users } from '../../db/schema';
import type { RealtimeListener } from '../../realtime/port';
import type { Services } from '../../services';
import { loadConversations } from '../conversations/present';

export const DISTRIBUTE_JOB = 'distribute-conversations';
/** A department's conversations, or (no department) every distributing department of the account. */
export interface DistributeJob {
  accountId: string;
  departmentId?: string;
}

/** The advisory lock's first key: distribution's own space (the second is the department's hash). */
const LOCK_SPACE = 2634;
/** Conversations assigned per transaction; a larger backlog takes several. */
const BATCH = 500;

interface Load {
  userId: string;
  open: number;
  /** The last assignment's time (ms), -1 for never: ties go to the smallest. */
  last: number;
}

/** The attendant who gets the next conversation: fewest open, then idle longest, then by id (stable). */
function leastBusy(loads: Load[]): Load {
  let best = loads[0] as Load;
  for (const l of loads.slice(1))
    if (
      l.open < best.open ||
      (l.open === best.open && (l.last < best.last || (l.last === best.last && l.userId < best.userId)))
    )
      best = l;
  return best;
}

/** Assigns one batch of the department's waiting conversations; answers the ids assigned. */
async function assignBatch(db: Db, accountId: string, departmentId: string, online: Set<string>) {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_SPACE}::int, hashtext(${departmentId}))`);
    const [department] = await tx
      .select({ distribute: departments.distribute })
      .from(departments)
      .where(
        and(
          eq(departments.id, departmentId),
          eq(departments.accountId, accountId),
          eq(departments.filed, false),
        ),
      );
    if (!department?.distribute) return [];
    // The department's attendants (the role that serves conversations), read now: a role or a department
    // list may have changed since they connected.
    const members = (
      await tx
        .select({ id: users.id })
        .from(users)
        .where(
          and(
            eq(users.accountId, accountId),
            eq(users.filed, false),
            eq(users.userRole, 'user'),
            sql`${users.departments} ? ${departmentId}`,
          ),
        )
    ).map((u) => u.id);
    const eligible = members.filter((id) => online.has(id));
    if (!eligible.length) return [];
    // Waiting: nobody holds it, or someone who is no longer an attendant of this department.
    const waiting = await tx
      .select({ id: conversations.id })
      .from(conversations)
      .where(
        and(
          eq(conversations.accountId, accountId),
          eq(conversations.departmentId, departmentId),
          eq(conversations.isManual, true),
          isNull(conversations.finishedAt),
          or(isNull(conversations.assignedUserId), notInArray(conversations.assignedUserId, members)),
        ),
      )
      .orderBy(asc(conversations.createdAt), asc(conversations.id))
      .limit(BATCH);
    if (!waiting.length) return [];
    const held = await tx
      .select({
        userId: conversations.assignedUserId,
        open: count(),
        last: max(conversations.assignedAt),
      })
      .from(conversations)
      .where(
        and(
          eq(conversations.accountId, accountId),
          isNull(conversations.finishedAt),
          inArray(conversations.assignedUserId, eligible),
        ),
      )
      .groupBy(conversations.assignedUserId);
    const loads: Load[] = eligible.map((userId) => {
      const h = held.find((r) => r.userId === userId);
      return { userId, open: h?.open ?? 0, last: h?.last ? new Date(h.last).getTime() : -1 };
    });
    const now = Date.now();
    const picks = waiting.map((c, n) => {
      const to = leastBusy(loads);
      to.open += 1;
      to.last = now + n;
      return sql`(${c.id}, ${to.userId}, ${n}::int)`;
    });
    // One statement; each assignment a microsecond after the one before, so the order of a batch is kept. The
    // clock now, not now(): that is when the transaction began, maybe before a wait for the lock.
    await tx.execute(sql`with clock as (select clock_timestamp() as at)
      update ${conversations}
      set assigned_user_id = v.user_id, assigned_at = (select at from clock) + v.n * interval '1 microsecond'
      from (values ${sql.join(picks, sql`, `)}) as v(id, user_id, n)
      where ${conversations.id} = v.id`);
    return waiting.map((c) => c.id);
  });
}

/** Assigns the department's waiting conversations to its online attendants; answers how many. */
export async function distributeDepartment(services: Services, accountId: string, departmentId: string) {
  const { db, realtime } = services;
  let total = 0;
  for (;;) {
    if (!(await isDistributing(db, departmentId))) return total;
    const online = await realtime.onlineUsers(accountId);
    if (!online.size) return total;
    const ids = await assignBatch(db, accountId, departmentId, online);
    total += ids.length;
    // The lists show the holder at once (and the catch-up finds the change by its updated_at).
    for (const view of await loadConversations(db, ids))
      realtime.toConversation(accountId, view.department, {
        type: 'conversation_updated',
        message: view,
      });
    if (ids.length < BATCH) return total;
  }
}

/** Every distributing department of the account with a conversation waiting. */
async function waitingDepartments(db: Db, accountId?: string) {
  return db
    .selectDistinct({ accountId: conversations.accountId, departmentId: departments.id })
    .from(conversations)
    .innerJoin(departments, eq(departments.id, conversations.departmentId))
    .where(
      and(
        accountId ? eq(conversations.accountId, accountId) : undefined,
        eq(departments.distribute, true),
        eq(departments.filed, false),
        eq(conversations.isManual, true),
        isNull(conversations.finishedAt),
        isNull(conversations.assignedUserId),
      ),
    );
}

// One run at a time per department in this server: a burst of 300 arrivals queues 300 jobs, and a job that
// finds a run going asks it to look once more rather than queueing behind the same lock. (Per server, not per
// module: tests run two servers in one process.)
type Runs = Map<string, { again: boolean; done: Promise<void> }>;
const runsOf = new WeakMap<Services, Runs>();

async function coalesced(services: Services, key: string, run: () => Promise<void>) {
  const running = runsOf.get(services) ?? new Map();
  runsOf.set(services, running);
  const current = running.get(key);
  if (current) {
    current.again = true;
    return current.done;
  }
  const state = { again: false, done: Promise.resolve() };
  state.done = (async () => {
    try {
      do {
        state.again = false;
        await run();
      } while (state.again);
    } finally {
      running.delete(key);
    }
  })();
  running.set(key, state);
  return state.done;
}

/** The job: one department, or every waiting one of the account, or (no account: the sweep) of all. */
export async function runDistribution(services: Services, job: Partial<DistributeJob>) {
  if (job.accountId && job.departmentId) {
    const { accountId, departmentId } = job;
    return coalesced(services, departmentId, async () => {
      await distributeDepartment(services, accountId, departmentId);
    });
  }
  for (const d of await waitingDepartments(services.db, job.accountId))
    await coalesced(services, d.departmentId, async () => {
      await distributeDepartment(services, d.accountId, d.departmentId);
    });
}

// Whether a department distributes, as this process last read it (a few seconds): the events of every
// conversation pass here, and only those of distributing departments queue a job. The sweep covers a
// setting switched on by another process meanwhile.
const SETTING_TTL_MS = 5000;
const settings = new Map<string, { on: boolean; until: number }>();

async function isDistributing(db: Db, departmentId: string) {
  const known = settings.get(departmentId);
  if (known && known.until > Date.now()) return known.on;
  const [row] = await db
    .select({ on: departments.distribute })
    .from(departments)
    .where(and(eq(departments.id, departmentId), eq(departments.filed, false)));
  const on = row?.on ?? false;
  settings.set(departmentId, { on, until: Date.now() + SETTING_TTL_MS });
  return on;
}

/** The setting was saved: read it again, and when on, assign what waits. */
export async function distributionSettingChanged(
  services: Services,
  accountId: string,
  departmentId: string,
  on: boolean,
) {
  settings.set(departmentId, { on, until: Date.now() + SETTING_TTL_MS });
  if (on) await services.jobs.send(DISTRIBUTE_JOB, { accountId, departmentId } satisfies DistributeJob);
}

/** Queues distribution when a conversation enters human service unheld, or a user connects. */
export function distributionListener(services: () => Services): RealtimeListener {
  const queue = (job: DistributeJob) =>
    void services()
      .jobs.send(DISTRIBUTE_JOB, job)
      .catch((err: unknown) => services().log.warn({ err }, 'distribution not queued'));
  return {
    conversationEvent(accountId, departmentId, event) {
      let department: string | null = null;
      if (event.type === 'new_conversation' || event.type === 'conversation_updated') {
        const c = event.message;
        if (c.is_manual && !c.finished && !c.assigned_user) department = c.department;
      } else if (event.type === 'set_manual') department = departmentId;
      if (!department) return;
      const departmentIdOf = department;
      void isDistributing(services().db, departmentIdOf)
        .then((on) => on && queue({ accountId, departmentId: departmentIdOf }))
        .catch((err: unknown) => services().log.warn({ err }, 'distribution setting not read'));
    },
    userConnected(accountId) {
      queue({ accountId });
    },
  };
}
