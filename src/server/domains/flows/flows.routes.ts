import type { Handlers } from '../../http/context';
import { duplicateFlow, getFlow, importFlow, listFlows, saveFlow } from './flows.service';

export const flowsHandlers = {
  'get-flows-by-user': async (_p, ctx) => listFlows(ctx.services, ctx.actor),
  'get-flow': async (p, ctx) => getFlow(ctx.services, ctx.actor, p._id),
  'create-or-update-flow': async (p, ctx) => saveFlow(ctx.services, ctx.actor, p),
  'duplicate-flow': async (p, ctx) => duplicateFlow(ctx.services, ctx.actor, p),
  'import-flow': async (p, ctx) => importFlow(ctx.services, ctx.actor, p),
} satisfies Handlers;
