// The access rule, as data: who may make a call and which departments' conversations they see. The server
// decides with it for every call and job (src/server/access.ts); the app asks the same functions to hide
// what the user cannot do, so the menu and the server never disagree.

import { ACCESS_AREAS, type AccessArea, type SystemUserRole, type UserRole } from '../constants';
import type { CallAccess, PlanFeature } from '../contract/define';

/** What the rule needs to know of a signed-in user. */
export interface AccessSubject {
  userRole: UserRole;
  accessAreas: readonly AccessArea[];
  departments: readonly string[];
  admin: boolean;
  systemUserRoles?: readonly SystemUserRole[];
}

/** The user as the contract answers it (the app's signed-in user): snake_case fields. */
export interface UserAnswerSubject {
  user_role: UserRole;
  departments: readonly string[];
  access_areas?: readonly AccessArea[];
  admin?: boolean;
  system_user_roles?: readonly SystemUserRole[];
}

/** The app's user answer as the rule's subject, so the app asks the very functions the server asks. */
export const subjectOfAnswer = (u: UserAnswerSubject): AccessSubject => ({
  userRole: u.user_role,
  departments: u.departments,
  accessAreas: u.access_areas ?? [],
  admin: u.admin ?? false,
  systemUserRoles: u.system_user_roles ?? [],
});

/**
 * The access areas a role can hold (spec 1 §6, spec 3 §6): owners and managers every area, attendants only
 * contacts (they work with contacts and conversations). The team dialog offers these, the server keeps only
 * these when it saves a user, and holdsArea ignores any other area a user was given earlier.
 */
export const areasForRole = (role: UserRole): readonly AccessArea[] =>
  role === 'user' ? ['contacts'] : ACCESS_AREAS;

/** The areas a new user of this role starts with: a manager sees everything, an attendant contacts. */
export const defaultAreas = (role: UserRole): AccessArea[] => [...areasForRole(role)];

/** The given areas the role can hold, once each, in the catalogue's order. */
export const areasHeldBy = (role: UserRole, areas: readonly AccessArea[]): AccessArea[] =>
  areasForRole(role).filter((a) => areas.includes(a));

/** Owners hold every access area; managers and attendants the ones they were given that their role can hold. */
export const holdsArea = (s: AccessSubject, area: AccessArea) =>
  s.userRole === 'owner' || (s.accessAreas.includes(area) && areasForRole(s.userRole).includes(area));

/** Whether the subject may make a call with this access definition. */
export function mayCall(s: AccessSubject, access: CallAccess): boolean {
  if (access.public) return true;
  if (access.admin && !s.admin) return false;
  if (access.systemRole && !s.systemUserRoles?.includes(access.systemRole)) return false;
  if (access.roles && !access.roles.includes(s.userRole)) return false;
  if (access.area && !holdsArea(s, access.area)) return false;
  return true;
}

/** What the account's plan includes (spec 3 §6 plan gates). */
export interface PlanSubject {
  campaignsEnabled: boolean;
  maxOfficialChannels: number;
  maxChannels: number;
}

/**
 * Whether the account's plan has the call's plan feature: 'campaigns' needs campaigns_enabled;
 * 'official-campaigns' needs campaigns_enabled and max_official_channels of at least 1; 'integrations'
 * (follow-ups, API, webhooks) needs max_channels above 1.
 */
export function planAllows(p: PlanSubject, access: { public?: boolean; plan?: PlanFeature }): boolean {
  if (access.public || !access.plan) return true;
  if (access.plan === 'campaigns') return p.campaignsEnabled;
  if (access.plan === 'integrations') return p.maxChannels > 1;
  return p.campaignsEnabled && p.maxOfficialChannels >= 1;
}

/** The plan subject of the app's signed-in user (its account as the contract answers it). */
export const planOfAnswer = (a: {
  campaigns_enabled: boolean;
  max_official_channels: number;
  max_channels: number;
}): PlanSubject => ({
  campaignsEnabled: a.campaigns_enabled,
  maxOfficialChannels: a.max_official_channels,
  maxChannels: a.max_channels,
});

/** The departments the subject is limited to, or null for every department of the account. */
export const departmentLimit = (
  s: Pick<AccessSubject, 'userRole' | 'departments'>,
): readonly string[] | null => (s.userRole === 'user' ? s.departments : null);

/** Owners and managers see every conversation of the account; attendants those of their departments. */
export function seesDepartment(
  s: Pick<AccessSubject, 'userRole' | 'departments'>,
  departmentId: string | null | undefined,
): boolean {
  const limit = departmentLimit(s);
  return limit === null || (departmentId != null && limit.includes(departmentId));
}

/**
 * Platform staff: the admin flag (account creation, acting as a customer) or a system role (the customers'
 * table, offers, dashboards). The call's own access says which of them it needs; staff act over every account.
 */
export const isPlatformStaff = (s: Pick<AccessSubject, 'admin' | 'systemUserRoles'>) =>
  s.admin || (s.systemUserRoles?.length ?? 0) > 0;

/** The account's public API and its key (spec 1 §6): a plan with more than one channel ('integrations'). */
export const planHasApi = (p: PlanSubject) => planAllows(p, { plan: 'integrations' });

/** Exporting contacts and reading the account's API key are for owners and managers. */
export const mayExportContacts = (s: Pick<AccessSubject, 'userRole'>) => s.userRole !== 'user';
export const seesApiKey = (s: Pick<AccessSubject, 'userRole'>) => s.userRole !== 'user';
