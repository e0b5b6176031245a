import { messages } from '../../../shared/messages';
import type { Handlers } from '../../http/context';
import { AppError } from '../../http/errors';
import { getChatbot, listChatbotModels, listChatbots, saveChatbot } from './chatbots.service';

export const chatbotsHandlers = {
  'get-chatbots-by-user': async (_p, ctx) => listChatbots(ctx),
  'get-chatbot': async (p, ctx) => getChatbot(ctx, p._id),
  'get-chatbot-models': async () => listChatbotModels(),
  'create-or-update-chatbot': async (p, ctx) => saveChatbot(ctx, p),
  // The engine's turn comes with the engine (next commit).
  'test-chatbot': async () => {
    throw new AppError(messages.chatbotNotConfigured);
  },
} satisfies Handlers;
