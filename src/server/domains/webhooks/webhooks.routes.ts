import type { Handlers } from '../../http/context';
import { createOrUpdateWebhook, getWebhook, listWebhooks, webhookTemplates } from './webhooks.service';

export const webhooksHandlers = {
  'get-webhooks-by-user': (_p, ctx) => listWebhooks(ctx),
  'get-webhook-by-id': (p, ctx) => getWebhook(ctx, p._id),
  'create-or-update-webhook': (p, ctx) => createOrUpdateWebhook(ctx, p),
  'get-webhook-templates': (p, ctx) => webhookTemplates(ctx, p.chip),
} satisfies Handlers;
