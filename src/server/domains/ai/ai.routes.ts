import { userActor } from '../../access';
import type { Handlers } from '../../http/context';
import { createAiFollowUp, summarizeMessages } from './ai.service';

export const aiHandlers = {
  'summarize-messages': (p, ctx) => summarizeMessages(ctx.services, userActor(ctx.user), p),
  'create-ai-follow-up': (p, ctx) => createAiFollowUp(ctx.services, userActor(ctx.user), p),
} satisfies Handlers;
