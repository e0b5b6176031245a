// Business constants of spec 1 §9 and spec 3 §9.

export const MIN_PASSWORD_LENGTH = 6;
export const DEFAULT_TAG_COLOR = '#00FF00';
export const DEFAULT_COUNTRY_CODE = '55';
export const PAGE_SIZE = 10;
/** Contacts import (spec 2 §5): the largest spreadsheet accepted, and the people one import-contacts call takes. */
export const CONTACT_IMPORT_MAX_BYTES = 30 * 1024 * 1024;
export const CONTACT_IMPORT_BATCH = 5000;
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
/** Spec 3 §4: the statuses platform staff may set by hand. */
export const ADMIN_CHIP_STATUSES = ['open', 'configuring', 'close'] as const satisfies readonly ChipStatus[];

/** The adapters of src/server/channels; a new unofficial chip takes the server's CHANNEL_QR_PROVIDER (README). */
export const CHANNEL_PROVIDERS = ['simulator', 'cloud-api', 'baileys'] as const;
export type ChannelProvider = (typeof CHANNEL_PROVIDERS)[number];

export const CHIP_REDIRECTS = ['ai_chatbot', 'flow_chatbot', 'human'] as const;
export type ChipRedirect = (typeof CHIP_REDIRECTS)[number];
export const DEFAULT_CHIP_REDIRECT: ChipRedirect = 'ai_chatbot';

export const MESSAGE_ORIGINS = ['customer', 'user', 'chatbot'] as const;
export type MessageOrigin = (typeof MESSAGE_ORIGINS)[number];
/** Which engine wrote a message of origin 'chatbot' (the pane labels it so): none on older rows. */
export const MESSAGE_SOURCES = ['flow', 'chatbot', 'api', 'follow_up'] as const;
export type MessageSource = (typeof MESSAGE_SOURCES)[number];
export const MESSAGE_TYPES = [
  'text',
  'audio',
  'video',
  'image',
  'document',
  'location',
  'contact',
  'summary',
  'system',
] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];
/** Message status (spec 2 §3): 4 or more shows as read; failed sends are -1. */
export const MESSAGE_STATUS = { failed: -1, pending: 0, sent: 1, delivered: 3, read: 4 } as const;
export const OFFICIAL_CHANNEL_TYPE = 'whatsapp_api_oficial';
/** Media a conversation can send (spec 2 §5 Media), by type. */
export const SENDABLE_MEDIA: Record<'image' | 'audio' | 'video' | 'document', readonly string[]> = {
  image: ['image/jpeg', 'image/png'],
  audio: ['audio/mpeg', 'audio/ogg', 'audio/mp4', 'audio/aac'],
  video: ['video/mp4', 'video/3gpp'],
  document: [
    'text/plain',
    'application/pdf',
    'application/msword',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'application/vnd.ms-excel',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    'application/vnd.ms-powerpoint',
    'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  ],
};
/** The longest a send may have waited on a device (the offline outbox) and still keep its typed time. */
export const MESSAGE_WAITED_MAX_MS = 30 * 24 * 3600 * 1000;
/** Shorter waits are the network's: the bubble shows when the server took the message. */
export const MESSAGE_WAITED_SHOWN_MS = 60 * 1000;
export const MEDIA_MAX_BYTES = 16 * 1024 * 1024;
/** What the media library keeps (spec 2 §5 Media): as a conversation sends, but audio only as MP3. */
export const LIBRARY_MEDIA: Record<keyof typeof SENDABLE_MEDIA, readonly string[]> = {
  ...SENDABLE_MEDIA,
  audio: ['audio/mpeg'],
};
