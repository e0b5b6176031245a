// Digital Manager Guru's billing webhook: POST /api/v1/billing/guru (README, 'Billing webhook'). Public (Guru
// calls it), authenticated by the account token Guru puts in every body (api_token), compared in constant time
// with GURU_WEBHOOK_TOKEN; nothing is stored for a refused call. Answers: 200 received (or already received:
// a replay changes nothing), 401 wrong or missing token, 503 not configured, 400 not JSON or unreadable, 422
// an event that names an unknown offer or subscription (stored as rejected; Guru's retry is processed again),
// 413 over the body limit, 429 over WEBHOOK_RATE_PER_MINUTE.
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { messages } from '../../shared/messages';
import { billingMessages as M } from '../../shared/messages-billing';
import { webhookMessages } from '../../shared/messages-webhooks';
import { platformJob } from '../access';
import { isDatabaseUnavailable } from '../db';
import { parseGuruEvent, receiveGuruEvent, tokenMatches } from '../domains/billing/guru-events';
import { isUniqueViolation } from '../domains/soft-save';
import type { Services } from '../services';
import { thirdPartyScope, WEBHOOK_BODY_LIMIT } from './webhook-endpoint';

export const GURU_WEBHOOK_PATH = '/api/v1/billing/guru';

const refuse = (reply: FastifyReply, status: number, message: string) =>
  reply.code(status).send({ error: true, message });

export async function registerGuruWebhook(app: FastifyInstance, services: Services) {
  await app.register(async (scope) => {
    await thirdPartyScope(scope, services.config.WEBHOOK_RATE_PER_MINUTE, () => 'guru-billing', services.db);
    scope.setErrorHandler((err: FastifyError, req, reply) => {
      if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
        return refuse(reply, 413, webhookMessages.tooLarge(WEBHOOK_BODY_LIMIT / 1024));
      if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500)
        return refuse(reply, err.statusCode, messages.invalidPayload);
      // The database restarting: the sender retries a 5xx, and nothing of this delivery was kept.
      if (isDatabaseUnavailable(err)) return refuse(reply, 503, messages.databaseUnavailable);
      req.log.error({ err }, 'guru webhook failed');
      return refuse(reply, 500, messages.internalError);
    });

    scope.post(GURU_WEBHOOK_PATH, { bodyLimit: WEBHOOK_BODY_LIMIT }, async (req, reply) => {
      const expected = services.config.GURU_WEBHOOK_TOKEN;
      if (!expected) return refuse(reply, 503, M.webhookNotConfigured);
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      let data: unknown;
      try {
        data = JSON.parse(raw.toString('utf8'));
      } catch {
        return refuse(reply, 400, M.webhookNotJson);
      }
      const token =
        data && typeof data === 'object' ? (data as { api_token?: unknown }).api_token : undefined;
      if (!tokenMatches(token, expected)) return refuse(reply, 401, M.webhookTokenInvalid);

      const parsed = parseGuruEvent(data, services.clock?.now() ?? new Date());
      if ('error' in parsed) return refuse(reply, 400, parsed.error);
      // The token is a secret: the ledger keeps the payload without it.
      const { api_token: _secret, ...payload } = data as Record<string, unknown>;
      // Two events of one new buyer at once (Guru sends the transaction and the subscription together): the
      // loser of the owner's unique e-mail rolls back whole and, tried again, renews the account just made.
      const guru = platformJob('guru-billing');
      const result = await receiveGuruEvent(services, guru, parsed.event, payload).catch((e: unknown) => {
        if (isUniqueViolation(e)) return receiveGuruEvent(services, guru, parsed.event, payload);
        throw e;
      });
      if (result.outcome === 'duplicate') {
        reply.header('idempotent-replayed', 'true');
        return reply
          .code(200)
          .send({ error: false, message: M.alreadyReceived, event: result.id, duplicate: true });
      }
      if (result.outcome === 'rejected')
        return reply.code(422).send({ error: true, message: result.message, event: result.id });
      return reply.code(200).send({
        error: false,
        message: result.kind === 'ignored' ? M.ignored : messages.eventReceived,
        event: result.id,
        kind: result.kind,
        duplicate: false,
      });
    });
  });
}
