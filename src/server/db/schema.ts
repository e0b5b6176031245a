// Database schema (Drizzle). Ids are the spec's 28-character ids; `filed` is the soft delete of the spec.
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import type {
  AccessArea,
  ChannelProvider,
  ChipRedirect,
  ChipStatus,
  MessageOrigin,
  MessageSource,
  MessageType,
  SubscriptionStatus,
  SystemUserRole,
  UserRole,
} from '../../shared/constants';
import type {
  OfficialTemplateRef,
  TemplateParameter,
  TemplatePayload,
} from '../../shared/contract/campaigns';
import type { ChatbotContext, ChatbotInstructions, ChatbotRedirect } from '../../shared/contract/chatbots';
import type { InteractiveMenu } from '../../shared/contract/common';
import type { FlowConnection, FlowContext, FlowNode as FlowNodeRow } from '../../shared/contract/flows';
import type { OutboundContent } from '../channels/content';

/** What a pending send hands the provider: the recipient as the provider names it, and the content. */
export interface OutboundRequest {
  to: string;
  content: OutboundContent;
  /**
   * Accepted, it answers the customer (a user's own message: answered.ts). Sends stored before this was
   * kept have none: a 'user' message answered then.
   */
  answers?: boolean;
}

const id = (name = 'id') => varchar(name, { length: 28 });
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
/** Set on insert and on every Drizzle update, by the database's clock (one clock for every server process). */
const changedAt = () =>
  timestamp('updated_at', { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => sql`now()`);

export const accounts = pgTable('accounts', {
  id: id().primaryKey(),
  name: text('name').notNull(),
  campaignsEnabled: boolean('campaigns_enabled').notNull().default(false),
  maxChannels: integer('max_channels').notNull().default(1),
  maxOfficialChannels: integer('max_official_channels').notNull().default(0),
  maxUsers: integer('max_users').notNull().default(3),
  maxFlows: integer('max_flows').notNull().default(1),
  /** Monthly AI summaries and AI follow-ups of the plan (spec 3 offer max_summaries, max_follow_ups). */
  maxSummaries: integer('max_summaries').notNull().default(100),
  maxFollowUps: integer('max_follow_ups').notNull().default(100),
  apiKey: text('api_key'),
  planId: text('plan_id'),
  subscriptionStatus: text('subscription_status').notNull().default('active'),
  customNegotiation: boolean('custom_negotiation').notNull().default(false),
  wabas: jsonb('wabas').$type<{ name: string; id: string }[]>().notNull().default([]),
  /** The account's clock (IANA zone): flows' opening hours are read in it. */
  timeZone: text('time_zone').notNull().default('America/Sao_Paulo'),
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
    /** Equal distribution (spec 3 §9): each conversation entering human service is assigned to an online attendant. */
    distribute: boolean('distribute').notNull().default(false),
    filed: boolean('filed').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('departments_account_idx').on(t.accountId),
    // One name per account, whatever its case (a filed department frees its name).
    uniqueIndex('departments_account_name_unique')
      .on(t.accountId, sql`lower(${t.name})`)
      .where(sql`${t.filed} = false`),
  ],
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
  (t) => [
    index('tags_account_idx').on(t.accountId),
    uniqueIndex('tags_account_name_unique')
      .on(t.accountId, sql`lower(${t.name})`)
      .where(sql`${t.filed} = false`),
  ],
);

/** Flow chatbots (spec 3 §3 Flow): the editor's graph, run by src/server/domains/flows/engine.ts. */
export const flows = pgTable(
  'flows',
  {
    id: id().primaryKey(),
    accountId: id('account_id')
      .notNull()
      .references(() => accounts.id),
    name: text('name').notNull(),
    nodes: jsonb('nodes').$type<FlowNodeRow[]>().notNull().default([]),
    connections: jsonb('connections').$type<FlowConnection[]>().notNull().default([]),
    trigger: boolean('trigger').notNull().default(false),
    keywords: jsonb('keywords').$type<string[]>().notNull().default([]),
    triggerHuman: boolean('trigger_human').notNull().default(false),
    disabledChips: jsonb('disabled_chips').$type<string[]>().notNull().default([]),
    filed: boolean('filed').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: changedAt(),
  },
  (t) => [
    index('flows_account_idx').on(t.accountId),
    // Keyword triggers are looked up on every customer message: only the account's triggered flows.
    index('flows_trigger_idx').on(t.accountId).where(sql`${t.trigger} = true and ${t.filed} = false`),
  ],
);

/** AI chatbots (spec 3 §3 Chatbot): a persona run by src/server/domains/chatbots/engine.ts. */
export const chatbots = pgTable(
  'chatbots',
  {
    id: id().primaryKey(),
    accountId: id('account_id')
      .notNull()
      .references(() => accounts.id),
    name: text('name').notNull(),
    temperature: real('temperature').notNull().default(0.3),
    responseDelay: integer('response_delay').notNull().default(2),
    redirect: text('redirect').$type<ChatbotRedirect>().notNull().default('human'),
    flowId: id('flow_id'),
    autoTransfer: boolean('auto_transfer').notNull().default(true),
    autoTransferIfMedia: boolean('auto_transfer_if_media').notNull().default(false),
    autoTransferMessage: text('auto_transfer_message').notNull().default(''),
    finishMessage: text('finish_message').notNull().default(''),
    instructions: jsonb('instructions').$type<ChatbotInstructions>().notNull(),
    /** The model it was created from, if any. */
    model: text('model'),
    filed: boolean('filed').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: changedAt(),
  },
  (t) => [index('chatbots_account_idx').on(t.accountId)],
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

/**
 * Channels (spec 3 §3 Chip). `provider` names the adapter in src/server/channels that talks to it;
 * `credentials` is that adapter's own state (a simulator link token, a Baileys session), never sent out.
 */
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
    provider: text('provider').$type<ChannelProvider>().notNull().default('simulator'),
    redirect: text('redirect').$type<ChipRedirect>().notNull().default('ai_chatbot'),
    /** The AI chatbot or flow that answers first (their tables come with those issues). */
    chatbotId: id('chatbot_id'),
    flowId: id('flow_id'),
    waba: text('waba'),
    departmentId: id('department_id').references(() => departments.id),
    displayPhoneNumber: text('display_phone_number'),
    phoneNumberQuality: text('phone_number_quality'),
    /** The Cloud API's phone number id: webhooks name the chip by it. */
    phoneNumberId: text('phone_number_id'),
    registered: boolean('registered').notNull().default(false),
    /** The QR code waiting to be scanned, while connecting. */
    qrcode: text('qrcode'),
    /** Why a QR number last closed on its own (logged out on the phone…), in pt-BR; cleared when it opens. */
    statusReason: text('status_reason'),
    active: boolean('active').notNull().default(false),
    reset: boolean('reset').notNull().default(false),
    changed: boolean('changed').notNull().default(false),
    dailyLimit: integer('daily_limit'),
    /** Official numbers: messages per second the provider allows this number (Cloud API: 80 by default). */
    throughput: integer('throughput').notNull().default(80),
    credentials: jsonb('credentials').$type<Record<string, unknown>>().notNull().default({}),
    filed: boolean('filed').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('chips_account_idx').on(t.accountId),
    uniqueIndex('chips_phone_number_id_unique')
      .on(t.phoneNumberId)
      .where(sql`${t.phoneNumberId} is not null and ${t.filed} = false`),
  ],
);

/** Contacts (spec 2 §3). `phone` is digits with the country code (E.164 without '+'); one per account. */
export const contacts = pgTable(
  'contacts',
  {
    id: id().primaryKey(),
    accountId: id('account_id')
      .notNull()
      .references(() => accounts.id),
    name: text('name').notNull().default(''),
    overrideName: text('override_name'),
    phone: text('phone').notNull(),
    tags: jsonb('tags').$type<string[]>().notNull().default([]),
    ignore: boolean('ignore').notNull().default(false),
    profilePicture: text('profile_picture'),
    /** The provider's id of the contact (a WhatsApp wa_id or jid). */
    channelContactId: text('channel_contact_id'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    annotations: jsonb('annotations')
      .$type<{ user: string | null; created: string; text: string }[]>()
      .notNull()
      .default([]),
    filed: boolean('filed').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('contacts_account_phone_unique').on(t.accountId, t.phone).where(sql`${t.filed} = false`),
    index('contacts_account_created_idx').on(t.accountId, t.createdAt),
  ],
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
 * Conversations (spec 2 §3). Open means `finished_at` is null; human means `is_manual`. A contact has at
 * most one open conversation per chip, which the partial unique index guarantees even when two inbound
 * messages arrive at once.
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
    contactId: id('contact_id')
      .notNull()
      .references(() => contacts.id),
    departmentId: id('department_id').references(() => departments.id),
    isManual: boolean('is_manual').notNull().default(false),
    /** Who answers when not manual: an AI chatbot or a flow chatbot (spec 2 §3 chatbot_type). */
    chatbotType: text('chatbot_type').$type<'chatbot' | 'flow_chatbot'>(),
    chatbotId: id('chatbot_id'),
    flowId: id('flow_id'),
    isNew: boolean('is_new').notNull().default(true),
    waitingResponse: boolean('waiting_response').notNull().default(false),
    autoFollowUp: boolean('auto_follow_up').notNull().default(true),
    /** whatsapp_api_oficial for official channels, null otherwise. */
    channelType: text('channel_type'),
    /** Deadline of the provider's reply window (official channels). */
    contextWindow: timestamp('context_window', { withTimezone: true }),
    /** A flow run is to begin from its start node (the flow engine's next step starts a new run). */
    startFlow: boolean('start_flow').notNull().default(false),
    lastMessageId: id('last_message_id'),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }),
    /**
     * When the business's last message, still unanswered, was stored (null: nothing awaits a reply): written
     * with the message (append.repo.ts). The follow-up engine's own state is in follow_up_runs.
     */
    followUpAnchor: timestamp('follow_up_anchor', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /**
     * When it first went to human service (is_manual), never cleared: the dashboards count it as human. Kept
     * by the database itself (trigger conversations_human_at, migration 0020), whoever sets is_manual.
     */
    humanAt: timestamp('human_at', { withTimezone: true }),
    /**
     * Who holds it under equal distribution (domains/distribution), and since when. Cleared by the database
     * (trigger conversations_assignee, migration 0026) when it leaves human service or its department.
     */
    assignedUserId: id('assigned_user_id').references(() => users.id),
    assignedAt: timestamp('assigned_at', { withTimezone: true }),
    createdAt: createdAt(),
    // Every change moves it, on the database's clock (the catch-up's cursor, get-changes-since).
    updatedAt: changedAt(),
  },
  (t) => [
    index('conversations_changes_idx').on(t.accountId, t.updatedAt, t.id),
    index('conversations_open_idx')
      .on(t.accountId, t.isManual, t.departmentId)
      .where(sql`${t.finishedAt} is null`),
    index('conversations_contact_idx').on(t.accountId, t.contactId),
    index('conversations_assigned_open_idx')
      .on(t.assignedUserId, t.assignedAt)
      .where(sql`${t.finishedAt} is null and ${t.assignedUserId} is not null`),
    uniqueIndex('conversations_open_unique').on(t.chipId, t.contactId).where(sql`${t.finishedAt} is null`),
    index('conversations_follow_up_idx')
      .on(t.followUpAnchor)
      .where(sql`${t.followUpAnchor} is not null and ${t.finishedAt} is null`),
    // The dashboards (domains/dashboard): one account's interval, and every account's (technical dashboard).
    index('conversations_account_created_idx').on(t.accountId, t.createdAt),
    index('conversations_created_idx').on(t.createdAt),
  ],
);

/**
 * Messages (spec 2 §3). Two unique keys make retries harmless: the app's `message_id` (one send however
 * often it is repeated) and the provider's id per chip (a replayed webhook stores nothing new).
 * status: 0 pending, 1 sent to the provider, 2 delivered (server), 3 delivered, 4 read; -1 failed.
 */
export const messages = pgTable(
  'messages',
  {
    id: id().primaryKey(),
    accountId: id('account_id')
      .notNull()
      .references(() => accounts.id),
    conversationId: id('conversation_id')
      .notNull()
      .references(() => conversations.id),
    chipId: id('chip_id')
      .notNull()
      .references(() => chips.id),
    origin: text('origin').$type<MessageOrigin>().notNull(),
    /** The engine behind a message of origin 'chatbot' (flow, AI chatbot, public API, follow-up). */
    source: text('source').$type<MessageSource>(),
    /** An audio's length in seconds (the list's preview), when its file says. */
    audioSeconds: integer('audio_seconds'),
    /** When an attendant typed a send that waited on the device (offline): the time its bubble shows. */
    typedAt: timestamp('typed_at', { withTimezone: true }),
    type: text('type').$type<MessageType>().notNull(),
    message: text('message').notNull().default(''),
    mediaUrl: text('media_url'),
    fileName: text('file_name'),
    /** Audio sent as a voice note (push to talk): the customer's app shows it as recorded, not as a file. */
    ptt: boolean('ptt').notNull().default(false),
    canonicalUrl: text('canonical_url'),
    deleted: boolean('deleted').notNull().default(false),
    status: integer('status').notNull().default(0),
    /** Why a send failed, in pt-BR. */
    failure: text('failure'),
    userId: id('user_id').references(() => users.id),
    messageId: text('message_id'),
    platformMessageId: text('platform_message_id'),
    event: text('event'),
    replyMessage: jsonb('reply_message').$type<{
      type: string;
      message: string;
      media?: string | null;
      forwarded?: boolean;
    }>(),
    location: jsonb('location').$type<{ latitude: number; longitude: number; name?: string }>(),
    /** A menu sent by a flow (quick replies or a list): the options the customer can tap. */
    interactive: jsonb('interactive').$type<InteractiveMenu>(),
    /**
     * A send in progress (status pending): the provider request as it goes out, kept so a send cut off by a
     * crash is resumed as it was; cleared once the outcome is recorded.
     */
    outbound: jsonb('outbound').$type<OutboundRequest>(),
    /** Claims of the send so far (the first send, then each resume after a crash). */
    sendAttempts: integer('send_attempts').notNull().default(0),
    /** The current claim holds the send until then; after it, the send is taken as cut off and resumed. */
    sendLeaseUntil: timestamp('send_lease_until', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: changedAt(),
  },
  (t) => [
    index('messages_changes_idx').on(t.accountId, t.updatedAt, t.id),
    // The send sweep looks at pending sends only: a small partial index, however large the table.
    index('messages_pending_send_idx').on(t.createdAt).where(sql`${t.status} = 0`),
    index('messages_conversation_idx').on(t.conversationId, t.createdAt),
    uniqueIndex('messages_local_id_unique')
      .on(t.accountId, t.messageId)
      .where(sql`${t.messageId} is not null`),
    uniqueIndex('messages_platform_id_unique')
      .on(t.chipId, t.platformMessageId)
      .where(sql`${t.platformMessageId} is not null`),
    // The technical dashboard: every account's messages of an interval, by origin.
    index('messages_created_idx').on(t.createdAt, t.origin),
  ],
);

/**
 * Notifications a provider pushed to us (Cloud API webhooks), kept until handled: the webhook answers 200
 * only after the row is stored, and a restart handles what was left. Handling is idempotent (messages are
 * unique per provider id), so handling a row twice stores nothing twice.
 */
export const channelInbox = pgTable(
  'channel_inbox',
  {
    id: id().primaryKey(),
    provider: text('provider').$type<ChannelProvider>().notNull(),
    body: jsonb('body').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
  },
  (t) => [index('channel_inbox_pending_idx').on(t.receivedAt).where(sql`${t.processedAt} is null`)],
);

/**
 * The account's media library (spec 2 §2.5, §3 Media): files stored once under a generated name and sent
 * into any conversation by their URL. `ptt` marks a recorded voice message. Deleting removes the row; the
 * file stays while a sent message still shows it.
 */
export const mediaLibrary = pgTable(
  'media_library',
  {
    id: id().primaryKey(),
    accountId: id('account_id')
      .notNull()
      .references(() => accounts.id),
    userId: id('user_id').references(() => users.id),
    type: text('type').$type<'image' | 'audio' | 'video' | 'document'>().notNull(),
    name: text('name').notNull(),
    url: text('url').notNull(),
    mime: text('mime').notNull(),
    size: integer('size').notNull(),
    ptt: boolean('ptt').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('media_library_account_idx').on(t.accountId, t.type, t.createdAt)],
);

/**
 * Scheduled individual messages (spec 2 §3, §2.4). The job (src/server/jobs/scheduled-messages.ts) claims a
 * due row by setting status 'sending' with a lease; a process that dies mid-send leaves the lease to run out
 * and another claim takes it again. The send itself is idempotent on the message_id `sched-<id>`, so a
 * re-send after a crash between the provider call and the status update sends nothing twice.
 * status: scheduled → sending → sent | error.
 */
export const scheduledMessages = pgTable(
  'scheduled_messages',
  {
    id: id().primaryKey(),
    accountId: id('account_id')
      .notNull()
      .references(() => accounts.id),
    /** Who scheduled it: the message is sent in their name. */
    userId: id('user_id')
      .notNull()
      .references(() => users.id),
    chipId: id('chip_id')
      .notNull()
      .references(() => chips.id),
    /** Digits with the country code. */
    to: text('to').notNull(),
    type: text('type').$type<'text' | 'flow'>().notNull(),
    message: text('message').notNull().default(''),
    flowId: id('flow_id'),
    template: jsonb('template').$type<{ name: string; language: string; preview: string }>(),
    scheduledTo: timestamp('scheduled_to', { withTimezone: true }).notNull(),
    status: text('status').$type<'scheduled' | 'sending' | 'sent' | 'error'>().notNull().default('scheduled'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    failure: text('failure'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    filed: boolean('filed').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('scheduled_messages_account_idx').on(t.accountId, t.scheduledTo),
    index('scheduled_messages_due_idx')
      .on(t.scheduledTo)
      .where(sql`${t.status} in ('scheduled', 'sending') and ${t.filed} = false`),
  ],
);

/** AI summaries and follow-ups used per account and calendar month (UTC, 'YYYY-MM'): a new month starts at 0. */
export const aiUsage = pgTable(
  'ai_usage',
  {
    accountId: id('account_id')
      .notNull()
      .references(() => accounts.id),
    month: text('month').notNull(),
    summaries: integer('summaries').notNull().default(0),
    followUps: integer('follow_ups').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.month] })],
);

/**
 * An engine's state for one conversation (issue 36 item 4; domains/conversations/engine-run.ts runs all three):
 * where it stands (`position`), the claim of the process running it (`lease_until`: one runner at a time,
 * across processes; its value names the holder) and when it wants to run again (`wake_at`, which its sweep
 * reads). One table per engine, of one shape; a row appears on the engine's first claim.
 */
const engineRuns = <P>(name: string) =>
  pgTable(
    name,
    {
      conversationId: id('conversation_id')
        .primaryKey()
        .references(() => conversations.id),
      accountId: id('account_id')
        .notNull()
        .references(() => accounts.id),
      position: jsonb('position').$type<P>(),
      leaseUntil: timestamp('lease_until', { withTimezone: true }),
      wakeAt: timestamp('wake_at', { withTimezone: true }),
    },
    (t) => [index(`${name}_wake_idx`).on(t.wakeAt)],
  );

/** The flow engine's position in its run (the node, the step, what it waits for). */
export const flowRuns = engineRuns<FlowContext>('flow_runs');
/** Where the AI chatbot stands: the last customer message answered, failed tries. */
export const chatbotRuns = engineRuns<ChatbotContext>('chatbot_runs');
/** The follow-up engine's position: the anchor it counts from (ISO, to the millisecond), the last step sent (0 to 3) and when. */
export interface FollowUpPosition {
  anchor: string;
  step: number;
  last_at: string | null;
}
/** The last follow-up sent for the conversation's anchor; wake_at caches when the next one is due. */
export const followUpRuns = engineRuns<FollowUpPosition>('follow_up_runs');

/**
 * An AI request running for a conversation ('summary' or 'follow_up'): the primary key lets one run at a
 * time, whichever tab or server process asks. A row older than the provider's timeout is a crashed run.
 */
export const aiRuns = pgTable(
  'ai_runs',
  {
    conversationId: id('conversation_id')
      .notNull()
      .references(() => conversations.id),
    kind: text('kind').$type<'summary' | 'follow_up'>().notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.conversationId, t.kind] })],
);

/** Web Push (issue 7): the server's VAPID key pair, made at first start (one row, id 'vapid'). */
export const pushKeys = pgTable('push_keys', {
  id: text('id').primaryKey(),
  publicKey: text('public_key').notNull(),
  privateKey: text('private_key').notNull(),
  createdAt: createdAt(),
});

/** A browser's push subscription, per user and device (its endpoint names the device). */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: id().primaryKey(),
    accountId: id('account_id')
      .notNull()
      .references(() => accounts.id),
    userId: id('user_id')
      .notNull()
      .references(() => users.id),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('push_subscriptions_endpoint_unique').on(t.endpoint),
    index('push_subscriptions_user_idx').on(t.userId),
  ],
);

/** A spreadsheet's people for campaigns (spec 3 §3 Audience); the people are rows of audience_people. */
export const audiences = pgTable(
  'audiences',
  {
    id: id().primaryKey(),
    accountId: id('account_id')
      .notNull()
      .references(() => accounts.id),
    name: text('name').notNull(),
    /** The sheet's columns, telefone first. */
    props: jsonb('props').$type<string[]>().notNull().default([]),
    createContacts: boolean('create_contacts').notNull().default(true),
    peopleCount: integer('people_count').notNull().default(0),
    filed: boolean('filed').notNull().default(false),
    createdAt: createdAt(),
    /**
     * The row whose audience_people are this audience's people: the row of its last import; null, its own rows
     * (audiences imported before imports were written in pieces).
     */
    peopleFrom: id('people_from').references((): AnyPgColumn => audiences.id),
    /**
     * On an import's row, the audience the import is for (issue 37). Such a row is no audience: it is filed, so
     * nothing lists or takes it, and it holds the import's people while they are written in pieces; when the
     * last piece is in, the audience's people_from points at it, and the audience has them all at once.
     */
    importFor: id('import_for'),
  },
  (t) => [index('audiences_account_idx').on(t.accountId, t.createdAt)],
);

export const audiencePeople = pgTable(
  'audience_people',
  {
    audienceId: id('audience_id')
      .notNull()
      .references(() => audiences.id),
    /** Digits with the country code, once per audience. */
    phone: text('phone').notNull(),
    /** The sheet's other columns: the message variables. */
    data: jsonb('data').$type<Record<string, string>>().notNull().default({}),
    /** The sheet's order. */
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.audienceId, t.phone] })],
);

/** A mass sending on an unofficial chip (spec 3 §3 Campaign); its people are rows of campaign_recipients. */
export const campaigns = pgTable(
  'campaigns',
  {
    id: id().primaryKey(),
    accountId: id('account_id')
      .notNull()
      .references(() => accounts.id),
    /** Who created it: the messages are sent in their name. */
    userId: id('user_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    chipId: id('chip_id')
      .notNull()
      .references(() => chips.id),
    audienceType: text('audience_type').$type<'audience' | 'tags'>().notNull(),
    audienceId: id('audience_id'),
    audienceTags: jsonb('audience_tags').$type<string[]>().notNull().default([]),
    audienceTagsSkip: jsonb('audience_tags_skip').$type<string[]>().notNull().default([]),
    messageType: text('message_type').$type<'text' | 'flow'>().notNull(),
    /** The text versions. */
    versions: jsonb('versions').$type<string[]>().notNull().default([]),
    flowId: id('flow_id'),
    intervalSeconds: integer('interval_seconds').notNull(),
    /** Null: 'Imediato' (due at creation). */
    scheduledTo: timestamp('scheduled_to', { withTimezone: true }),
    status: text('status')
      .$type<'scheduled' | 'started' | 'finished' | 'canceled' | 'error'>()
      .notNull()
      .default('scheduled'),
    sentMessages: integer('sent_messages').notNull().default(0),
    failedMessages: integer('failed_messages').notNull().default(0),
    peopleCount: integer('people_count').notNull().default(0),
    cancelNow: boolean('cancel_now').notNull().default(false),
    paused: boolean('paused').notNull().default(false),
    failure: text('failure'),
    /** When the next person is due: the pacing's plan. */
    nextSendAt: timestamp('next_send_at', { withTimezone: true }),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true }),
    /** One process sends for a campaign at a time. */
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    official: boolean('official').notNull().default(false),
    // Official campaigns (spec 3 §3 Official campaign extras): a template with its parameters and buttons.
    /** The approved template sent: its name, language and components as listed when saved. */
    template: jsonb('template').$type<OfficialTemplateRef | null>(),
    templateParameters: jsonb('template_parameters').$type<TemplateParameter[]>().notNull().default([]),
    templatePayloads: jsonb('template_payloads').$type<TemplatePayload[]>().notNull().default([]),
    conversationCreationRule: text('conversation_creation_rule').$type<'all' | 'on_response'>(),
    redirect: text('redirect').$type<ChipRedirect>(),
    chatbotId: id('chatbot_id'),
    departmentId: id('department_id'),
    filed: boolean('filed').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('campaigns_account_idx').on(t.accountId, t.createdAt),
    index('campaigns_chip_idx').on(t.chipId, t.status),
  ],
);

/** One person of a campaign: sent at most once (its message_id is derived from this row). */
export const campaignRecipients = pgTable(
  'campaign_recipients',
  {
    campaignId: id('campaign_id')
      .notNull()
      .references(() => campaigns.id),
    /** The sending order. */
    seq: integer('seq').notNull(),
    phone: text('phone').notNull(),
    /** The audience's variables for this person. */
    data: jsonb('data').$type<Record<string, string>>().notNull().default({}),
    /** The text version drawn for this person (index into campaigns.versions). */
    version: integer('version').notNull().default(0),
    status: text('status')
      .$type<'waiting' | 'sending' | 'sent' | 'error' | 'skipped'>()
      .notNull()
      .default('waiting'),
    contactId: id('contact_id'),
    conversationId: id('conversation_id'),
    /** The stored message sent to this person (messages.id). */
    messageId: id('message_id'),
    plannedAt: timestamp('planned_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    failure: text('failure'),
    // Official campaigns: the delivery data of each person (spec 3 delivery_data), from the status webhooks.
    /** The provider's message id (wamid), also found by biz_opaque_callback_data after a crash. */
    platformMessageId: text('platform_message_id'),
    /** Sends tried (rate limits and provider errors put the person back with a later planned_at). */
    attempts: integer('attempts').notNull().default(0),
    /** A claim for one send: the holder of an unexpired claim is talking to the provider. */
    claimUntil: timestamp('claim_until', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    readAt: timestamp('read_at', { withTimezone: true }),
    repliedAt: timestamp('replied_at', { withTimezone: true }),
    /** The quick-reply button the person tapped (its text). */
    clickedButton: text('clicked_button'),
    /** The provider's error code of a failed send or a failed status. */
    failureCode: integer('failure_code'),
    /** The pricing category of the status webhooks (marketing, utility, authentication, service…). */
    pricingCategory: text('pricing_category'),
  },
  (t) => [
    primaryKey({ columns: [t.campaignId, t.phone] }),
    uniqueIndex('campaign_recipients_seq_unique').on(t.campaignId, t.seq),
    index('campaign_recipients_status_idx').on(t.campaignId, t.status, t.seq),
    index('campaign_recipients_wamid_idx')
      .on(t.platformMessageId)
      .where(sql`${t.platformMessageId} is not null`),
  ],
);

/** One message of an automatic follow-up (spec 3 §3): sent `time` `unit` after the previous one. */
export interface FollowUpMessageRow {
  enabled: boolean;
  text: string;
  time: number;
  unit: 'minutes' | 'hours';
}

/**
 * A chip's automatic follow-up setting (spec 3 §2.12, §3 Auto follow-up per chip): one per chip. The hours
 * are the account's time zone's; `messages` holds message_1 to message_3 in order.
 */
export const followUpSettings = pgTable(
  'follow_up_settings',
  {
    id: id().primaryKey(),
    accountId: id('account_id')
      .notNull()
      .references(() => accounts.id),
    chipId: id('chip_id')
      .notNull()
      .references(() => chips.id),
    enabled: boolean('enabled').notNull().default(false),
    types: jsonb('types').$type<('ai_chatbot' | 'flow_chatbot' | 'human')[]>().notNull().default([]),
    startTime: integer('start_time').notNull().default(8),
    endTime: integer('end_time').notNull().default(18),
    messages: jsonb('messages').$type<FollowUpMessageRow[]>().notNull().default([]),
    createdAt: createdAt(),
    updatedAt: changedAt(),
  },
  (t) => [
    uniqueIndex('follow_up_settings_chip_unique').on(t.chipId),
    index('follow_up_settings_account_idx').on(t.accountId),
  ],
);

// Public integration API (spec 3 §7; issue 20). ---------------------------------------------------------

/**
 * What an outbound send of the integrations (the public API, the webhooks) did for a caller's key: the key is
 * written in the same transaction as the send's own change, so a repeat (a retry, a crash mid-way) finds it
 * and answers the same outcome without sending again. Text sends dedupe on their message_id instead.
 */
export const outboundSends = pgTable(
  'outbound_sends',
  {
    accountId: id('account_id')
      .notNull()
      .references(() => accounts.id),
    key: text('key').notNull(),
    kind: text('kind').$type<'flow' | 'template'>().notNull(),
    conversationId: id('conversation_id'),
    campaignId: id('campaign_id'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.key] })],
);

/**
 * The public API's Idempotency-Key: a request's hash and its answer, per account and key. 'running' while the
 * first request is under way (a repeat then gets 409 until lease_until; after it, one that died is taken over:
 * its sends are idempotent by the same key); 'done' replays the stored answer.
 */
export const apiIdempotency = pgTable(
  'api_idempotency',
  {
    accountId: id('account_id')
      .notNull()
      .references(() => accounts.id),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    state: text('state').$type<'running' | 'done'>().notNull().default('running'),
    statusCode: integer('status_code'),
    answer: jsonb('answer'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.key] }),
    index('api_idempotency_created_idx').on(t.createdAt),
  ],
);

// --- Incoming webhooks (spec 3 §2.13, §3 Webhook) ------------------------------------------------------------

/** A webhook a third party posts to: its mapped fields pick who receives its flow or template. */
export const webhooks = pgTable(
  'webhooks',
  {
    id: id().primaryKey(),
    accountId: id('account_id')
      .notNull()
      .references(() => accounts.id),
    /** Who created it: the messages are sent in the account's name, this user is kept for support. */
    userId: id('user_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull().default(''),
    status: text('status').$type<'active' | 'inactive' | 'test'>().notNull().default('test'),
    chipId: id('chip_id').references(() => chips.id),
    flowId: id('flow_id'),
    /** The fixed-content template of an official chip, as listed when saved. */
    template: jsonb('template').$type<WebhookTemplateRow | null>(),
    templatePayloads: jsonb('template_payloads').$type<TemplatePayload[]>().notNull().default([]),
    conversationCreationRule: text('conversation_creation_rule')
      .$type<'all' | 'on_response'>()
      .notNull()
      .default('all'),
    redirect: text('redirect').$type<ChipRedirect>(),
    chatbotId: id('chatbot_id'),
    departmentId: id('department_id'),
    /** The sample JSON's text. */
    data: text('data').notNull().default(''),
    fields: jsonb('fields')
      .$type<{ name: string; origin: string[]; value: string }[]>()
      .notNull()
      .default([{ name: 'telefone', origin: [], value: '' }]),
    filed: boolean('filed').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: changedAt(),
  },
  (t) => [index('webhooks_account_idx').on(t.accountId, t.createdAt)],
);

export interface WebhookTemplateRow {
  name: string;
  language: string;
  status: string;
  components: Record<string, unknown>[];
}

/**
 * One event posted to an active webhook: received once per dedupe key (the Idempotency-Key header, or the
 * body's sha256) within the window, sent by the 'webhook-event' job, its outcome kept here.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: id().primaryKey(),
    webhookId: id('webhook_id')
      .notNull()
      .references(() => webhooks.id),
    accountId: id('account_id')
      .notNull()
      .references(() => accounts.id),
    dedupeKey: text('dedupe_key').notNull(),
    phone: text('phone').notNull(),
    /** The mapped fields' values (the flow's variables). */
    fields: jsonb('fields').$type<Record<string, string>>().notNull().default({}),
    status: text('status').$type<'queued' | 'sent' | 'error'>().notNull().default('queued'),
    /** Why it was not sent (pt-BR), when it was not. */
    failure: text('failure'),
    createdAt: createdAt(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('webhook_events_dedupe_unique').on(t.webhookId, t.dedupeKey)],
);

// --- Billing (issue 22): Guru offers, the ledger of Guru's events, and each Guru subscription's account. ---

/** A plan sold on Digital Manager Guru (spec 3 §3 Guru offer): a sale gives the account these limits. */
export const guruOffers = pgTable(
  'guru_offers',
  {
    id: id().primaryKey(),
    name: text('name').notNull(),
    /** Guru's offer id (product.offer.id in its webhooks); '' while not tied to one. */
    offerId: text('offer_id').notNull().default(''),
    maxChannels: integer('max_channels').notNull(),
    maxOfficialChannels: integer('max_official_channels').notNull(),
    maxUsers: integer('max_users').notNull(),
    maxFlows: integer('max_flows').notNull(),
    maxSummaries: integer('max_summaries').notNull(),
    maxFollowUps: integer('max_follow_ups').notNull(),
    campaignsEnabled: boolean('campaigns_enabled').notNull(),
    createdAt: createdAt(),
    updatedAt: changedAt(),
  },
  (t) => [uniqueIndex('guru_offers_offer_id_unique').on(t.offerId).where(sql`${t.offerId} <> ''`)],
);

/**
 * One row per Guru event, unique by its key (transaction id + status, or subscription id + status + when), so a
 * replay finds its row and changes nothing. `kind`: sale, refund, cancel, status, ignored, rejected (a rejected
 * event, such as an unknown offer, is processed again when it comes back). Money in integer cents of BRL.
 */
export const billingEvents = pgTable(
  'billing_events',
  {
    id: id().primaryKey(),
    eventKey: text('event_key').notNull(),
    webhookType: text('webhook_type').notNull(),
    status: text('status').notNull(),
    kind: text('kind').notNull(),
    /** Sales only: 'new' (first charge) or 'old' (a recurrence). */
    saleType: text('sale_type'),
    cycle: integer('cycle'),
    amountCents: integer('amount_cents').notNull().default(0),
    guruSubscriptionId: text('guru_subscription_id'),
    guruOfferId: text('guru_offer_id'),
    email: text('email'),
    accountId: id('account_id').references(() => accounts.id),
    error: text('error'),
    payload: jsonb('payload').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('billing_events_key_unique').on(t.eventKey),
    index('billing_events_kind_occurred_idx').on(t.kind, t.occurredAt),
  ],
);

/**
 * The ledger's totals per local day (America/Sao_Paulo), kept in the same transaction as each event, so the
 * financial dashboard reads a few hundred rows instead of the whole ledger. rebuildBillingDays recomputes it.
 */
export const billingDays = pgTable('billing_days', {
  day: text('day').primaryKey(),
  newCount: integer('new_count').notNull().default(0),
  newCents: bigint('new_cents', { mode: 'number' }).notNull().default(0),
  oldCount: integer('old_count').notNull().default(0),
  oldCents: bigint('old_cents', { mode: 'number' }).notNull().default(0),
  refundCount: integer('refund_count').notNull().default(0),
  refundCents: bigint('refund_cents', { mode: 'number' }).notNull().default(0),
  cancelCount: integer('cancel_count').notNull().default(0),
});

/** A Guru subscription and the account it pays for: the base (Ativos, Em atraso, Cancelados) counts these. */
export const billingSubscriptions = pgTable(
  'billing_subscriptions',
  {
    guruSubscriptionId: text('guru_subscription_id').primaryKey(),
    accountId: id('account_id')
      .notNull()
      .references(() => accounts.id),
    offerId: id('offer_id').references(() => guruOffers.id),
    /** active, pastdue or canceled (Guru's expired and inactive count as canceled). */
    status: text('status').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
    updatedAt: changedAt(),
  },
  (t) => [index('billing_subscriptions_account_idx').on(t.accountId)],
);

/**
 * Baileys (QR numbers): a chip's WhatsApp Web session, so a restart or another process resumes it without a
 * new QR. `creds` is Baileys' AuthenticationCreds as BufferJSON text, written whole in one statement.
 */
export const baileysAuth = pgTable('baileys_auth', {
  chipId: id('chip_id')
    .primaryKey()
    .references(() => chips.id),
  creds: text('creds').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Baileys' signal keys (pre-keys, sessions, sender keys, app state, lid mappings), one row per key. */
export const baileysKeys = pgTable(
  'baileys_keys',
  {
    chipId: id('chip_id')
      .notNull()
      .references(() => chips.id),
    type: text('type').notNull(),
    keyId: text('key_id').notNull(),
    value: text('value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.chipId, t.type, t.keyId] })],
);

/** Who holds a chip's WhatsApp socket: one server process at a time, until `expires_at` (renewed while alive). */
export const baileysLeases = pgTable('baileys_leases', {
  chipId: id('chip_id')
    .primaryKey()
    .references(() => chips.id),
  holder: text('holder').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** A bytea column (Drizzle's pg-core has none): binary as a Buffer. */
const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });

/**
 * Socket events too big for a PostgreSQL NOTIFY (8,000 bytes) or holding binary, when several processes share
 * one PostgreSQL (@socket.io/postgres-adapter, src/server/realtime): the emitting process writes the event
 * here and notifies its id; the others read it. The adapter deletes rows after 30 s. Columns as it expects them.
 */
export const socketIoAttachments = pgTable('socket_io_attachments', {
  id: bigserial('id', { mode: 'number' }).unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).defaultNow(),
  payload: bytea('payload'),
});

/**
 * The integrations' rate limits (public API, webhooks) when several processes share one PostgreSQL: one counter
 * per limited key and route, for every process (src/server/db/rate-limit-store.ts). On PGlite (one process)
 * the limiter counts in memory. Windows over an hour old are deleted by the integrations' housekeeping.
 */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  windowEnds: timestamp('window_ends', { withTimezone: true }).notNull(),
});
