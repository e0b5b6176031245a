import type { Handlers } from '../../http/context';
import { createOrUpdateWebhook, getWebhook, listWebhooks, webhookTemplates } from './webhooks.service';

export const webhooksHandlers = {
  'get-webhooks-by-user': (_p, ctx) => listWebhooks(ctx.services, ctx.actor),
  'get-webhook-by-id': (p, ctx) => getWebhook(ctx.services, ctx.actor, p._id),
  'create-or-update-webhook': (p, ctx) => createOrUpdateWebhook(ctx.services, ctx.actor, p),
  'get-webhook-templates': (p, ctx) => webhookTemplates(ctx.services, ctx.actor, p.chip),
} satisfies Handlers;
