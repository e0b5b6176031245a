// Sign-in, the current user, profile and account key: spec 1 §7.
import { z } from 'zod';
import { MIN_PASSWORD_LENGTH, PROFILE_PICTURE_MAX_BYTES } from '../constants';
import { messages } from '../messages';
import { profilePhoneError } from '../rules/profile';
import {
  email,
  newPassword,
  noPayload,
  ok,
  password,
  requiredText,
  subscriptionStatus,
  user,
  userConfig,
} from './common';
import { defineCall } from './define';

const phone = z
  .string()
  .trim()
  .max(30)
  .regex(/^[\d\s()+-]*$/, messages.invalidPhone)
  .refine((p) => !profilePhoneError(p), messages.invalidPhone);

export const usersCalls = {
  auth: defineCall({
    access: { public: true },
    payload: z.object({
      email,
      password,
      remember: z.boolean().optional(),
      admin_login: z.boolean().optional(),
      customer_email: email.optional(),
    }),
    answer: z.object({ token: z.string(), expires_at: z.string(), user }),
  }),
  logout: defineCall({ access: {}, payload: noPayload, answer: ok }),
  'get-user': defineCall({ access: {}, payload: noPayload, answer: user }),
  'send-password-recovery': defineCall({
    access: { public: true },
    payload: z.object({ email }),
    answer: ok,
  }),
  'reset-password': defineCall({
    access: { public: true },
    // A missing token is a broken link: the page says so, not 'Campo obrigatório: token'.
    payload: z.object({
      token: z.string({ error: messages.resetLinkInvalid }).trim().min(1, messages.resetLinkInvalid).max(200),
      password: newPassword,
    }),
    answer: ok,
  }),
  'change-user-password': defineCall({
    access: {},
    // The profile's rule, worded as the team screen's (spec 1 §5).
    payload: z.object({
      old_password: password,
      password: z.string().min(MIN_PASSWORD_LENGTH, messages.teamPasswordTooShort).max(200),
    }),
    answer: ok,
  }),
  /** Platform admin creates a customer: a new account with its owner. */
  'create-user': defineCall({
    access: { admin: true },
    payload: z.object({
      name: requiredText(200, messages.teamAllFieldsRequired),
      email,
      password: newPassword,
      phone: phone.optional(),
      account_name: requiredText(200).optional(),
    }),
    answer: user,
  }),
  'update-user': defineCall({
    access: {},
    payload: z.object({ name: requiredText(200).optional(), phone: phone.optional() }),
    answer: user,
  }),
  'update-user-config': defineCall({
    access: {},
    payload: userConfig.partial(),
    answer: user,
  }),
  'upload-profile-picture': defineCall({
    access: {},
    upload: { maxBytes: PROFILE_PICTURE_MAX_BYTES },
    payload: noPayload,
    answer: z.object({ url: z.string() }),
  }),
  'get-guru-subscription': defineCall({
    access: {},
    payload: noPayload,
    answer: z.object({
      last_status: subscriptionStatus,
      invoices: z.array(
        z.object({ cycle: z.number().int(), status: z.string(), payment_url: z.string().nullable() }),
      ),
    }),
  }),
  'update-api-key': defineCall({
    access: { roles: ['owner', 'manager'], area: 'api' },
    payload: noPayload,
    answer: z.object({ api_key: z.string() }),
  }),
};
