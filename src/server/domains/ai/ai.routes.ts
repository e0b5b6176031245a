import type { Handlers } from '../../http/context';
import { createAiFollowUp, summarizeMessages } from './ai.service';

export const aiHandlers = {
  'summarize-messages': (p, ctx) => summarizeMessages(ctx, p),
  'create-ai-follow-up': (p, ctx) => createAiFollowUp(ctx, p),
} satisfies Handlers;
