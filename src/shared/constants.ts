// Business constants of spec 1 §9 and spec 3 §9.

export const MIN_PASSWORD_LENGTH = 6;
export const DEFAULT_TAG_COLOR = '#00FF00';
export const DEFAULT_COUNTRY_CODE = '55';
export const PAGE_SIZE = 10;
export const SEARCH_DELAY_MS = 1000;
export const CHIP_POLL_DRAWER_MS = 30_000;
export const CHIP_POLL_TOPBAR_MS = 120_000;
export const SUBSCRIPTION_CHECK_MS = 3 * 60 * 60 * 1000;
export const TOPBAR_MAX_CHIPS = 5;
export const BADGE_CAP = 9;
export const SOCKET_RETRY_LIMIT = 3;
export const socketRetryDelayMs = (attempt: number) => 500 + 2000 * attempt;
export const PROFILE_PICTURE_MAX_BYTES = 2 * 1024 * 1024;
export const PREVIEW_LENGTH = 60;
export const ID_LENGTH = 28;

export const SESSION_TTL_REMEMBER_MS = 30 * 24 * 60 * 60 * 1000;
export const SESSION_TTL_SHORT_MS = 12 * 60 * 60 * 1000;
export const PASSWORD_RESET_TTL_MS = 60 * 60 * 1000;

export const USER_ROLES = ['owner', 'manager', 'user'] as const;
export type UserRole = (typeof USER_ROLES)[number];

export const ACCESS_AREAS = [
  'dashboard',
  'contacts',
  'campaigns',
  'chips',
  'chatbots',
  'flows',
  'follow-ups',
  'team',
  'tags',
  'departments',
  'quick-messages',
  'api',
] as const;
export type AccessArea = (typeof ACCESS_AREAS)[number];

export const SYSTEM_USER_ROLES = ['customer_admin', 'tech_dashboard', 'financial_dashboard'] as const;
export type SystemUserRole = (typeof SYSTEM_USER_ROLES)[number];

export const SUBSCRIPTION_STATUSES = [
  'none',
  'active',
  'canceled',
  'expired',
  'inactive',
  'pastdue',
  'started',
  'trial',
  'trial canceled',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const CHIP_STATUSES = ['new', 'close', 'open', 'connecting', 'configuring'] as const;
export type ChipStatus = (typeof CHIP_STATUSES)[number];

export const ROLE_LABELS: Record<UserRole, string> = {
  owner: 'Proprietário(a)',
  manager: 'Gerente',
  user: 'Atendente',
};
