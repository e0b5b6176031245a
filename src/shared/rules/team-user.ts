import type { AccessArea } from '../constants';
import { MIN_PASSWORD_LENGTH } from '../constants';
import { messages } from '../messages';
import { areasHeldBy } from './access';
import { type FieldError, fieldError } from './field-error';

/** Roles the team screen can give: there is one owner per account, made with the account. */
export const TEAM_ROLES = ['manager', 'user'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

export interface TeamUserInput {
  name: string;
  email: string;
  user_role: string;
  departments: string[];
  access_areas: AccessArea[];
  /** Only on creation. */
  password?: string;
}

export interface TeamUser {
  name: string;
  email: string;
  user_role: TeamRole;
  departments: string[];
  access_areas: AccessArea[];
}

/** The team dialog's fields a rule can point at ('form': the form as a whole). */
export type TeamUserField = 'email' | 'role' | 'departments' | 'password' | 'form';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Team rules (spec 1 §5). Departments belong to agents only; a manager's are cleared. Access areas the role
 * cannot hold (spec 1 §6: an attendant works with contacts only) are dropped, as a manager's departments are.
 */
export function prepareTeamUser(
  input: TeamUserInput,
  mode: 'create' | 'update',
): { ok: true; user: TeamUser } | { ok: false; error: FieldError<TeamUserField> } {
  const fail = (field: TeamUserField, message: string) => ({
    ok: false as const,
    error: fieldError(field, message),
  });
  const name = input.name.trim();
  const email = input.email.trim().toLowerCase();
  if (!name || !email || !input.user_role) return fail('form', messages.teamAllFieldsRequired);
  if (!EMAIL.test(email)) return fail('email', messages.emailInvalid);
  if (!(TEAM_ROLES as readonly string[]).includes(input.user_role))
    return fail('role', messages.teamRoleInvalid);
  const role = input.user_role as TeamRole;
  const departments = role === 'user' ? [...new Set(input.departments)] : [];
  if (role === 'user' && departments.length === 0)
    return fail('departments', messages.teamDepartmentRequired);
  if (mode === 'create' && (input.password ?? '').length < MIN_PASSWORD_LENGTH) {
    return fail('password', messages.teamPasswordTooShort);
  }
  return {
    ok: true,
    user: { name, email, user_role: role, departments, access_areas: areasHeldBy(role, input.access_areas) },
  };
}
