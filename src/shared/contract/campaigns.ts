// Audiences and campaigns on unofficial chips (spec 3 §2.9, §2.10, §3 Audience and Campaign, §4 Campaign
// status and real time, §5, §7). An audience is a spreadsheet's people; a campaign sends one message (a text
// version drawn per person, or a flow) to an audience or to contacts with tags, one person per interval, by
// the durable job of src/server/jobs/campaigns.ts. Texts: ../messages-campaigns.ts.
import { z } from 'zod';
import { CHIP_REDIRECTS, CONTACT_IMPORT_MAX_BYTES } from '../constants';
import { id } from './common';
import { defineCall } from './define';

/** Seconds between two sends of a campaign (spec 3 §9). */
export const CAMPAIGN_INTERVALS = [20, 30, 60, 90, 120, 180, 240] as const;
export const CAMPAIGN_STATUSES = ['scheduled', 'started', 'finished', 'canceled', 'error'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
export const AUDIENCE_TYPES = ['audience', 'tags'] as const;
export const CAMPAIGN_MESSAGE_TYPES = ['text', 'flow'] as const;
/** Text versions a campaign may have. */
export const MAX_CAMPAIGN_VERSIONS = 10;

/** Who may: the campaigns area, on a plan with campaigns (spec 3 §6). */
const manageCampaigns = { area: 'campaigns', plan: 'campaigns' } as const;

export const audience = z.object({
  _id: id,
  name: z.string(),
  /** Valid people stored (the spec's `people`, counted: a list can hold 200,000). */
  people_count: z.number().int(),
  /** The sheet's columns, telefone first: the message variables ({nome}, {nome:first}). */
  props: z.array(z.string()),
  create_contacts: z.boolean(),
  created: z.string(),
  filed: z.boolean(),
});
export type Audience = z.infer<typeof audience>;

// Official campaigns (spec 3 §2.11, §3 Official campaign extras, §5 Official campaign): an approved template
// to each person of the audience, at the number's throughput, by src/server/jobs/official-campaigns.ts.
export const CONVERSATION_CREATION_RULES = ['all', 'on_response'] as const;
export type ConversationCreationRule = (typeof CONVERSATION_CREATION_RULES)[number];

/** The template a campaign sends, as listed when it was saved. */
export const officialTemplateRef = z.object({
  name: z.string().max(512),
  language: z.string().max(20),
  category: z.string().max(40).default(''),
  components: z.array(z.record(z.string(), z.unknown())).max(10).default([]),
});
export type OfficialTemplateRef = z.infer<typeof officialTemplateRef>;

/** One {{n}} of the template: filled per person from an audience column (`var`), else `fallback`. */
export const templateParameter = z.object({
  /** n of {{n}}. */
  index: z.number().int().min(1).max(100),
  /** '{{n}}'. */
  par: z.string().max(10),
  /** The audience column ('' none: the fallback for everyone). */
  var: z.string().max(200).default(''),
  fallback: z.string().max(1000).default(''),
  location: z.enum(['header', 'body']),
  type: z.enum(['text', 'image']).default('text'),
  /** An image header: our media store's URL of the uploaded jpeg or png. */
  link: z.string().max(2000).nullish(),
});
export type TemplateParameter = z.infer<typeof templateParameter>;

/** A quick-reply button of the template and the flow its tap starts (payload = the flow's id, null none). */
export const templatePayload = z.object({
  type: z.literal('button').default('button'),
  button: z.string().max(200),
  tip: z.string().max(200).default(''),
  payload: id.nullish(),
});
export type TemplatePayload = z.infer<typeof templatePayload>;

/** Per person, from the status webhooks: the official campaigns' delivery data, counted. */
export const deliveryData = z.object({
  sent: z.number().int(),
  delivered: z.number().int(),
  read: z.number().int(),
  failed: z.number().int(),
  replied: z.number().int(),
  clicked: z.number().int(),
});
export type DeliveryData = z.infer<typeof deliveryData>;

export const campaign = z.object({
  _id: id,
  name: z.string(),
  chip: id,
  audience_type: z.enum(AUDIENCE_TYPES),
  audience: id.nullable(),
  audience_tags: z.array(id),
  audience_tags_skip: z.array(id),
  message_type: z.enum(CAMPAIGN_MESSAGE_TYPES),
  /** The text versions: one is drawn at random for each person. */
  message: z.array(z.string()),
  flow: id.nullable(),
  /** Seconds between two sends (one of CAMPAIGN_INTERVALS). */
  interval: z.number().int(),
  /** ISO date and time; null: 'Imediato'. */
  scheduledTo: z.string().nullable(),
  status: z.enum(CAMPAIGN_STATUSES),
  sent_messages: z.number().int(),
  /** People a send failed for (a number without WhatsApp…): recorded per person, not a campaign failure. */
  failed_messages: z.number().int(),
  /** The estimated reach: the audience's people, or the contacts with the tags, when saved; exact once started. */
  people_count: z.number().int(),
  created: z.string(),
  finished: z.string().nullable(),
  cancel_now: z.boolean(),
  /** Started, but its chip is disconnected: it goes on when the chip is connected again. */
  paused: z.boolean(),
  /** Why the campaign stopped with status error, in pt-BR. */
  failure: z.string().nullable(),
  official: z.boolean(),
  // Official campaigns only (empty or null on the others).
  template: officialTemplateRef.nullable(),
  template_parameters: z.array(templateParameter),
  template_payloads: z.array(templatePayload),
  conversation_creation_rule: z.enum(CONVERSATION_CREATION_RULES).nullable(),
  redirect: z.enum(CHIP_REDIRECTS).nullable(),
  chatbot: id.nullable(),
  department: id.nullable(),
  /** When its first send went (ISO). */
  started: z.string().nullable(),
  delivery_data: deliveryData.nullable(),
  filed: z.boolean(),
});
export type Campaign = z.infer<typeof campaign>;

/** The official campaign dialog's fields, as the dialog sends them. */
const officialFieldTypes = {
  name: z.string().max(200),
  chip: z.string().max(28),
  audience_type: z.enum(AUDIENCE_TYPES),
  audience: id.nullish(),
  audience_tags: z.array(id).max(100),
  audience_tags_skip: z.array(id).max(100),
  template: officialTemplateRef.nullish(),
  template_parameters: z.array(templateParameter).max(100),
  template_payloads: z.array(templatePayload).max(10),
  conversation_creation_rule: z.enum(CONVERSATION_CREATION_RULES).nullish(),
  redirect: z.enum(CHIP_REDIRECTS).nullish(),
  chatbot: id.nullish(),
  flow: id.nullish(),
  department: id.nullish(),
  /** ISO date and time, or null for 'Imediato'. */
  scheduledTo: z.string().max(40).nullish(),
};

/** A new official campaign: every field may be missing so the rule names what is wrong. */
export const officialCampaignFields = z.object({
  ...officialFieldTypes,
  name: officialFieldTypes.name.default(''),
  chip: officialFieldTypes.chip.default(''),
  audience_type: officialFieldTypes.audience_type.default('audience'),
  audience_tags: officialFieldTypes.audience_tags.default([]),
  audience_tags_skip: officialFieldTypes.audience_tags_skip.default([]),
  template_parameters: officialFieldTypes.template_parameters.default([]),
  template_payloads: officialFieldTypes.template_payloads.default([]),
});
export type OfficialCampaignFields = z.input<typeof officialCampaignFields>;

/** A campaign's fields, as the dialog sends them. */
const fieldTypes = {
  name: z.string().max(200),
  chip: z.string().max(28),
  audience_type: z.enum(AUDIENCE_TYPES),
  audience: id.nullish(),
  audience_tags: z.array(id).max(100),
  audience_tags_skip: z.array(id).max(100),
  message_type: z.enum(CAMPAIGN_MESSAGE_TYPES),
  message: z.array(z.string().max(4096)).max(MAX_CAMPAIGN_VERSIONS),
  flow: id.nullish(),
  interval: z.number().int(),
  /** ISO date and time, or null for 'Imediato'. */
  scheduledTo: z.string().max(40).nullish(),
};

/** A new campaign: every field may be missing so the rule (rules/campaign.ts) names what is wrong. */
export const campaignFields = z.object({
  ...fieldTypes,
  name: fieldTypes.name.default(''),
  chip: fieldTypes.chip.default(''),
  audience_type: fieldTypes.audience_type.default('audience'),
  audience_tags: fieldTypes.audience_tags.default([]),
  audience_tags_skip: fieldTypes.audience_tags_skip.default([]),
  message_type: fieldTypes.message_type.default('text'),
  message: fieldTypes.message.default(['']),
  interval: fieldTypes.interval.default(CAMPAIGN_INTERVALS[1]),
});
export type CampaignFields = z.input<typeof campaignFields>;

/** The follow dialog's numbers (room account_campaign_<id>, spec 3 §4). */
export const campaignProgress = z.object({
  _id: id,
  status: z.enum(CAMPAIGN_STATUSES),
  paused: z.boolean(),
  people_count: z.number().int(),
  sent_messages: z.number().int(),
  failed_messages: z.number().int(),
  /** People still to receive it. */
  next_messages: z.number().int(),
  /** When the next person is due (ISO), null when none is. */
  next_send_at: z.string().nullable(),
  estimated_finish_time: z.string().nullable(),
});
export type CampaignProgress = z.infer<typeof campaignProgress>;

/** Per campaign, from the delivery receipts: our addition (not in the spec). */
export const campaignReport = z.object({
  _id: id,
  people_count: z.number().int(),
  waiting: z.number().int(),
  sent: z.number().int(),
  delivered: z.number().int(),
  read: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
  replied: z.number().int(),
  /** Official campaigns: quick-reply taps, failures by reason, and the pricing categories Meta reported. */
  clicked: z.number().int(),
  failed_by_reason: z.array(z.object({ reason: z.string(), count: z.number().int() })),
  pricing: z.array(z.object({ category: z.string(), count: z.number().int() })),
});
export type CampaignReport = z.infer<typeof campaignReport>;

export const campaignsCalls = {
  'get-audiences-by-user': defineCall({
    access: manageCampaigns,
    payload: z.object({}).default({}),
    answer: z.array(audience),
  }),
  /**
   * 'Audiência cadastrada com sucesso.': the sheet (analysed as send-audience-list does) and the fields `name`,
   * `create_contacts` ('true'/'false') and `_id` (named by the dialog: a repeat makes one audience; an existing
   * audience gets the sheet's people instead of its own). One transaction: all the people or none.
   */
  'import-audience': defineCall({
    access: manageCampaigns,
    upload: { maxBytes: CONTACT_IMPORT_MAX_BYTES },
    payload: z.object({
      _id: id.optional(),
      name: z.string().max(200).default(''),
      create_contacts: z.enum(['true', 'false']).default('true'),
    }),
    answer: audience,
  }),
  /** Renames an audience or changes create_contacts; `filed: true` deletes it. */
  'create-or-update-audience': defineCall({
    access: manageCampaigns,
    payload: z.object({
      _id: id,
      name: z.string().max(200).optional(),
      create_contacts: z.boolean().optional(),
      filed: z.boolean().optional(),
    }),
    answer: audience,
  }),
  /** The regular campaigns (official false) or the official ones, newest first. */
  'get-campaigns-by-user': defineCall({
    access: manageCampaigns,
    payload: z.object({ official: z.boolean().default(false) }).default({ official: false }),
    answer: z.array(campaign),
  }),
  /** 'Campanha cadastrada com sucesso.' With `_id` (named by the dialog), a repeat makes one campaign. */
  'create-campaign': defineCall({
    access: manageCampaigns,
    payload: campaignFields.extend({ _id: id.optional() }),
    answer: campaign,
  }),
  /**
   * Edits a scheduled campaign (a field left out keeps its value); `cancel_now: true` cancels it before its
   * next send; `filed: true` deletes it.
   */
  'update-campaign': defineCall({
    access: manageCampaigns,
    payload: z.object(fieldTypes).partial().extend({
      _id: id,
      cancel_now: z.boolean().optional(),
      filed: z.boolean().optional(),
    }),
    answer: campaign,
  }),
  /**
   * create or update official campaign (spec 3 §7): 'Campanha cadastrada com sucesso.' An unknown `_id` (named by
   * the dialog) creates it once; a known one edits it while scheduled (a field left out keeps its value);
   * `cancel_now: true` cancels it; `filed: true` deletes it. Plan: campaigns and an official number.
   */
  'create-or-update-official-campaign': defineCall({
    access: { area: 'campaigns', plan: 'official-campaigns' },
    // Without the defaults: a field left out of an edit is not there (it keeps the stored value).
    payload: z.object(officialFieldTypes).partial().extend({
      _id: id,
      cancel_now: z.boolean().optional(),
      filed: z.boolean().optional(),
    }),
    answer: campaign,
  }),
  'get-campaign-realtime': defineCall({
    access: manageCampaigns,
    payload: z.object({ _id: id }),
    answer: campaignProgress,
  }),
  'get-campaign-report': defineCall({
    access: manageCampaigns,
    payload: z.object({ _id: id }),
    answer: campaignReport,
  }),
  /** Campanha_<name>_<date>.xlsx: one row per person (phone, name, version, status, times, failure, replied). */
  'export-campaign-report': defineCall({
    access: manageCampaigns,
    payload: z.object({ _id: id }),
    answer: z.object({ file_name: z.string(), content_base64: z.string() }),
  }),
} as const;
