import type { Handlers } from '../../http/context';
import { duplicateFlow, getFlow, importFlow, listFlows, saveFlow } from './flows.service';

export const flowsHandlers = {
  'get-flows-by-user': async (_p, ctx) => listFlows(ctx),
  'get-flow': async (p, ctx) => getFlow(ctx, p._id),
  'create-or-update-flow': async (p, ctx) => saveFlow(ctx, p),
  'duplicate-flow': async (p, ctx) => duplicateFlow(ctx, p),
  'import-flow': async (p, ctx) => importFlow(ctx, p),
} satisfies Handlers;
