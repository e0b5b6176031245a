// The public integration API (spec 3 §7 'Public integration API'; issue 20): every endpoint's query, body and
// answer. The server validates requests with these schemas (src/server/http/public-api.ts), the OpenAPI 3.1
// document at /api/v1/openapi.json is generated from them (src/server/http/openapi.ts) and the /api page
// documents them: one source for all three.
import { z } from 'zod';
import { apiDocs } from '../messages-api';
import { id } from './common';

export const PUBLIC_API_BASE = '/api/v1';
export const OPENAPI_PATH = `${PUBLIC_API_BASE}/openapi.json`;
/** The header an API key may come in instead of the query's api_key. */
export const API_KEY_HEADER = 'x-api-key';
export const IDEMPOTENCY_HEADER = 'idempotency-key';

const apiKey = z.string().min(1).max(200).describe(apiDocs.apiKey);
const chip = z.string().min(1).max(28).describe(apiDocs.chip);
/** A phone as people type it (digits, '+', spaces); Brazil's country code when none. Numbers too. */
const phone = z.union([z.string().min(1).max(40), z.number().int().nonnegative()]).describe(apiDocs.phone);
const text = z.string().trim().min(1).max(4096);
/** Contact variables: the flow reads them as {key}. */
const metadata = z
  .record(z.string().regex(/^[A-Za-z0-9_]{1,64}$/), z.union([z.string().max(1000), z.number(), z.boolean()]))
  .refine((m) => Object.keys(m).length <= 50, { message: apiDocs.metadataTooMany })
  .describe(apiDocs.metadata);

export const sendTextQuery = z.object({ chip, api_key: apiKey.optional() });
export const sendTextBody = z.object({ phone, message: text.describe(apiDocs.message) });

/** The third-party variant: the message in the query, the phone read from any JSON body at phone_field. */
export const thirdPartyQuery = z.object({
  chip,
  api_key: apiKey.optional(),
  message: text.describe(apiDocs.message),
  phone_field: z.string().min(1).max(200).describe(apiDocs.phoneField),
});
export const thirdPartyBody = z.record(z.string(), z.unknown()).describe(apiDocs.thirdPartyBody);

export const sendFlowQuery = z.object({ chip, api_key: apiKey.optional() });
export const sendFlowBody = z.object({
  phone,
  flow: id.describe(apiDocs.flow),
  metadata: metadata.optional(),
});

export const tagsQuery = z.object({ api_key: apiKey.optional() });
export const tagsBody = z.object({
  phone,
  tags: z.array(z.string().trim().min(1).max(100)).min(1).max(50).describe(apiDocs.tags),
  metadata: metadata.optional(),
});

export const sendTemplateQuery = z.object({
  chip,
  api_key: apiKey.optional(),
  template: z.string().min(1).max(512).describe(apiDocs.template),
  language: z.string().min(1).max(20).optional().describe(apiDocs.language),
});
export const sendTemplateBody = z
  .object({
    to: phone,
    conversation_creation_rule: z
      .enum(['all', 'on_response'])
      .optional()
      .describe(apiDocs.conversationCreationRule),
    redirect: z.enum(['human', 'ai_chatbot', 'flow_chatbot']).optional().describe(apiDocs.redirect),
    chatbot: id.optional(),
    flow: id.optional(),
    department: id.optional(),
    payloads: z
      .array(z.object({ button: z.string().min(1).max(200), flow: id.nullable() }))
      .max(10)
      .optional()
      .describe(apiDocs.payloads),
  })
  // The template's variables: '1', '2'… of the body, 'header_1' of a text header, 'header_image' a link.
  .catchall(z.string().max(1000))
  .describe(apiDocs.templateVariables);

const sendStatus = z.enum(['pending', 'sent', 'delivered', 'read', 'failed']);
export const textAnswer = z.object({
  conversation_id: z.string(),
  message_id: z.string(),
  status: sendStatus,
  failure: z.string().nullable(),
});
export const flowAnswer = z.object({ conversation_id: z.string(), flow_id: z.string() });
export const tagsAnswer = z.object({ contact_id: z.string(), tags: z.array(z.string()) });
export const templateAnswer = z.object({ campaign_id: z.string(), status: z.literal('queued') });
export const errorAnswer = z.object({ error: z.literal(true), message: z.string() });

export interface PublicEndpoint {
  /** Under PUBLIC_API_BASE. */
  path: string;
  summary: string;
  description: string;
  query: z.ZodObject;
  body: z.ZodType;
  answer: z.ZodType;
  /** A send: honours Idempotency-Key. */
  send: boolean;
}

/**
 * The endpoints as documented, in the page's order. send-text has two forms (the same path): the OpenAPI
 * document merges them into one operation.
 */
export const publicEndpoints = {
  sendText: {
    path: '/send-text',
    summary: 'send-text',
    description: apiDocs.sendText,
    query: sendTextQuery,
    body: sendTextBody,
    answer: textAnswer,
    send: true,
  },
  thirdParty: {
    path: '/send-text',
    summary: 'send-text (phone_field)',
    description: apiDocs.thirdParty,
    query: thirdPartyQuery,
    body: thirdPartyBody,
    answer: textAnswer,
    send: true,
  },
  sendFlow: {
    path: '/send-flow',
    summary: 'send-flow',
    description: apiDocs.sendFlow,
    query: sendFlowQuery,
    body: sendFlowBody,
    answer: flowAnswer,
    send: true,
  },
  tags: {
    path: '/tags',
    summary: 'tags',
    description: apiDocs.tags_,
    query: tagsQuery,
    body: tagsBody,
    answer: tagsAnswer,
    send: false,
  },
  tagsRemove: {
    path: '/tags/remove',
    summary: 'tags/remove',
    description: apiDocs.tagsRemove,
    query: tagsQuery,
    body: tagsBody,
    answer: tagsAnswer,
    send: false,
  },
  sendTemplate: {
    path: '/send-template',
    summary: 'send-template',
    description: apiDocs.sendTemplate,
    query: sendTemplateQuery,
    body: sendTemplateBody,
    answer: templateAnswer,
    send: true,
  },
} satisfies Record<string, PublicEndpoint>;

export type PublicEndpointName = keyof typeof publicEndpoints;
