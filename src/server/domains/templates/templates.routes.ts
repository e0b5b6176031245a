import type { Handlers } from '../../http/context';
import { createTemplate, deleteTemplate, listTemplates } from './templates.service';

export const templatesHandlers = {
  'get-message-templates': (p, ctx) => listTemplates(ctx, p.chip),
  'create-message-template': (p, ctx) => createTemplate(ctx, p),
  'delete-message-template': (p, ctx) => deleteTemplate(ctx, p),
} satisfies Handlers;
