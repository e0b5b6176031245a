import type { Handlers } from '../../http/context';
import { importAudience, listAudiences, updateAudience } from './audiences.service';

export const audiencesHandlers = {
  'get-audiences-by-user': async (_p, ctx) => listAudiences(ctx.services, ctx.actor),
  'import-audience': async (p, ctx) => importAudience(ctx.services, ctx.actor, p, ctx.file),
  'create-or-update-audience': async (p, ctx) => updateAudience(ctx.services, ctx.actor, p),
} satisfies Handlers;
