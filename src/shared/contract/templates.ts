// Message templates of official numbers (spec 3 §2.14, §3 Message template, §4 Template lifecycle, §5 Template
// save): listed, created and deleted on the number's WABA through the Graph API; their status changes arrive by
// the message_template_status_update webhook and reach the screen as 'template_status' events. Texts:
// ../messages-campaigns.ts (templateMessages, templateLabels). Rules: ../rules/template.ts.
import { z } from 'zod';
import { id } from './common';
import { defineCall } from './define';

export const TEMPLATE_CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];
/** Meta's statuses; the spec shows the first three (Aprovado, Pendente, Rejeitado). */
export const TEMPLATE_STATUSES = ['APPROVED', 'PENDING', 'REJECTED', 'PAUSED', 'DISABLED'] as const;
export const TEMPLATE_BUTTON_TYPES = ['QUICK_REPLY', 'URL', 'PHONE_NUMBER'] as const;
export const TEMPLATE_HEADER_FORMATS = ['NONE', 'TEXT', 'IMAGE'] as const;
/** Spec 3 §5: at most 10 buttons, text ≤ 25, URL and phone ≤ 1000. */
export const TEMPLATE_MAX_BUTTONS = 10;
export const TEMPLATE_BUTTON_TEXT_MAX = 25;
export const TEMPLATE_BUTTON_VALUE_MAX = 1000;
/** An image header: jpeg or png, at most 5 MB (the Cloud API's image limit). */
export const TEMPLATE_IMAGE_TYPES = ['image/jpeg', 'image/png'] as const;
export const TEMPLATE_IMAGE_MAX_BYTES = 5 * 1024 * 1024;

export const templateButton = z.object({
  type: z.enum(TEMPLATE_BUTTON_TYPES),
  text: z.string().max(200),
  url: z.string().max(2000).optional(),
  phone_number: z.string().max(2000).optional(),
});
export type TemplateButton = z.infer<typeof templateButton>;

/** A component as Meta lists it (HEADER, BODY, FOOTER, BUTTONS). */
export const templateComponent = z.object({
  type: z.string(),
  format: z.string().optional(),
  text: z.string().optional(),
  example: z.unknown().optional(),
  buttons: z.array(templateButton.passthrough()).optional(),
});
export type TemplateComponent = z.infer<typeof templateComponent>;

export const messageTemplate = z.object({
  /** Meta's id of the template. */
  id: z.string(),
  name: z.string(),
  language: z.string(),
  category: z.string(),
  /** APPROVED, PENDING, REJECTED (and Meta's PAUSED, DISABLED). */
  status: z.string(),
  /** Why Meta rejected or paused it, when it said. */
  reason: z.string().nullable(),
  components: z.array(templateComponent),
  /** The body text (the BODY component's). */
  body: z.string(),
  buttons: z.array(templateButton),
  /** Meta's sample templates (hello_world, sample_*): they cannot be deleted here. */
  default: z.boolean(),
});
export type MessageTemplate = z.infer<typeof messageTemplate>;

/** The dialog 'Novo template de mensagem'. */
export const templateFields = z.object({
  name: z.string().max(512).default(''),
  category: z.enum(TEMPLATE_CATEGORIES).default('MARKETING'),
  language: z.string().min(2).max(20).default('pt_BR'),
  header_format: z.enum(TEMPLATE_HEADER_FORMATS).default('NONE'),
  header_text: z.string().max(60).default(''),
  /** An image header's example: a file of our media store (upload-media's url), jpeg or png. */
  header_image: z.string().max(2000).nullish(),
  body: z.string().max(1024).default(''),
  footer: z.string().max(60).default(''),
  buttons: z.array(templateButton).max(50).default([]),
  /** One example per {{n}} of the header text and of the body, in order. */
  header_examples: z.array(z.string().max(1000)).max(10).default([]),
  body_examples: z.array(z.string().max(1000)).max(100).default([]),
});
export type TemplateFields = z.input<typeof templateFields>;

/** Templates belong to the official campaigns' screens: the campaigns area, on a plan with official numbers. */
const manageTemplates = { area: 'campaigns', plan: 'official-campaigns' } as const;

export const templatesCalls = {
  /** Every template of the chip's WABA, whatever its status (spec 3 §2.14 table). */
  'get-message-templates': defineCall({
    access: manageTemplates,
    payload: z.object({ chip: id }),
    answer: z.array(messageTemplate),
  }),
  /** 'Template salvo com sucesso': sent to Meta for review, listed PENDING. */
  'create-message-template': defineCall({
    access: manageTemplates,
    payload: templateFields.extend({ chip: id }),
    answer: messageTemplate,
  }),
  /** 'Solicitação concluída com sucesso. Aguardar resposta da Meta.' (spec: the template with filed true). */
  'delete-message-template': defineCall({
    access: manageTemplates,
    payload: z.object({ chip: id, name: z.string().min(1).max(512), filed: z.literal(true).default(true) }),
    answer: z.object({ ok: z.boolean() }),
  }),
} as const;

/** The 'template_status' event: a template's review or quality changed (message_template_status_update). */
export const templateStatusEvent = z.object({
  waba: z.string(),
  name: z.string(),
  language: z.string(),
  status: z.string(),
  reason: z.string().nullable(),
});
export type TemplateStatusEvent = z.infer<typeof templateStatusEvent>;
