// GET/POST /webhooks/whatsapp: Meta's verification of the URL, and the signed notifications (customer messages,
// delivery statuses, template status updates). A POST is checked against X-Hub-Signature-256 over the raw body, answered 200 at once,
// then processed in the background: media downloads can be slow and Meta retries answers slower than ~10 s.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { newId } from '../../../shared/ids';
import { messages as texts } from '../../../shared/messages';
import {
  applyOfficialStatuses,
  stopCampaignsOnTemplateEvent,
} from '../../domains/campaigns/official-delivery';
import { channelChipsRepo, channelInboxRepo } from '../../domains/chips/channel-chips.repo';
import { templateStatusChanged } from '../../domains/templates/template-status';
import { nestedDeeperThan } from '../../http/json';
import type { Services } from '../../services';
import type { ChannelSink, ReceiptStatus } from '../adapter';
import { createGraphClient, GraphError, graphErrorReason } from './graph';
import { queueMediaDownload } from './media-retry';
import { mediaOf, toInbound, webhookMessage, webhookNotification, webhookStatus } from './payload';

export const WEBHOOK_PATH = '/webhooks/whatsapp';
const WEBHOOK_BODY_LIMIT = 2 * 1024 * 1024;
const RECEIPTS: readonly string[] = ['sent', 'delivered', 'read', 'failed'] satisfies ReceiptStatus[];

/** Equal strings, in time that does not depend on where they differ. */
function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Meta's X-Hub-Signature-256: 'sha256=' + hex HMAC-SHA256 of the raw body with the app secret. */
export function signatureMatches(secret: string, raw: Buffer, header: string): boolean {
  const expected = `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
  return sameSecret(header.toLowerCase(), expected);
}

/** Reads one notification and hands its messages and statuses to the sink, in order. Never throws. */
export async function processNotification(
  deps: { sink: ChannelSink; services: Services },
  body: unknown,
): Promise<void> {
  const { sink, services } = deps;
  const log = services.log;
  const parsed = webhookNotification.safeParse(body);
  if (!parsed.success) {
    log.warn({ issues: parsed.error.issues.slice(0, 5) }, 'whatsapp webhook: unreadable notification');
    return;
  }
  const graph = createGraphClient(services.config, log);
  for (const entry of parsed.data.entry) {
    for (const change of entry.changes) {
      const value = change.value;
      if (change.field === 'message_template_status_update') {
        if (value) {
          try {
            // A template paused, disabled or rejected stops the official campaigns sending it; the screens hear.
            await stopCampaignsOnTemplateEvent(services, entry.id, value);
            await templateStatusChanged(services, entry.id, value);
          } catch (err) {
            log.error({ err, waba: entry.id }, 'whatsapp webhook: template status not applied');
          }
        }
        continue;
      }
      const phoneNumberId = value?.metadata?.phone_number_id;
      if (!value || !phoneNumberId || (change.field && change.field !== 'messages')) continue;
      const chip = await channelChipsRepo.byPhoneNumberId(services.db, phoneNumberId);
      // Stored whatever our chip status says: a customer's message is never dropped because we disconnected.
      if (!chip) {
        log.warn({ phoneNumberId }, 'whatsapp webhook: no chip has this phone_number_id; skipped');
        continue;
      }
      for (const raw of value.messages ?? []) {
        const message = webhookMessage.safeParse(raw);
        if (!message.success) {
          log.warn({ issues: message.error.issues.slice(0, 5) }, 'whatsapp webhook: unreadable message');
          continue;
        }
        const m = message.data;
        const profile = value.contacts?.find((c) => c.wa_id === m.from) ?? value.contacts?.[0];
        try {
          let failedMedia = false;
          const inbound = await toInbound(m, profile?.profile?.name, async (id) => {
            try {
              return await graph.download(id);
            } catch (err) {
              const reason = err instanceof Error ? err.message : String(err);
              log.warn({ mediaId: id, wamid: m.id, reason }, 'whatsapp webhook: media download failed');
              failedMedia = !(err instanceof GraphError && err.permanent);
              throw err;
            }
          });
          // The retry is queued before the notice is stored: a crash in between replays the notification and
          // the job finds the message then; never a notice without its retry.
          const found = failedMedia ? mediaOf(m) : null;
          if (found) {
            await queueMediaDownload(services, {
              chipId: chip.id,
              platformMessageId: m.id,
              mediaId: found.media.id,
              kind: found.kind,
              caption: found.media.caption ?? '',
              ...(found.media.filename && { fileName: found.media.filename }),
              ...(found.voice && { voice: true }),
              attempt: 1,
            });
          }
          if (inbound) await sink.inbound(chip, inbound);
        } catch (err) {
          log.error({ err, wamid: m.id }, 'whatsapp webhook: message not stored');
        }
      }
      // Official campaigns' delivery data first, for all the statuses at once: a receipt below may wait for
      // its message, and a send's first status must not wait behind it (it is what tells the sending job
      // that Meta took a send whose answer was lost).
      let skip = new Set<string>();
      try {
        skip = await applyOfficialStatuses(services, value.statuses ?? []);
      } catch (err) {
        log.error({ err }, 'whatsapp webhook: official campaign statuses not applied');
      }
      const receipts: { id: string; receipt: ReceiptStatus; code: number | undefined }[] = [];
      for (const raw of value.statuses ?? []) {
        const status = webhookStatus.safeParse(raw);
        if (!status.success || !RECEIPTS.includes(status.data.status) || skip.has(status.data.id)) continue;
        receipts.push({
          id: status.data.id,
          receipt: status.data.status as ReceiptStatus,
          code: status.data.errors?.[0]?.code,
        });
      }
      for (const { id, receipt, code } of receipts) {
        try {
          await sink.receipt(chip.id, id, receipt, receipt === 'failed' ? graphErrorReason(code) : undefined);
        } catch (err) {
          log.error({ err, wamid: id }, 'whatsapp webhook: status not applied');
        }
      }
    }
  }
}

export async function registerWebhookRoutes(
  app: FastifyInstance,
  deps: {
    services: () => Services;
    received: (inboxId: string, body: unknown, log: FastifyBaseLogger) => void;
  },
) {
  // Its own scope: the signature is over the exact bytes Meta sent, so this route keeps the raw body and
  // the JSON parser of /api (registered on the root) stays as it is.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT },
      (_req, body, done) => done(null, body),
    );

    scope.get<{ Querystring: Record<string, string | string[] | undefined> }>(
      WEBHOOK_PATH,
      async (req, reply) => {
        const expected = deps.services().config.WHATSAPP_VERIFY_TOKEN;
        const q = req.query;
        const mode = q['hub.mode'];
        const token = q['hub.verify_token'];
        const challenge = q['hub.challenge'];
        if (
          expected &&
          mode === 'subscribe' &&
          typeof token === 'string' &&
          typeof challenge === 'string' &&
          sameSecret(token, expected)
        ) {
          return reply.code(200).type('text/plain; charset=utf-8').send(challenge);
        }
        req.log.warn(
          {
            ip: req.ip,
            reason: expected ? 'wrong mode or verify token' : 'WHATSAPP_VERIFY_TOKEN is not set',
          },
          'whatsapp webhook verification refused',
        );
        return reply.code(403).send({ error: true, message: texts.webhookVerifyFailed });
      },
    );

    scope.post(WEBHOOK_PATH, async (req, reply) => {
      const secret = deps.services().config.WHATSAPP_APP_SECRET;
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const header = req.headers['x-hub-signature-256'];
      const refusal = !secret
        ? 'WHATSAPP_APP_SECRET is not set'
        : typeof header !== 'string' || header === ''
          ? 'missing signature'
          : signatureMatches(secret, raw, header)
            ? null
            : 'bad signature';
      if (refusal) {
        req.log.warn({ ip: req.ip, reason: refusal }, 'whatsapp webhook refused');
        return reply.code(403).send({ error: true, message: texts.webhookSignatureInvalid });
      }
      let body: unknown;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        req.log.warn({ ip: req.ip }, 'whatsapp webhook: signed body is not JSON');
        return reply.code(400).send({ error: true, message: texts.invalidJson });
      }
      // Meta only sends objects ({object, entry}). Anything else (null, a list, a scalar) or a body too deep
      // to walk safely is no notification: nothing to keep for a replay, and a 400 rather than a 200 tells
      // the sender it was not taken.
      if (!body || typeof body !== 'object' || Array.isArray(body) || nestedDeeperThan(body)) {
        req.log.warn({ ip: req.ip }, 'whatsapp webhook: signed body is not a notification object');
        return reply.code(400).send({ error: true, message: texts.webhookNotANotification });
      }
      // Kept before answering: once Meta has its 200 it never sends this notification again.
      const inboxId = newId();
      await channelInboxRepo.store(deps.services().db, inboxId, 'cloud-api', body);
      reply.code(200).send({ error: false, message: 'ok' });
      deps.received(inboxId, body, req.log);
      return reply;
    });
  });
}
