import type { Handlers } from '../../http/context';
import { createTemplate, deleteTemplate, listTemplates } from './templates.service';

export const templatesHandlers = {
  'get-message-templates': (p, ctx) => listTemplates(ctx.services, ctx.actor, p.chip),
  'create-message-template': (p, ctx) => createTemplate(ctx.services, ctx.actor, p),
  'delete-message-template': (p, ctx) => deleteTemplate(ctx.services, ctx.actor, p),
} satisfies Handlers;
