// The AI chatbot engine's jobs (src/server/domains/chatbots/engine.ts): an answer for one conversation (queued
// by a customer's message at its time + the response delay, a transfer, a retry's time), and the sweep that
// finishes conversations after 48 h without messages and answers any left with unanswered input.
import { answerConversation, sweepChatbots } from '../domains/chatbots/engine';
import { CHATBOT_REPLY_JOB, type ChatbotReplyJob } from '../domains/chatbots/start';
import type { JobKind } from './runner';

export const chatbotReplyJob: JobKind<ChatbotReplyJob> = {
  name: CHATBOT_REPLY_JOB,
  run: (data, services) => answerConversation(services, data.conversation),
  // A customer waits for the answer: looked for twice a second. A job mostly waits (the provider, the typing
  // time), so many run at once.
  pollSeconds: 0.5,
  batchSize: 100,
  concurrency: 100,
  // Long enough for the slowest answer (provider time-out and typing); a killed run is taken again after it.
  expireInSeconds: 900,
  retryLimit: 10,
  retryDelaySeconds: 5,
};

export const chatbotSweepJob: JobKind = {
  name: 'chatbot-sweep',
  every: '* * * * *',
  atStart: true,
  // The next sweep comes anyway.
  retryLimit: 0,
  run: async (_data, services) => {
    await sweepChatbots(services);
  },
};
