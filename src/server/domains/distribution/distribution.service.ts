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
import { type Actor, systemActor } from '../../access';
import type { RealtimeListener } from '../../realtime/port';
import type { Services } from '../../services';
import { loadConversations } from '../conversations/present';
import { distributionRepo as repo } from './distribution.repo';

export const DISTRIBUTE_JOB = 'distribute-conversations';
/** A department's conversations, or (no department) every distributing department of the account. */
export interface DistributeJob {
  accountId: string;
  departmentId?: string;
}

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
function assignBatch(services: Services, actor: Actor, departmentId: string, online: Set<string>) {
  return services.db.transaction(async (tx) => {
    await repo.lockDepartment(tx, departmentId);
    if (!(await repo.distributes(tx, actor, departmentId))) return [];
    // Read now: a role or a department list may have changed since they connected.
    const members = await repo.attendants(tx, actor, departmentId);
    const eligible = members.filter((id) => online.has(id));
    if (!eligible.length) return [];
    const waiting = await repo.waiting(tx, actor, departmentId, members, BATCH);
    if (!waiting.length) return [];
    const held = await repo.held(tx, actor, eligible);
    const loads: Load[] = eligible.map((userId) => {
      const h = held.find((r) => r.userId === userId);
      return { userId, open: h?.open ?? 0, last: h?.last ? new Date(h.last).getTime() : -1 };
    });
    const now = Date.now();
    const picks = waiting.map((conversationId, n) => {
      const to = leastBusy(loads);
      to.open += 1;
      to.last = now + n;
      return { conversationId, userId: to.userId };
    });
    await repo.assign(tx, actor, picks);
    return waiting;
  });
}

/** Assigns the department's waiting conversations to its online attendants; answers how many. */
export async function distributeDepartment(services: Services, accountId: string, departmentId: string) {
  const { db, realtime } = services;
  const actor = systemActor(accountId, 'distribution');
  let total = 0;
  for (;;) {
    if (!(await isDistributing(db, actor, departmentId))) return total;
    const online = await realtime.onlineUsers(accountId);
    if (!online.size) return total;
    const ids = await assignBatch(services, actor, departmentId, online);
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
  const waiting = job.accountId
    ? await repo.waitingDepartments(services.db, systemActor(job.accountId, 'distribution'))
    : await repo.waitingDepartmentsEverywhere(services.db);
  for (const d of waiting)
    await coalesced(services, d.departmentId, async () => {
      await distributeDepartment(services, d.accountId, d.departmentId);
    });
}

// Whether a department distributes, as this process last read it (a few seconds): the events of every
// conversation pass here, and only those of distributing departments queue a job. The sweep covers a
// setting switched on by another process meanwhile.
const SETTING_TTL_MS = 5000;
const settings = new Map<string, { on: boolean; until: number }>();

async function isDistributing(db: Services['db'], actor: Actor, departmentId: string) {
  const known = settings.get(departmentId);
  if (known && known.until > Date.now()) return known.on;
  const on = await repo.distributes(db, actor, departmentId);
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
      void isDistributing(services().db, systemActor(accountId, 'distribution'), departmentIdOf)
        .then((on) => on && queue({ accountId, departmentId: departmentIdOf }))
        .catch((err: unknown) => services().log.warn({ err }, 'distribution setting not read'));
    },
    userConnected(accountId) {
      queue({ accountId });
    },
  };
}
