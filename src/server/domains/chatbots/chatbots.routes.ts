import type { Handlers } from '../../http/context';
import { getChatbot, listChatbotModels, listChatbots, saveChatbot } from './chatbots.service';
import { testTurn } from './engine';

export const chatbotsHandlers = {
  'get-chatbots-by-user': async (_p, ctx) => listChatbots(ctx.services, ctx.actor),
  'get-chatbot': async (p, ctx) => getChatbot(ctx.services, ctx.actor, p._id),
  'get-chatbot-models': async () => listChatbotModels(),
  'create-or-update-chatbot': async (p, ctx) => saveChatbot(ctx.services, ctx.actor, p),
  'test-chatbot': async (p, ctx) => testTurn(ctx.services, p.draft, p.lines),
} satisfies Handlers;
