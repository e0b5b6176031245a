// The 'webhook-event' job: sends one event an active webhook accepted (http/webhook-endpoint.ts queued it with
// its row, in one transaction) to the mapped telefone, through the integrations' idempotent send path
// (domains/integrations/outbound.ts) with the key webhook:<event id>: the webhook's flow on an unofficial chip
// (the mapped fields as the contact's variables, read by the flow as {name}), its fixed-content template on
// an official one (with its conversation rule and the flow of each quick-reply button). A retry after a crash
// finds the key recorded and sends nothing new. The outcome is written on the event row.
import { and, eq } from 'drizzle-orm';
import { webhookMessages as M } from '../../shared/messages-webhooks';
import { webhookEvents, webhooks } from '../db/schema';
import { sendTemplateTo, startFlowFor } from '../domains/integrations/outbound';
import { AppError } from '../http/errors';
import type { Services } from '../services';
import type { JobKind } from './runner';

export const WEBHOOK_EVENT_JOB = 'webhook-event';

/**
 * A disconnected chip (503) is waited for this long (the job's retries: 5 s, 10 s, 20 s, 40 s, 80 s): a short
 * blip does not lose the event; after it the refusal is the event's outcome.
 */
export const WAIT_FOR_CHIP_MS = 2 * 60 * 1000;

/** The send's idempotency key: one send per accepted event, however often the job runs. */
export const webhookSendKey = (eventId: string) => `webhook:${eventId}`;

async function finish(services: Services, eventId: string, failure: string | null) {
  await services.db
    .update(webhookEvents)
    .set({ status: failure ? 'error' : 'sent', failure, processedAt: new Date() })
    .where(and(eq(webhookEvents.id, eventId), eq(webhookEvents.status, 'queued')));
}

export async function sendWebhookEvent(services: Services, eventId: string) {
  const { db } = services;
  const [event] = await db.select().from(webhookEvents).where(eq(webhookEvents.id, eventId)).limit(1);
  if (event?.status !== 'queued') return;
  const [hook] = await db.select().from(webhooks).where(eq(webhooks.id, event.webhookId)).limit(1);
  if (!hook || hook.filed || !hook.chipId) return finish(services, event.id, M.notConfigured);
  const target = {
    accountId: event.accountId,
    chipId: hook.chipId,
    phone: event.phone,
    key: webhookSendKey(event.id),
  };
  try {
    if (hook.template) {
      await sendTemplateTo(services, {
        ...target,
        template: hook.template.name,
        language: hook.template.language,
        payloads: hook.templatePayloads.map((p) => ({ button: p.button, flow: p.payload ?? null })),
        conversation_creation_rule: hook.conversationCreationRule,
        redirect: hook.redirect ?? null,
        chatbot: hook.chatbotId,
        flow: hook.flowId,
        department: hook.departmentId,
      });
    } else if (hook.flowId) {
      await startFlowFor(services, { ...target, flowId: hook.flowId, variables: event.fields });
    } else return finish(services, event.id, M.notConfigured);
  } catch (err) {
    // A refusal (the chip gone, the flow deleted) is the event's outcome; a disconnected chip is waited for a
    // while; anything else retries.
    const young = Date.now() - event.createdAt.getTime() < WAIT_FOR_CHIP_MS;
    if (err instanceof AppError && !(err.status === 503 && young))
      return finish(services, event.id, err.message);
    throw err;
  }
  await finish(services, event.id, null);
}

export const webhookEventJob: JobKind<{ eventId: string }> = {
  name: WEBHOOK_EVENT_JOB,
  pollSeconds: 0.5,
  // Sends share the database with the endpoint: a few at a time keep its answers fast (embedded PGlite has
  // one connection for both).
  batchSize: 8,
  concurrency: 4,
  expireInSeconds: 120,
  retryLimit: 5,
  retryDelaySeconds: 5,
  run: ({ eventId }, services) => sendWebhookEvent(services, eventId),
};
