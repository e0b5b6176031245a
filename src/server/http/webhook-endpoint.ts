// The public endpoint third parties post events to: POST /api/v1/webhooks/:webhookId (spec 3 §2.13, §4
// Webhook status). No token: the webhook's id in the URL is the secret. What it does by status:
// - test: the JSON goes to the screen waiting in the room webhook_<id> ('Receber evento teste'), nothing sent;
// - inactive: refused (409), nothing sent;
// - active: the webhook's fields are mapped, telefone normalised (422 when it cannot be), and the event is
//   stored once per dedupe key (the Idempotency-Key header, else the body's sha256, within DEDUPE_WINDOW) with
//   its 'webhook-event' job in the same transaction; the answer (202) comes at once, the job sends.
// A repeat of the same event answers the same 202 (duplicate: true) without queuing. Bodies over
// WEBHOOK_BODY_LIMIT answer 413 before they are read; a webhook gets WEBHOOK_RATE_PER_MINUTE events a minute
// (429 with Retry-After).
import { createHash } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { webhookRoom } from '../../shared/contract/events';
import { PHONE_FIELD } from '../../shared/contract/webhooks';
import { newId } from '../../shared/ids';
import { messages } from '../../shared/messages';
import { apiMessages } from '../../shared/messages-api';
import { webhookMessages as M } from '../../shared/messages-webhooks';
import { normalizePhone } from '../../shared/phone';
import { mapFields } from '../../shared/rules/webhook-mapping';
import { type Actor, apiKeyActor } from '../access';
import type { Db } from '../db';
import { isDatabaseUnavailable } from '../db';
import { webhookEventsRepo, webhooksRepo } from '../domains/webhooks/webhooks.repo';
import { WEBHOOK_EVENT_JOB } from '../jobs/webhook-events';
import type { Services } from '../services';
import { AppError } from './errors';
import { rateLimitOptions } from './public-api';

/** 1 MB: an order, a payment or a CRM record is a few KB; a 10 MB body is refused before it is read. */
export const WEBHOOK_BODY_LIMIT = 1024 * 1024;
/** A retry of the same event within this window is not sent again. */
export const DEDUPE_WINDOW_HOURS = 24;
const IDEMPOTENCY_KEY_MAX = 255;
const ID = /^[0-9A-Z]{28}$/;

const refuse = (reply: FastifyReply, status: number, message: string) =>
  reply.code(status).send({ error: true, message });

/** The event's dedupe key: the caller's Idempotency-Key, else the body's hash. */
export function dedupeKey(header: unknown, raw: Buffer) {
  const given = typeof header === 'string' ? header.trim() : '';
  if (given) return `key:${given.slice(0, IDEMPOTENCY_KEY_MAX)}`;
  return `sha256:${createHash('sha256').update(raw).digest('hex')}`;
}

/**
 * Stores the event once per (webhook, key) within the window and queues its job in the same transaction. A
 * row of the same key older than the window gives its key up first (a new event, months later, is sent).
 */
export async function receiveEvent(
  services: Services,
  actor: Actor,
  e: { webhookId: string; key: string; phone: string; fields: Record<string, string> },
) {
  const event = await webhookEventsRepo.receive(
    services.db,
    actor,
    { ...e, id: newId() },
    DEDUPE_WINDOW_HOURS,
    (tx, eventId) => services.jobs.send(WEBHOOK_EVENT_JOB, { eventId }, { tx, key: eventId }),
  );
  // Committed: the worker looks now rather than at its next poll.
  if (!event.duplicate) services.jobs.wake(WEBHOOK_EVENT_JOB);
  return event;
}

/**
 * A scope for a third party's POSTs (a webhook, Guru's billing events): the body kept as the raw bytes it came
 * as, up to WEBHOOK_BODY_LIMIT, and the public API's rate limiter (429 with Retry-After), `perMinute` a minute
 * for each `key`.
 */
export async function thirdPartyScope(
  scope: FastifyInstance,
  perMinute: number,
  key: (req: FastifyRequest) => string,
  db: Db,
) {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_req, body, done) =>
    done(null, body),
  );
  await scope.register(
    rateLimit,
    rateLimitOptions({ PUBLIC_API_RATE_MAX: perMinute, PUBLIC_API_RATE_WINDOW_SECONDS: 60 }, key, db),
  );
}

export async function registerWebhookEndpoint(app: FastifyInstance, services: Services) {
  const perMinute = services.config.WEBHOOK_RATE_PER_MINUTE;
  await app.register(async (scope) => {
    // The body is kept as it came: hashed for the dedupe key, parsed here (not JSON is a clear 400). The
    // public API's limiter, per webhook (WEBHOOK_RATE_PER_MINUTE): 429 with Retry-After.
    await thirdPartyScope(
      scope,
      perMinute,
      (req) => `webhook:${(req.params as { webhookId?: string }).webhookId ?? ''}`,
      services.db,
    );
    scope.setErrorHandler((err: FastifyError | AppError, req, reply) => {
      if (err instanceof AppError) return refuse(reply, err.status === 200 ? 400 : err.status, err.message);
      if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
        return refuse(reply, 413, M.tooLarge(WEBHOOK_BODY_LIMIT / 1024));
      if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500)
        return refuse(reply, err.statusCode, messages.invalidPayload);
      // The database restarting: the sender retries a 5xx, and nothing of this delivery was kept.
      if (isDatabaseUnavailable(err)) return refuse(reply, 503, messages.databaseUnavailable);
      req.log.error({ err }, 'webhook endpoint failed');
      return refuse(reply, 500, messages.internalError);
    });

    // Another method on a webhook's URL is told to POST, as the public API tells it (not 'not found').
    scope.route({
      method: ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE'],
      url: '/api/v1/webhooks/:webhookId',
      config: { rateLimit: false },
      handler: async (_req, reply) =>
        reply.header('allow', 'POST').code(405).send({ error: true, message: apiMessages.methodNotAllowed }),
    });

    scope.post<{ Params: { webhookId: string } }>(
      '/api/v1/webhooks/:webhookId',
      { bodyLimit: WEBHOOK_BODY_LIMIT },
      async (req, reply) => {
        const webhookId = req.params.webhookId;
        if (!ID.test(webhookId)) return refuse(reply, 404, M.notFound);
        const hook = await webhooksRepo.byUrlId(services.db, webhookId);
        if (!hook) return refuse(reply, 404, M.notFound);
        // The id in the URL is the webhook's key: whoever posts acts for its account, as the API key does.
        const actor = apiKeyActor(hook.accountId);

        const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        let data: unknown;
        try {
          data = JSON.parse(raw.toString('utf8'));
        } catch {
          return refuse(reply, 400, M.notJson);
        }

        if (hook.status === 'test') {
          services.realtime.toWebhook(hook.id, { type: 'webhook_test', message: { _id: hook.id, data } });
          req.log.debug({ room: webhookRoom(hook.id) }, 'webhook test event');
          return reply.code(200).send({ error: false, message: M.testReceived });
        }
        if (hook.status === 'inactive') return refuse(reply, 409, M.inactive);
        const sends = hook.chipId && (hook.template || hook.flowId);
        if (!sends) return refuse(reply, 409, M.notConfigured);

        const fields = mapFields(data, hook.fields);
        const given = fields[PHONE_FIELD] ?? '';
        if (!given) return refuse(reply, 422, M.phoneMissing);
        const phone = normalizePhone(given);
        if (!phone) return refuse(reply, 422, M.phoneInvalid(given.slice(0, 60)));

        const event = await receiveEvent(services, actor, {
          webhookId: hook.id,
          key: dedupeKey(req.headers['idempotency-key'], raw),
          phone,
          fields,
        });
        if (event.duplicate) reply.header('idempotent-replayed', 'true');
        return reply.code(202).send({
          error: false,
          message: event.duplicate ? M.alreadyReceived : M.received,
          event: event.id,
          duplicate: event.duplicate,
        });
      },
    );
  });
}
