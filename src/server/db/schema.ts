// Database schema (Drizzle). Ids are the spec's 28-character ids; `filed` is the soft delete of the spec.
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import type {
  AccessArea,
  ChipStatus,
  SubscriptionStatus,
  SystemUserRole,
  UserRole,
} from '../../shared/constants';

const id = (name = 'id') => varchar(name, { length: 28 });
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const accounts = pgTable('accounts', {
  id: id().primaryKey(),
  name: text('name').notNull(),
  campaignsEnabled: boolean('campaigns_enabled').notNull().default(false),
  maxChannels: integer('max_channels').notNull().default(1),
  maxOfficialChannels: integer('max_official_channels').notNull().default(0),
  maxUsers: integer('max_users').notNull().default(3),
  maxFlows: integer('max_flows').notNull().default(1),
  apiKey: text('api_key'),
  planId: text('plan_id'),
  subscriptionStatus: text('subscription_status').notNull().default('active'),
  customNegotiation: boolean('custom_negotiation').notNull().default(false),
  wabas: jsonb('wabas').$type<{ name: string; id: string }[]>().notNull().default([]),
  createdAt: createdAt(),
});

export const users = pgTable(
  'users',
  {
    id: id().primaryKey(),
    accountId: id('account_id')
      .notNull()
      .references(() => accounts.id),
    name: text('name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    profilePicture: text('profile_picture'),
    phone: text('phone').notNull().default(''),
    userRole: text('user_role').$type<UserRole>().notNull(),
    accessAreas: jsonb('access_areas').$type<AccessArea[]>().notNull().default([]),
    systemUserRoles: jsonb('system_user_roles').$type<SystemUserRole[]>().notNull().default([]),
    admin: boolean('admin').notNull().default(false),
    departments: jsonb('departments').$type<string[]>().notNull().default([]),
    disableNotificationSound: boolean('disable_notification_sound').notNull().default(false),
    userSignature: boolean('user_signature').notNull().default(false),
    filed: boolean('filed').notNull().default(false),
    createdAt: createdAt(),
  },
  // A deleted (filed) user frees the e-mail, so a returning attendant can be added again.
  (t) => [
    uniqueIndex('users_email_active_unique').on(sql`lower(${t.email})`).where(sql`${t.filed} = false`),
    index('users_account_idx').on(t.accountId),
  ],
);

export const departments = pgTable(
  'departments',
  {
    id: id().primaryKey(),
    accountId: id('account_id')
      .notNull()
      .references(() => accounts.id),
    name: text('name').notNull(),
    description: text('description'),
    filed: boolean('filed').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('departments_account_idx').on(t.accountId)],
);

export const tags = pgTable(
  'tags',
  {
    id: id().primaryKey(),
    accountId: id('account_id')
      .notNull()
      .references(() => accounts.id),
    name: text('name').notNull(),
    color: text('color').notNull(),
    autoTag: boolean('auto_tag').notNull().default(false),
    keywords: jsonb('keywords').$type<string[]>().notNull().default([]),
    filed: boolean('filed').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('tags_account_idx').on(t.accountId)],
);

export const quickMessages = pgTable(
  'quick_messages',
  {
    id: id().primaryKey(),
    accountId: id('account_id')
      .notNull()
      .references(() => accounts.id),
    shortcut: text('shortcut').notNull(),
    message: text('message').notNull(),
    filed: boolean('filed').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('quick_messages_account_idx').on(t.accountId)],
);

/** The shared part of a chip (spec 1 §3); the channels issue extends it. */
export const chips = pgTable(
  'chips',
  {
    id: id().primaryKey(),
    accountId: id('account_id')
      .notNull()
      .references(() => accounts.id),
    name: text('name').notNull(),
    status: text('status').$type<ChipStatus>().notNull().default('new'),
    official: boolean('official').notNull().default(false),
    waba: text('waba'),
    departmentId: id('department_id').references(() => departments.id),
    filed: boolean('filed').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('chips_account_idx').on(t.accountId)],
);

export const subscriptions = pgTable('subscriptions', {
  accountId: id('account_id')
    .primaryKey()
    .references(() => accounts.id),
  lastStatus: text('last_status').$type<SubscriptionStatus>().notNull().default('none'),
  invoices: jsonb('invoices')
    .$type<{ cycle: number; status: string; payment_url: string | null }[]>()
    .notNull()
    .default([]),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Sign-in sessions: the bearer token is stored only as its SHA-256. */
export const sessions = pgTable(
  'sessions',
  {
    id: id().primaryKey(),
    tokenHash: text('token_hash').notNull(),
    userId: id('user_id')
      .notNull()
      .references(() => users.id),
    /** Set when a platform admin signed in on the user's behalf. */
    actingAdminId: id('acting_admin_id').references(() => users.id),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('sessions_token_hash_unique').on(t.tokenHash), index('sessions_user_idx').on(t.userId)],
);

export const passwordResets = pgTable(
  'password_resets',
  {
    id: id().primaryKey(),
    tokenHash: text('token_hash').notNull(),
    userId: id('user_id')
      .notNull()
      .references(() => users.id),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('password_resets_token_hash_unique').on(t.tokenHash)],
);

/** Failed-login counters per key ('ip:…' or 'email:…') in a fixed window; shared by every server process. */
export const loginFailures = pgTable('login_failures', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
});

/**
 * Conversations (spec 2 §3). Issue 3 needs only the open-human count for the top-bar bell; the service
 * screen issue adds the contact table (and its foreign key), chatbots, flows and the last message.
 * Open means `finished_at` is null; human means `is_manual`.
 */
export const conversations = pgTable(
  'conversations',
  {
    id: id().primaryKey(),
    accountId: id('account_id')
      .notNull()
      .references(() => accounts.id),
    chipId: id('chip_id')
      .notNull()
      .references(() => chips.id),
    contactId: id('contact_id').notNull(),
    departmentId: id('department_id').references(() => departments.id),
    isManual: boolean('is_manual').notNull().default(false),
    /** Who answers when not manual: an AI chatbot or a flow chatbot (spec 2 §3 chatbot_type). */
    chatbotType: text('chatbot_type').$type<'chatbot' | 'flow_chatbot'>(),
    isNew: boolean('is_new').notNull().default(true),
    waitingResponse: boolean('waiting_response').notNull().default(false),
    /** Deadline of the provider's reply window (official channels). */
    contextWindow: timestamp('context_window', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('conversations_open_idx')
      .on(t.accountId, t.isManual, t.departmentId)
      .where(sql`${t.finishedAt} is null`),
    index('conversations_contact_idx').on(t.accountId, t.contactId),
  ],
);
