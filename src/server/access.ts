// The one access rule of the server. Every call and every job acts as an Actor: a signed-in user, the
// public API's caller (the account's key), or the system acting for one account (a job, a channel's inbound
// message); platform staff in /admin act as a StaffActor over every account. Account scope, role, access
// area and the attendant's departments are decided here and nowhere else; repositories take the actor, so a
// query by bare id, outside the actor's account or departments, cannot be written by accident.
import { type Column, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { CallAccess } from '../shared/contract/define';
import { messages } from '../shared/messages';
import { campaignMessages } from '../shared/messages-campaigns';
import {
  departmentLimit,
  isPlatformStaff,
  mayCall,
  mayExportContacts,
  planAllows,
  seesDepartment,
} from '../shared/rules/access';
import type { AccountRow, UserRow } from './db/rows';
import { contacts, conversations } from './db/schema';
import { AppError } from './http/errors';

/** A signed-in user as every call sees her: her row, her account, and the admin acting as her, if any. */
export type AuthUser = UserRow & { account: AccountRow; actingAdminId: string | null };

/** Who acts inside one account. */
export type Actor =
  | { kind: 'user'; accountId: string; userId: string; user: AuthUser }
  /** The public API and the outbound integrations, authenticated by the account's key: the whole account. */
  | { kind: 'apiKey'; accountId: string }
  | {
      kind: 'system';
      accountId: string /** What acts: 'scheduler', 'pipeline', … (for logs). */;
      job: string;
    };

/** A signed-in user acting in her account: what a service that records who did it (a message's author) takes. */
export type UserActor = Extract<Actor, { kind: 'user' }>;

/** Platform staff (the admin flag or a system role) in /admin: every account, and only the admin calls. */
export interface StaffActor {
  kind: 'staff';
  userId: string;
  user: AuthUser;
}

export const userActor = (user: AuthUser): UserActor => ({
  kind: 'user',
  accountId: user.accountId,
  userId: user.id,
  user,
});

/** A job or a channel acting for one account: every department, no role, never another account. */
export const systemActor = (accountId: string, job: string): Actor => ({ kind: 'system', accountId, job });

/** The public API's caller, once its key named the account. */
export const apiKeyActor = (accountId: string): Actor => ({ kind: 'apiKey', accountId });

/** A signed-in member of the platform staff (shared rule isPlatformStaff); anyone else is refused. */
export function staffActor(user: AuthUser): StaffActor {
  if (!isPlatformStaff(user)) throw new AppError(messages.insufficientPermissions);
  return { kind: 'staff', userId: user.id, user };
}

/**
 * The platform acting on its own, over no single account: the billing webhook (Guru, authenticated by its own
 * token) keeping the ledger and finding which account a sale belongs to. Its effects on an account act as
 * that account's system actor.
 */
export interface PlatformJob {
  kind: 'platformJob';
  job: string;
}

export const platformJob = (job: string): PlatformJob => ({ kind: 'platformJob', job });

/** The departments the actor is limited to, or null for every department of its account. */
export const actorDepartments = (actor: Actor): readonly string[] | null =>
  actor.kind === 'user' ? departmentLimit(actor.user) : null;

export const actorSeesDepartment = (actor: Actor, departmentId: string | null | undefined) =>
  actor.kind !== 'user' || seesDepartment(actor.user, departmentId);

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

/** Refuses a call the actor may not make (role, access area, admin flag, plan). Jobs make no calls. */
export function assertMayCall(actor: Actor, access: CallAccess) {
  if (access.public) return;
  if (actor.kind !== 'user' || !mayCall(actor.user, access)) {
    throw new AppError(messages.insufficientPermissions);
  }
  if (!planAllows(actor.user.account, access))
    throw new AppError(
      access.plan === 'official-campaigns'
        ? campaignMessages.officialNotInPlan
        : access.plan === 'integrations'
          ? campaignMessages.integrationsNotInPlan
          : campaignMessages.campaignsNotInPlan,
    );
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

/**
 * The departments a list is narrowed to: the ones asked for (null: all), within the actor's own. Answers
 * null for 'every department of the account'; an empty list means the actor sees none of those asked.
 */
export function narrowDepartments(actor: Actor, wanted: readonly string[] | null): string[] | null {
  const limit = actorDepartments(actor);
  if (limit === null) return wanted ? [...wanted] : null;
  return (wanted ?? limit).filter((d) => limit.includes(d));
}

/**
 * The contacts the actor may reach, as SQL on `contacts` (undefined: every contact of the account). An
 * attendant reaches contacts with a conversation in her departments, and contacts nobody has talked to
 * yet (imported ones), which belong to no department.
 */
export function contactReachCondition(actor: Actor): SQL | undefined {
  const limit = actorDepartments(actor);
  if (limit === null) return undefined;
  const anyConversation = sql`exists (select 1 from ${conversations} where ${conversations.contactId} = ${contacts.id})`;
  if (!limit.length) return sql`not ${anyConversation}`;
  return or(
    sql`not ${anyConversation}`,
    sql`exists (select 1 from ${conversations} where ${conversations.contactId} = ${contacts.id} and ${inArray(conversations.departmentId, [...limit])})`,
  );
}

/** Exporting the contact list is for owners and managers (spec 2 §6). */
export function assertMayExportContacts(actor: Actor) {
  if (actor.kind !== 'user' || !mayExportContacts(actor.user)) {
    throw new AppError(messages.exportNotAuthorized);
  }
}

/**
 * Owners and managers: every department of the account is theirs to see and to arrange (who would be left
 * without one when a department goes). Attendants, jobs and the API key are not asked such questions.
 */
export const actorManagesDepartments = (actor: Actor) =>
  actor.kind === 'user' && actorDepartments(actor) === null;
