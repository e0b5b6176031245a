// The public API's OpenAPI 3.1 document, generated from the zod schemas that validate its requests
// (src/shared/contract/public-api.ts; zod's JSON Schema is draft 2020-12, the dialect of OpenAPI 3.1). Served
// at /api/v1/openapi.json. Its server is '/', the document's own origin: the same file for every host.
import { z } from 'zod';
import {
  API_KEY_HEADER,
  errorAnswer,
  PUBLIC_API_BASE,
  type PublicEndpoint,
  publicEndpoints,
} from '../../shared/contract/public-api';
import { apiDocs } from '../../shared/messages-api';

type JsonSchema = Record<string, unknown>;

const schemaOf = (s: z.ZodType): JsonSchema => {
  const { $schema: _, ...rest } = z.toJSONSchema(s, { target: 'draft-2020-12', io: 'input' }) as JsonSchema;
  return rest;
};

/** Each property of a query object as a query parameter (api_key is the security scheme's, not listed). */
function queryParameters(query: z.ZodObject, optional: ReadonlySet<string> = new Set()) {
  const schema = schemaOf(query) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(schema.properties ?? {})
    .filter(([name]) => name !== 'api_key')
    .map(([name, s]) => {
      const { description, ...rest } = s;
      return {
        name,
        in: 'query',
        required: (schema.required ?? []).includes(name) && !optional.has(name),
        ...(description !== undefined && { description }),
        schema: rest,
      };
    });
}

const envelope = (answer: z.ZodType): JsonSchema => ({
  type: 'object',
  properties: { error: { const: false }, message: schemaOf(answer) },
  required: ['error', 'message'],
});

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

function operation(e: PublicEndpoint, body: JsonSchema, parameters: unknown[], answer: z.ZodType) {
  return {
    summary: e.summary,
    description: e.description,
    operationId: e.summary.replace(/\W+/g, '_'),
    parameters: [
      ...parameters,
      ...(e.send
        ? [
            {
              name: 'Idempotency-Key',
              in: 'header',
              required: false,
              description: apiDocs.idempotencyKey,
              schema: { type: 'string', minLength: 1, maxLength: 200 },
            },
          ]
        : []),
    ],
    requestBody: { required: true, content: { 'application/json': { schema: body } } },
    responses: {
      '200': {
        description: apiDocs.answerOk,
        content: { 'application/json': { schema: envelope(answer) } },
      },
      '400': errorResponse(apiDocs.answerError),
      '401': errorResponse(apiDocs.answerError),
      '404': errorResponse(apiDocs.answerError),
      '413': errorResponse(apiDocs.answerError),
      '429': {
        ...errorResponse(apiDocs.answerError),
        headers: { 'Retry-After': { schema: { type: 'integer' } } },
      },
      ...(e.send && {
        '409': errorResponse(apiDocs.answerError),
        '422': errorResponse(apiDocs.answerError),
      }),
    },
  };
}

export function openApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  const { sendText, thirdParty, ...rest } = publicEndpoints;
  // send-text's two forms are one operation: message and phone_field (the third-party form) are optional
  // in the query, and the body is either form's.
  paths[`${PUBLIC_API_BASE}${sendText.path}`] = {
    post: operation(
      { ...sendText, description: `${sendText.description} ${thirdParty.description}` },
      { anyOf: [schemaOf(sendText.body), schemaOf(thirdParty.body)] },
      queryParameters(thirdParty.query, new Set(['message', 'phone_field'])),
      sendText.answer,
    ),
  };
  for (const e of Object.values(rest) as PublicEndpoint[])
    paths[`${PUBLIC_API_BASE}${e.path}`] = {
      post: operation(e, schemaOf(e.body), queryParameters(e.query), e.answer),
    };
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: { title: apiDocs.title, version: '1' },
    servers: [{ url: '/' }],
    security: [{ apiKeyQuery: [] }, { apiKeyHeader: [] }],
    components: {
      securitySchemes: {
        apiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key', description: apiDocs.apiKey },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: API_KEY_HEADER, description: apiDocs.apiKey },
      },
      schemas: { Error: schemaOf(errorAnswer) },
    },
    paths,
  };
}
