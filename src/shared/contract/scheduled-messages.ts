// Scheduled individual messages (spec 2 §2.4, §3 Scheduled message, §5 Scheduled send, §7). One dialog
// creates and edits them; the rules in ../rules/scheduled-message.ts decide the messages on both sides.
import { z } from 'zod';
import { id } from './common';
import { defineCall } from './define';

/** A template message usable as it is: its name, language and the text it shows (spec 2 §3 Template message). */
export const fixedTemplate = z.object({
  name: z.string().max(512),
  language: z.string().max(20),
  preview: z.string().max(4096),
});
export type FixedTemplate = z.infer<typeof fixedTemplate>;

export const SCHEDULED_STATUSES = ['scheduled', 'sent', 'error'] as const;

export const scheduledMessage = z.object({
  _id: id,
  /** Digits with the country code. */
  to: z.string(),
  chip: id,
  type: z.enum(['text', 'flow']),
  message: z.string(),
  flow: id.nullable(),
  template: fixedTemplate.nullable(),
  scheduledTo: z.string(),
  status: z.enum(SCHEDULED_STATUSES),
  /** Why it was not sent (status error), in pt-BR. */
  failure: z.string().nullable(),
  filed: z.boolean(),
});
export type ScheduledMessage = z.infer<typeof scheduledMessage>;

/** What the dialog sends; every field may be missing so the rule, not the schema, names what is wrong. */
const scheduledFields = {
  chip: z.string().max(28).default(''),
  /** The country code, digits only (default 55). */
  country_code: z.string().max(10).default(''),
  /** The phone without the country code, digits only. */
  to: z.string().max(40).default(''),
  type: z.enum(['text', 'flow']).default('text'),
  message: z.string().max(4096).default(''),
  flow: id.nullish(),
  template: fixedTemplate.nullish(),
  /** ISO date and time. */
  scheduledTo: z.string().max(40).default(''),
};

export const scheduledMessagesCalls = {
  /** The caller's account's scheduled messages (attendants: those of their departments' chips), newest first. */
  'get-scheduled-messages-by-user': defineCall({
    access: {},
    payload: z.object({}),
    answer: z.array(scheduledMessage),
  }),
  /** 'Agendamento cadastrado com sucesso.' With `_id` (named by the dialog), a repeat makes one item. */
  'create-scheduled-message': defineCall({
    access: {},
    payload: z.object({ _id: id.optional(), ...scheduledFields }),
    answer: scheduledMessage,
  }),
  /** Changes a scheduled item (only while scheduled); `filed: true` deletes it ('Agendamento apagado com sucesso.'). */
  'update-scheduled-message': defineCall({
    access: {},
    payload: z.object({ _id: id, filed: z.boolean().optional(), ...scheduledFields }),
    answer: scheduledMessage,
  }),
};
