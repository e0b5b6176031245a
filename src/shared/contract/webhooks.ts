// Incoming webhooks (spec 3 §2.13, §3 Webhook, §4 Webhook status, §5 Webhook save, §7 webhooks): a third party
// (a store, a payment platform, a CRM) posts JSON to the webhook's URL; its mapped fields (telefone first) pick
// who receives the webhook's flow (unofficial chips) or fixed-content template (official chips). The public
// endpoint is src/server/http/webhook-endpoint.ts; the mapping rule rules/webhook-mapping.ts; texts
// ../messages-webhooks.ts.
import { z } from 'zod';
import { CHIP_REDIRECTS } from '../constants';
import { CONVERSATION_CREATION_RULES, templatePayload } from './campaigns';
import { id } from './common';
import { defineCall } from './define';

export const WEBHOOK_STATUSES = ['active', 'inactive', 'test'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];
/** The mapped field that names who receives the message: always first, never removed or renamed. */
export const PHONE_FIELD = 'telefone';
/** Bounds against abuse: the sample JSON kept with the webhook, and the mapped fields. */
export const WEBHOOK_DATA_MAX = 100_000;
export const WEBHOOK_FIELDS_MAX = 50;
/** A path of the sample JSON: dots and [index] (customer.phones[0].number), as rules/json-path.ts reads it. */
export const WEBHOOK_PATH_MAX = 200;

/** One mapped field: its name (a flow variable), the JSON paths whose values are joined, an example value. */
export const webhookField = z.object({
  name: z.string().trim().max(100),
  origin: z.array(z.string().max(WEBHOOK_PATH_MAX)).max(20),
  value: z.string().max(4096).default(''),
});
export type WebhookField = z.infer<typeof webhookField>;

/** The sending chip, as the webhook shows it. */
export const webhookChip = z.object({
  _id: id,
  name: z.string(),
  official: z.boolean(),
  waba: z.string().nullable(),
});

/** The fixed-content template an official chip sends: as listed by the provider when the webhook was saved. */
export const webhookTemplate = z.object({
  name: z.string().max(512),
  language: z.string().max(20),
  status: z.string().max(40).default('APPROVED'),
  components: z.array(z.record(z.string(), z.unknown())).max(10).default([]),
});
export type WebhookTemplate = z.infer<typeof webhookTemplate>;

export const webhook = z.object({
  _id: id,
  name: z.string(),
  /** The public address a third party posts to: PUBLIC_URL based, else a path from the page's origin. */
  url: z.string(),
  status: z.enum(WEBHOOK_STATUSES),
  chip: webhookChip.nullable(),
  /** Unofficial chips: the flow sent. Official chips with rule all and a flow chatbot: the conversation's flow. */
  flow: id.nullable(),
  template: webhookTemplate.nullable(),
  template_payloads: z.array(templatePayload),
  conversation_creation_rule: z.enum(CONVERSATION_CREATION_RULES),
  redirect: z.enum(CHIP_REDIRECTS).nullable(),
  chatbot: id.nullable(),
  department: id.nullable(),
  /** The sample JSON received (its text, as the screen shows it). */
  data: z.string(),
  fields: z.array(webhookField),
  created: z.string(),
  filed: z.boolean(),
});
export type Webhook = z.infer<typeof webhook>;

/** An official chip's template a webhook may send: APPROVED, fixed content (spec 3 §5), with its components. */
export const webhookTemplateOption = webhookTemplate.extend({ preview: z.string() });
export type WebhookTemplateOption = z.infer<typeof webhookTemplateOption>;

/** What the detail screen saves; a field left out keeps its value. */
export const webhookChanges = z.object({
  name: z.string().trim().max(200),
  status: z.enum(WEBHOOK_STATUSES),
  chip: id.nullable(),
  flow: id.nullable(),
  template: webhookTemplate.pick({ name: true, language: true }).nullable(),
  template_payloads: z.array(templatePayload).max(10),
  conversation_creation_rule: z.enum(CONVERSATION_CREATION_RULES),
  redirect: z.enum(CHIP_REDIRECTS).nullable(),
  chatbot: id.nullable(),
  department: id.nullable(),
  data: z.string().max(WEBHOOK_DATA_MAX),
  fields: z.array(webhookField).min(1).max(WEBHOOK_FIELDS_MAX),
});
export type WebhookChanges = z.input<typeof webhookChanges>;

/** Owners and managers with the api area, on a plan with integrations (spec 3 §6). */
const manageWebhooks = { roles: ['owner', 'manager'], area: 'api', plan: 'integrations' } as const;

export const webhooksCalls = {
  'get-webhooks-by-user': defineCall({
    access: manageWebhooks,
    payload: z.object({}).default({}),
    answer: z.array(webhook),
  }),
  'get-webhook-by-id': defineCall({
    access: manageWebhooks,
    payload: z.object({ _id: id }),
    answer: webhook,
  }),
  /**
   * create or update webhook (spec 3 §7): an unknown `_id` (named by the app: a repeat makes one) creates it
   * and answers `upsertedId`, after which the user goes to its edit page; a known one is changed (a field left
   * out keeps its value); `filed: true` deletes it.
   */
  'create-or-update-webhook': defineCall({
    access: manageWebhooks,
    payload: webhookChanges.partial().extend({ _id: id, filed: z.boolean().optional() }),
    answer: webhook.extend({ upsertedId: id.optional() }),
  }),
  /** The official chip's templates a webhook may send (APPROVED, fixed content), with header, body, buttons. */
  'get-webhook-templates': defineCall({
    access: manageWebhooks,
    payload: z.object({ chip: id }),
    answer: z.array(webhookTemplateOption),
  }),
} as const;
