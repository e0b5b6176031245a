// Platform administration (spec 3 §2.4 Admin customers, §2.18 /meta-login, §5, §6, §7): the customers'
// search, a user's password, an account's limits and its official numbers, for the system role customer_admin.
// Creating an account is `create-user` (users.ts), for the admin flag only.
import { z } from 'zod';
import { ADMIN_CHIP_STATUSES } from '../constants';
import { messages } from '../messages';
import { chip, id, newPassword, subscriptionStatus, userRole } from './common';
import { defineCall } from './define';

const customerAdmin = { systemRole: 'customer_admin' } as const;

/** A limit as the dialog sends it (a number, or the text typed); the shared rule checks it. */
const limit = z.union([z.number(), z.string().max(20)]).nullish();

/** A WABA id as typed; the service checks it is Meta's (digits), with the catalogue's message. */
const waba = z.string().trim().max(64);
const phoneNumberId = z
  .string()
  .trim()
  .regex(/^\d{1,32}$/, messages.fieldProblems.phoneNumberId);

export const adminAccount = z.object({
  _id: id,
  name: z.string(),
  plan_id: z.string().nullable(),
  subscription_status: subscriptionStatus,
  custom_negotiation: z.boolean(),
  campaigns_enabled: z.boolean(),
  max_channels: z.number().int(),
  max_official_channels: z.number().int(),
  max_users: z.number().int(),
  max_flows: z.number().int(),
  wabas: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type AdminAccount = z.infer<typeof adminAccount>;

/** A row of the customers' table (spec 3 §3 Customer). */
export const customer = z.object({
  _id: id,
  name: z.string(),
  override_name: z.string().nullable(),
  email: z.string(),
  profile_picture: z.string().nullable(),
  user_role: userRole,
  created: z.string(),
  account: adminAccount,
});
export type Customer = z.infer<typeof customer>;

/** What the account already uses, for the limits it may not go below. */
export const accountUsage = z.object({
  channels: z.number().int(),
  official_channels: z.number().int(),
  users: z.number().int(),
  flows: z.number().int(),
});
export type AccountUsage = z.infer<typeof accountUsage>;

/** A phone number of a WABA, as the provider lists it (spec 3 §3 Official phone number). */
export const providerPhoneNumber = z.object({
  id: z.string(),
  display_phone_number: z.string(),
  verified_name: z.string(),
  quality_rating: z.string().nullable(),
});
export type ProviderPhoneNumber = z.infer<typeof providerPhoneNumber>;

export const adminCalls = {
  /** The customers' table: every user of every account, by name or e-mail (accents and case aside). */
  'get-customers': defineCall({
    access: customerAdmin,
    payload: z.object({
      query: z.string().max(200).default(''),
      page: z.number().int().min(1).max(100_000).default(1),
    }),
    answer: z.object({ data: z.array(customer), total: z.number().int() }),
  }),
  /** Any user's new password; their sessions end. */
  'change-customer-password': defineCall({
    access: customerAdmin,
    payload: z.object({ _id: id, password: newPassword, confirmation: z.string().max(200).optional() }),
    answer: z.object({ ok: z.literal(true) }),
  }),
  /** An account's usage, so the edit dialog shows what a limit may not go below. */
  'get-account-usage': defineCall({
    access: customerAdmin,
    payload: z.object({ account: id }),
    answer: accountUsage,
  }),
  /** Edits an account's limits (spec 3 §5 Admin account edit). */
  'update-account': defineCall({
    access: customerAdmin,
    payload: z.object({
      _id: id,
      max_channels: limit,
      max_official_channels: limit,
      max_users: limit,
      max_flows: limit,
      campaigns_enabled: z.boolean().default(false),
      custom_negotiation: z.boolean().default(false),
    }),
    answer: adminAccount,
  }),
  /** The account's WABAs and its official numbers (spec 3 §7 get official chips of account). */
  'get-official-chips-of-account': defineCall({
    access: customerAdmin,
    payload: z.object({ account: id }),
    answer: z.object({ wabas: adminAccount.shape.wabas, data: z.array(chip) }),
  }),
  /** Adds a WABA to the account, with the name the provider gives it. */
  'add-account-waba': defineCall({
    access: customerAdmin,
    payload: z.object({ account: id, waba }),
    answer: adminAccount.shape.wabas,
  }),
  /** The WABA's phone numbers from the provider (spec 3 §7 get provider phone numbers of a WABA). */
  'get-waba-phone-numbers': defineCall({
    access: customerAdmin,
    payload: z.object({ account: id, waba }),
    answer: z.object({ data: z.array(providerPhoneNumber) }),
  }),
  /** A chip for one of the WABA's numbers (spec 3 §7 admin create chip), not yet registered. */
  'admin-create-chip': defineCall({
    access: customerAdmin,
    payload: z.object({ account: id, waba, phone_number_id: phoneNumberId }),
    answer: chip,
  }),
  /** Registers the number with the provider with its 6-digit PIN, or removes the registration. */
  'admin-register-phone-number': defineCall({
    access: customerAdmin,
    payload: z.object({ _id: id, register: z.boolean(), pin: z.string().max(20).default('') }),
    answer: chip,
  }),
  /** Spec 3 §4: platform staff set a number's status by hand (open, configuring or close). */
  'admin-set-chip-status': defineCall({
    access: customerAdmin,
    payload: z.object({ _id: id, status: z.enum(ADMIN_CHIP_STATUSES) }),
    answer: chip,
  }),
  /** Deletes an official number (filed). */
  'admin-delete-chip': defineCall({
    access: customerAdmin,
    payload: z.object({ _id: id }),
    answer: chip,
  }),
  /** /meta-login's settings: the Meta app and its embedded signup configuration (null: not configured). */
  'get-meta-signup-config': defineCall({
    access: { area: 'chips' },
    payload: z.object({}),
    answer: z.object({
      app_id: z.string().nullable(),
      config_id: z.string().nullable(),
      graph_version: z.string(),
    }),
  }),
};
