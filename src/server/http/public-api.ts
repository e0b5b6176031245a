// The public integration API (spec 3 §7; issue 20): POST /api/v1/<endpoint> with a JSON body, authenticated
// by the account's API key (query api_key, or the x-api-key header), for accounts whose plan has the
// integrations (max_channels above 1). The app's own calls are POST /api/<call> (one segment): no clash.
// - Requests are validated by the contract's zod schemas (src/shared/contract/public-api.ts), the same ones
//   the OpenAPI document at /api/v1/openapi.json is generated from (./openapi.ts).
// - Errors are the app's envelope { error: true, message } in pt-BR with the HTTP status: 400 bad input (not
//   JSON, a phone that cannot be normalised), 401 no key or a revoked one, 403 plan, 404 another account's
//   chip, flow or tag (as if missing) and paths that match nothing, 409 / 422 Idempotency-Key, 413 too
//   large, 429 rate limit (with Retry-After), 503 chip disconnected.
// - Rate limit per API key (PUBLIC_API_RATE_MAX per PUBLIC_API_RATE_WINDOW_SECONDS; per IP without a key).
// - Idempotency-Key on every send: (account, key) → the request's hash and its answer (api_idempotency). A
//   repeat replays the answer and sends nothing; the same key with another request is 422; while the first
//   is under way, 409. Whatever happens, the send itself is idempotent by the key (outbound.ts): a request
//   that died mid-way is taken over once its lease ran out and sends nothing twice. Without the header,
//   each request is its own send.
import { createHash } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  API_KEY_HEADER,
  IDEMPOTENCY_HEADER,
  PUBLIC_API_BASE,
  publicEndpoints,
} from '../../shared/contract/public-api';
import { newId } from '../../shared/ids';
import { messages as texts } from '../../shared/messages';
import { apiMessages } from '../../shared/messages-api';
import { officialCampaignMessages as official } from '../../shared/messages-campaigns';
import { planHasApi } from '../../shared/rules/access';
import { readJsonPath } from '../../shared/rules/json-path';
import { type Actor, apiKeyActor } from '../access';
import type { Db } from '../db';
import { databaseRateStore } from '../db/rate-limit-store';
import { apiIdempotencyRepo } from '../domains/integrations/api-idempotency.repo';
import { apiKeysRepo } from '../domains/integrations/api-keys.repo';
import { changeContactTags } from '../domains/integrations/contact-tags';
import { sendTemplateTo, sendTextTo, startFlowFor } from '../domains/integrations/outbound';
import type { Services } from '../services';
import { AppError, describeZodError } from './errors';
import { jsonBodyParser, pathOfNul } from './json';
import { openApiDocument } from './openapi';

/** Far above any request of the API (a text is 4096 characters); a 10 MB body is refused unread. */
const BODY_LIMIT = 1024 * 1024;
/** How long a request holds its Idempotency-Key: a repeat meanwhile is 409; after it, one that died is taken over. */
const IDEMPOTENCY_LEASE_SECONDS = 60;

/** Refusals whose message says 'not found': answered 404 (another account's id is not found either). */
const NOT_FOUND = new Set<string>([
  texts.notFound,
  texts.flowNotFound,
  official.flowNotFound,
  official.buttonFlowNotFound,
  official.chatbotNotFound,
  official.departmentNotFound,
]);

/** The HTTP status of a refusal: the domain's own, else 404 for 'not found' and 400 for the rest. */
const statusOf = (err: AppError) =>
  err.status !== 200 ? err.status : NOT_FOUND.has(err.message) ? 404 : 400;

const failure = (message: string) => ({ error: true, message });
const success = (message: unknown) => ({ error: false, message });

function apiKeyOf(req: FastifyRequest): string | null {
  const fromQuery = (req.query as Record<string, unknown> | undefined)?.api_key;
  const given = typeof fromQuery === 'string' && fromQuery ? fromQuery : req.headers[API_KEY_HEADER];
  return typeof given === 'string' && given ? given : null;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const nulAt = pathOfNul(value);
  if (nulAt !== null) throw new AppError(texts.nulCharacter(nulAt), 400);
  const parsed = schema.safeParse(value, { reportInput: true });
  if (!parsed.success) throw new AppError(describeZodError(parsed.error), 400);
  return parsed.data;
}

/**
 * The options of @fastify/rate-limit for an integration endpoint, registered in the endpoint's own plugin
 * scope: PUBLIC_API_RATE_MAX requests per PUBLIC_API_RATE_WINDOW_SECONDS for each `keyOf` (an API key, a
 * webhook), then 429 with Retry-After and a pt-BR message (an AppError: the app's error handler answers it).
 * Counted in the database, the same count for every server process (db/rate-limit-store.ts).
 */
export const rateLimitOptions = (
  config: Pick<Services['config'], 'PUBLIC_API_RATE_MAX' | 'PUBLIC_API_RATE_WINDOW_SECONDS'>,
  keyOf: (req: FastifyRequest) => string,
  db: Db,
) => ({
  store: databaseRateStore(db),
  max: config.PUBLIC_API_RATE_MAX,
  timeWindow: config.PUBLIC_API_RATE_WINDOW_SECONDS * 1000,
  keyGenerator: keyOf,
  errorResponseBuilder: (_req: FastifyRequest, ctx: { ttl: number }) =>
    new AppError(apiMessages.tooManyRequests(Math.max(1, Math.ceil(ctx.ttl / 1000))), 429),
});

export async function registerPublicApi(app: FastifyInstance, services: Services) {
  const { db, config } = services;
  const document = openApiDocument();

  /** The caller, known by the account's key: the API-key actor of that account, when its plan has the API. */
  async function callerOf(req: FastifyRequest): Promise<Actor> {
    const key = apiKeyOf(req);
    if (!key) throw new AppError(apiMessages.apiKeyRequired, 401);
    const account = await apiKeysRepo.accountByKey(db, key);
    if (!account) throw new AppError(apiMessages.apiKeyInvalid, 401);
    if (!planHasApi(account)) throw new AppError(apiMessages.apiNotInPlan, 403);
    return apiKeyActor(account.id);
  }

  /** Takes the request's Idempotency-Key: 'run' it, or what to answer instead (a replay, 409, 422). */
  async function claimKey(actor: Actor, key: string, hash: string) {
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await apiIdempotencyRepo.claim(db, actor, key, hash, IDEMPOTENCY_LEASE_SECONDS))
        return { run: true as const };
      const row = await apiIdempotencyRepo.find(db, actor, key);
      if (!row) continue; // given up by a request that failed meanwhile: claim it afresh
      if (row.requestHash !== hash) throw new AppError(apiMessages.idempotencyMismatch, 422);
      if (row.state === 'done')
        return { run: false as const, status: row.statusCode ?? 200, answer: row.answer };
      if (await apiIdempotencyRepo.takeOver(db, actor, key, IDEMPOTENCY_LEASE_SECONDS))
        return { run: true as const };
      throw new AppError(apiMessages.idempotencyInProgress, 409);
    }
    throw new AppError(apiMessages.idempotencyInProgress, 409);
  }

  /** Runs a send once per Idempotency-Key (a fresh key without the header) and answers it. */
  async function idempotent(
    req: FastifyRequest,
    reply: FastifyReply,
    actor: Actor,
    send: (key: string) => Promise<unknown>,
  ) {
    const header = req.headers[IDEMPOTENCY_HEADER];
    if (header === undefined) return reply.send(success(await send(`api:${newId()}`)));
    if (typeof header !== 'string' || !/^[\x21-\x7e]{1,200}$/.test(header))
      throw new AppError(apiMessages.idempotencyKeyInvalid, 400);
    const { api_key: _, ...query } = req.query as Record<string, unknown>;
    const hash = sha256(JSON.stringify([req.routeOptions.url, query, req.body ?? null]));
    const claimed = await claimKey(actor, header, hash);
    if (!claimed.run)
      return reply.code(claimed.status).header('idempotent-replayed', 'true').send(claimed.answer);
    const remember = (status: number, answer: unknown) =>
      apiIdempotencyRepo.remember(db, actor, header, status, answer);
    let answer: unknown;
    try {
      answer = await send(`api:${header}`);
    } catch (err) {
      // A refusal is the answer to this request, replayed as such; anything else (a disconnected chip, a
      // rate limit, a bug) leaves the key free: a retry sends, once, by the same key.
      const status = err instanceof AppError ? statusOf(err) : 500;
      if (err instanceof AppError && status >= 400 && status < 500 && status !== 409 && status !== 429)
        await remember(status, failure(err.message));
      else await apiIdempotencyRepo.release(db, actor, header);
      throw err;
    }
    await remember(200, success(answer));
    return reply.send(success(answer));
  }

  await app.register(
    async (scope) => {
      // JSON only, leniently (any content type is read as JSON, as curl -d sends form-encoded by default).
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT }, jsonBodyParser(400));

      // Per key (hashed: the limiter's memory holds no key); a request without one counts for its IP.
      await scope.register(
        rateLimit,
        rateLimitOptions(
          config,
          (req) => {
            const key = apiKeyOf(req);
            return key ? `key:${sha256(key)}` : `ip:${req.ip}`;
          },
          db,
        ),
      );

      // The envelope with the right status; what is not ours (a body too large, a bug) goes to the app's.
      scope.setErrorHandler((err, _req, reply) => {
        if (err instanceof AppError) return reply.code(statusOf(err)).send(failure(err.message));
        throw err;
      });

      const notFound = (req: FastifyRequest, reply: FastifyReply) => {
        const path = (req.url.split('?')[0] ?? '').replace(/\/+$/, '');
        const known = Object.values(publicEndpoints).some((e) => `${PUBLIC_API_BASE}${e.path}` === path);
        if (known) return reply.code(405).header('allow', 'POST').send(failure(apiMessages.methodNotAllowed));
        return reply.code(404).send(failure(apiMessages.endpointNotFound));
      };
      scope.setNotFoundHandler(notFound);
      // GETs under /api/v1/ are ours too, not the built app's static files (its wildcard would answer them).
      scope.get('/*', { config: { rateLimit: false } }, notFound);

      scope.get('/openapi.json', { config: { rateLimit: false } }, async (_req, reply) =>
        reply.header('cache-control', 'no-cache').send(document),
      );

      const e = publicEndpoints;

      scope.post(e.sendText.path, async (req, reply) => {
        const actor = await callerOf(req);
        const q = req.query as Record<string, unknown>;
        // The third-party form: the message in the query, the phone in the body at phone_field.
        if (q.phone_field !== undefined) {
          const query = parse(e.thirdParty.query, q);
          const body = parse(e.thirdParty.body, req.body ?? {});
          const phone = readJsonPath(body, query.phone_field);
          if (typeof phone !== 'string' && typeof phone !== 'number')
            throw new AppError(apiMessages.phoneFieldMissing(query.phone_field), 400);
          return idempotent(req, reply, actor, (key) =>
            sendTextTo(services, actor, {
              chipId: query.chip,
              key,
              phone: String(phone),
              text: query.message,
            }),
          );
        }
        const query = parse(e.sendText.query, q);
        const body = parse(e.sendText.body, req.body ?? {});
        return idempotent(req, reply, actor, (key) =>
          sendTextTo(services, actor, {
            chipId: query.chip,
            key,
            phone: String(body.phone),
            text: body.message,
          }),
        );
      });

      scope.post(e.sendFlow.path, async (req, reply) => {
        const actor = await callerOf(req);
        const query = parse(e.sendFlow.query, req.query);
        const body = parse(e.sendFlow.body, req.body ?? {});
        return idempotent(req, reply, actor, (key) =>
          startFlowFor(services, actor, {
            chipId: query.chip,
            key,
            phone: String(body.phone),
            flowId: body.flow,
            variables: body.metadata,
          }),
        );
      });

      for (const [endpoint, change] of [
        [e.tags, 'add'],
        [e.tagsRemove, 'remove'],
      ] as const)
        scope.post(endpoint.path, async (req, reply) => {
          const actor = await callerOf(req);
          parse(endpoint.query, req.query);
          const body = parse(endpoint.body, req.body ?? {});
          const answer = await changeContactTags(services, actor, {
            phone: String(body.phone),
            tags: body.tags,
            change,
            metadata: body.metadata,
          });
          return reply.send(success(answer));
        });

      scope.post(e.sendTemplate.path, async (req, reply) => {
        const actor = await callerOf(req);
        const query = parse(e.sendTemplate.query, req.query);
        const {
          to,
          payloads,
          conversation_creation_rule,
          redirect,
          chatbot,
          flow,
          department,
          ...variables
        } = parse(e.sendTemplate.body, req.body ?? {});
        return idempotent(req, reply, actor, (key) =>
          sendTemplateTo(services, actor, {
            chipId: query.chip,
            key,
            phone: String(to),
            template: query.template,
            language: query.language,
            variables: variables as Record<string, string>,
            payloads,
            conversation_creation_rule,
            redirect,
            chatbot,
            flow,
            department,
          }),
        );
      });
    },
    { prefix: PUBLIC_API_BASE },
  );
}
