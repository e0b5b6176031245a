// How a chatbot's answer is asked for: the runner's job that answers a conversation's customer (engine.ts does
// the work), and the change that makes a conversation served by an AI chatbot. Kept apart from the engine so
// that conversation actions, chips and the flow engine can use them without importing the engine.
import type { Db } from '../../db';
import type { Services } from '../../services';

export const CHATBOT_REPLY_JOB = 'chatbot-reply';
export interface ChatbotReplyJob {
  conversation: string;
  /** The customer message whose arrival queued it (absent: a transfer, a retry, the sweep). */
  message?: string;
}

/** Queues an answer. `key` makes it unique (a customer message: a replayed webhook adds nothing). */
export function queueChatbotReply(
  services: Pick<Services, 'jobs'>,
  conversationId: string,
  opts: { key?: string; tx?: Db; startAfter?: Date; message?: string } = {},
) {
  const { message, ...send } = opts;
  return services.jobs.send<ChatbotReplyJob>(
    CHATBOT_REPLY_JOB,
    { conversation: conversationId, ...(message && { message }) },
    send,
  );
}

/**
 * The change that makes an AI chatbot serve the conversation: no person, no flow. Its callers reset the
 * chatbot's run in the same transaction (resetRuns(tx, 'chatbots', [id]), conversations/claim.ts): a fresh
 * position, so the engine then answers the customer's messages no one answered yet (engine.ts answeredUpTo).
 */
export const servingChatbot = (chatbotId: string) => ({
  isManual: false,
  chatbotType: 'chatbot' as const,
  chatbotId,
  flowId: null,
  startFlow: false,
});
