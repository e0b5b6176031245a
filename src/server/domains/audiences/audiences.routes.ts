import type { Handlers } from '../../http/context';
import { importAudience, listAudiences, updateAudience } from './audiences.service';

export const audiencesHandlers = {
  'get-audiences-by-user': async (_p, ctx) => listAudiences(ctx),
  'import-audience': async (p, ctx) => importAudience(ctx, p),
  'create-or-update-audience': async (p, ctx) => updateAudience(ctx, p),
} satisfies Handlers;
