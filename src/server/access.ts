// The one access rule of the server. Every call and every job acts as an Actor: a signed-in user, or the
// system acting for one account (a job, a channel's inbound message). Account scope, role, access area and
// the attendant's departments are decided here and nowhere else; repositories take the actor, so a query
// by bare id, outside the actor's account or departments, cannot be written by accident.
import { type Column, inArray, type SQL, sql } from 'drizzle-orm';
import type { CallAccess } from '../shared/contract/define';
import { messages } from '../shared/messages';
import { departmentLimit, mayCall, seesDepartment } from '../shared/rules/access';
import type { AuthUser } from './domains/auth/auth.service';
import { AppError } from './http/errors';

export type Actor =
  | { kind: 'user'; accountId: string; userId: string; user: AuthUser }
  | {
      kind: 'system';
      accountId: string /** What acts: 'scheduler', 'pipeline', … (for logs). */;
      job: string;
    };

export const userActor = (user: AuthUser): Actor => ({
  kind: 'user',
  accountId: user.accountId,
  userId: user.id,
  user,
});

/** A job or a channel acting for one account: every department, no role, never another account. */
export const systemActor = (accountId: string, job: string): Actor => ({ kind: 'system', accountId, job });

/** The departments the actor is limited to, or null for every department of its account. */
export const actorDepartments = (actor: Actor): readonly string[] | null =>
  actor.kind === 'system' ? null : departmentLimit(actor.user);

export const actorSeesDepartment = (actor: Actor, departmentId: string | null | undefined) =>
  actor.kind === 'system' || seesDepartment(actor.user, departmentId);

/**
 * The SQL condition 'this department column is one the actor sees' (undefined: no limit). An attendant
 * without departments sees nothing: `false`, never an empty IN list.
 */
export function departmentCondition(actor: Actor, column: Column | SQL): SQL | undefined {
  const limit = actorDepartments(actor);
  if (limit === null) return undefined;
  if (limit.length === 0) return sql`false`;
  return inArray(column as Column, [...limit]);
}

/** Refuses a call the actor may not make (role, access area, admin flag). Jobs make no calls. */
export function assertMayCall(actor: Actor, access: CallAccess) {
  if (access.public) return;
  if (actor.kind === 'system' || !mayCall(actor.user, access)) {
    throw new AppError(messages.insufficientPermissions);
  }
}

/** A row the actor may not see is answered as missing: no hint that another account's id exists. */
export function assertSees(
  actor: Actor,
  row: { accountId: string; departmentId?: string | null } | null | undefined,
) {
  if (!row || row.accountId !== actor.accountId) throw new AppError(messages.notFound);
  if (row.departmentId !== undefined && !actorSeesDepartment(actor, row.departmentId)) {
    throw new AppError(messages.notFound);
  }
}
