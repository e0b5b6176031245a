import { z } from 'zod';
import {
  ACCESS_AREAS,
  CHANNEL_PROVIDERS,
  CHIP_REDIRECTS,
  CHIP_STATUSES,
  MIN_PASSWORD_LENGTH,
  SUBSCRIPTION_STATUSES,
  SYSTEM_USER_ROLES,
  USER_ROLES,
} from '../constants';
import { withoutBidiControls } from '../format';
import { messages } from '../messages';

export const id = z.string().regex(/^[0-9A-Z]{28}$/, messages.fieldProblems.id);
/** A file's name as a client gives it, kept without bidi control characters (they only disguise a name). */
export const fileName = (max: number) => z.string().max(max).overwrite(withoutBidiControls);
export const noPayload = z.object({});
export const ok = z.object({ ok: z.literal(true) });

/**
 * A menu a flow sends (quick replies or a list): the phone shows the options to tap; a tap answers with the
 * option's id. On chips without interactive messages it goes out as a numbered text menu instead.
 */
export const interactiveMenu = z.object({
  kind: z.enum(['buttons', 'list']),
  /** The list's button ('Ver opções'); buttons have none. */
  button: z.string().nullable(),
  options: z.array(z.object({ id: z.string(), title: z.string(), description: z.string().optional() })),
});
export type InteractiveMenu = z.infer<typeof interactiveMenu>;

/** A required text: trimmed, not empty, bounded so a 1 MB string is refused with a clear message. */
export const requiredText = (max: number, emptyMessage: string = messages.requiredField) =>
  z.string().trim().min(1, emptyMessage).max(max);

// A missing login field gets the login screen's own message (spec 1 §5).
const fillAll = {
  error: (iss: { input?: unknown }) => (iss.input === undefined ? messages.fillAllFields : undefined),
};

export const email = z
  .string(fillAll)
  .trim()
  .toLowerCase()
  .min(1, messages.fillAllFields)
  .max(254)
  .pipe(z.email(messages.emailInvalid));

export const password = z.string(fillAll).min(1, messages.fillAllFields).max(200);
export const newPassword = z.string().min(MIN_PASSWORD_LENGTH, messages.passwordTooShort).max(200);

export const userRole = z.enum(USER_ROLES);
export const accessArea = z.enum(ACCESS_AREAS);
export const systemUserRole = z.enum(SYSTEM_USER_ROLES);
export const chipStatus = z.enum(CHIP_STATUSES);
export const subscriptionStatus = z.enum(SUBSCRIPTION_STATUSES);

export const accountSummary = z.object({
  _id: id,
  name: z.string(),
  campaigns_enabled: z.boolean(),
  max_channels: z.number().int(),
  max_official_channels: z.number().int(),
  max_users: z.number().int(),
  max_flows: z.number().int(),
  /** Only owners and managers see the key. */
  api_key: z.string().nullable(),
  subscription_status: z.string(),
  server: z.string(),
  official_api_server: z.string(),
});

export const userConfig = z.object({
  disable_notification_sound: z.boolean(),
  user_signature: z.boolean(),
});

export const user = z.object({
  _id: id,
  name: z.string(),
  email: z.string(),
  profile_picture: z.string().nullable(),
  phone: z.string(),
  user_role: userRole,
  access_areas: z.array(accessArea),
  system_user_roles: z.array(systemUserRole),
  admin: z.boolean(),
  departments: z.array(id),
  /** True when a platform admin signed in on this customer's behalf (admin login). */
  acting_admin: z.boolean(),
  account: accountSummary,
  config: userConfig,
});
export type User = z.infer<typeof user>;

/** A channel (spec 3 §3 Chip) as every screen sees it; the adapter's credentials never leave the server. */
export const chip = z.object({
  _id: id,
  name: z.string(),
  status: chipStatus,
  official: z.boolean(),
  provider: z.enum(CHANNEL_PROVIDERS),
  redirect: z.enum(CHIP_REDIRECTS),
  chatbot: id.nullable(),
  flow: id.nullable(),
  waba: z.string().nullable(),
  department: id.nullable(),
  display_phone_number: z.string().nullable(),
  phone_number_quality: z.string().nullable(),
  phone_number_id: z.string().nullable(),
  registered: z.boolean(),
  /** The QR code waiting to be scanned (its text); null when none. */
  qrcode: z.string().nullable(),
  active: z.boolean(),
  reset: z.boolean(),
  changed: z.boolean(),
  limit: z.number().int().nullable(),
  filed: z.boolean(),
  /** QR numbers: why the chip last closed on its own (logged out on the phone…), in pt-BR; absent otherwise. */
  status_reason: z.string().optional(),
});
export type Chip = z.infer<typeof chip>;
