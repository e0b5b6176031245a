// Who may open what (spec 1 §2 and §6, spec 3 §2). The route table of the whole spec lives here, screens
// built or not, so a forbidden path is refused the same way before and after its screen exists.

import type { AccessArea, SystemUserRole, UserRole } from '@/shared/constants';
import type { User } from '@/shared/contract';
import { holdsArea, subjectOfAnswer } from '@/shared/rules/access';

export interface AccessRule {
  /** Access area the user must hold (owners hold every area). */
  area?: AccessArea;
  /** Roles allowed; all when absent. */
  roles?: readonly UserRole[];
  /** Platform staff role required. */
  systemRole?: SystemUserRole;
}

/** The spec's route names (spec 1 §2): where a redirect by name goes. */
export const ROUTE_NAMES = {
  Atendimento: '/atendimento',
  Templates: '/templates',
} as const;

const MANAGERS: readonly UserRole[] = ['owner', 'manager'];

/** First path segment → rule. Paths absent here are open to every signed-in user. */
export const ROUTE_ACCESS: Record<string, AccessRule> = {
  '/': { area: 'dashboard' },
  '/dash-tecnico': { systemRole: 'tech_dashboard' },
  '/dash-financeiro': { systemRole: 'financial_dashboard' },
  '/admin-clientes': { systemRole: 'customer_admin' },
  '/admin-ofertas': { systemRole: 'customer_admin' },
  '/api': { roles: MANAGERS, area: 'api' },
  '/webhooks': { roles: MANAGERS, area: 'api' },
  '/minha-conta': { roles: ['owner'] },
  '/chips': { area: 'chips' },
  '/meta-login': { area: 'chips' },
  '/chatbots': { area: 'chatbots' },
  '/flows': { area: 'flows' },
  '/contatos': { area: 'contacts' },
  '/mensagens-rapidas': { area: 'quick-messages' },
  '/tags': { area: 'tags' },
  '/departamentos': { area: 'departments' },
  '/equipe': { area: 'team' },
  '/audiencias': { area: 'campaigns' },
  '/campanhas': { area: 'campaigns' },
  '/campanhas-api-oficial': { area: 'campaigns' },
  '/templates': { area: 'campaigns' },
  '/auto-follow-ups': { area: 'follow-ups' },
};

export const hasArea = (user: User, area: AccessArea) => holdsArea(subjectOfAnswer(user), area);

/** The same check the server makes on each call (access areas as granted in the team screen). */
export function canAccess(user: User, rule: AccessRule | undefined) {
  if (!rule) return true;
  if (rule.roles && !rule.roles.includes(user.user_role)) return false;
  if (rule.area && !hasArea(user, rule.area)) return false;
  if (rule.systemRole && !user.system_user_roles.includes(rule.systemRole)) return false;
  return true;
}

/** The rule of a path, by its first segment ('/webhooks/abc' → '/webhooks'). */
export function ruleForPath(pathname: string): AccessRule | undefined {
  const first = `/${pathname.split('/')[1] ?? ''}`;
  return ROUTE_ACCESS[first];
}

export const canOpen = (user: User, pathname: string) => canAccess(user, ruleForPath(pathname));

/** Where a user lands after sign-in: attendants on Atendimento, owners and managers on the Dashboard. */
export function homePath(user: User): string {
  if (user.user_role === 'user' || !canOpen(user, '/')) return ROUTE_NAMES.Atendimento;
  return '/';
}

/** A same-site path to return to after sign-in, or null (never another origin). */
export function safeRedirect(value: unknown): string | null {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//')) return null;
  if (value.includes('\\')) return null;
  return value;
}
