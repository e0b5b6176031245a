// The 'webhook-event' job: sends one event an active webhook accepted (http/webhook-endpoint.ts queued it with
// its row, in one transaction) to the mapped telefone, through the integrations' idempotent send path
// (domains/integrations/outbound.ts) with the key webhook:<event id>: the webhook's flow on an unofficial chip
// (the mapped fields as the contact's variables, read by the flow as {name}), its fixed-content template on
// an official one (with its conversation rule and the flow of each quick-reply button). A retry after a crash
// finds the key recorded and sends nothing new. The outcome is written on the event row.
import { webhookMessages as M } from '../../shared/messages-webhooks';
import { type Actor, systemActor } from '../access';
import { sendTemplateTo, startFlowFor } from '../domains/integrations/outbound';
import { webhookEventsRepo, webhooksRepo } from '../domains/webhooks/webhooks.repo';
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

const finish = (services: Services, actor: Actor, eventId: string, failure: string | null) =>
  webhookEventsRepo.finish(services.db, actor, eventId, failure);

export async function sendWebhookEvent(services: Services, eventId: string) {
  const { db } = services;
  const event = await webhookEventsRepo.forJob(db, eventId);
  if (event?.status !== 'queued') return;
  // The job acts for the event's account only, as the webhook's sender did.
  const actor = systemActor(event.accountId, WEBHOOK_EVENT_JOB);
  const hook = await webhooksRepo.findWithFiled(db, actor, event.webhookId);
  if (!hook || hook.filed || !hook.chipId) return finish(services, actor, event.id, M.notConfigured);
  const target = {
    chipId: hook.chipId,
    phone: event.phone,
    key: webhookSendKey(event.id),
  };
  try {
    if (hook.template) {
      await sendTemplateTo(services, actor, {
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
      await startFlowFor(services, actor, { ...target, flowId: hook.flowId, variables: event.fields });
    } else return finish(services, actor, event.id, M.notConfigured);
  } catch (err) {
    // A refusal (the chip gone, the flow deleted) is the event's outcome; a disconnected chip is waited for a
    // while; anything else retries.
    const young = Date.now() - event.createdAt.getTime() < WAIT_FOR_CHIP_MS;
    if (err instanceof AppError && !(err.status === 503 && young))
      return finish(services, actor, event.id, err.message);
    throw err;
  }
  await finish(services, actor, event.id, null);
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
