// The chatbot models a business can start from (spec 3 §3 Chatbot model): each asks a few content fields
// and turns them into the chatbot's context (rules/chatbot.ts draftFromModel). Their texts are in the
// catalogue (messages-chatbot-models.ts).
import { CHATBOT_MODELS } from '../messages-chatbot-models';

export { CHATBOT_MODELS };

export const chatbotModelById = (id: string) => CHATBOT_MODELS.find((m) => m._id === id) ?? null;
