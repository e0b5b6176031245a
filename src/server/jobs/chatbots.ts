// The AI chatbot engine's jobs (src/server/domains/chatbots/engine.ts): an answer for one conversation (queued
// by a customer's message at its time + the response delay, a transfer, a retry's time), and the sweep that
// finishes conversations after 48 h without messages and answers any left with unanswered input.
import { answerConversation, sweepChatbots } from '../domains/chatbots/engine';
import { CHATBOT_REPLY_JOB, type ChatbotReplyJob } from '../domains/chatbots/start';
import type { JobKind } from './runner';

export const chatbotReplyJob: JobKind<ChatbotReplyJob> = {
  name: CHATBOT_REPLY_JOB,
  run: (data, services) => answerConversation(services, data.conversation, data),
  // A customer waits for the answer. A job mostly waits (the provider, the typing time): several workers, each
  // with a small batch, so that a long answer never holds back one due meanwhile. A job queued by this process
  // wakes a worker at its time; polling finds those queued by other processes.
  pollSeconds: 2,
  workers: 10,
  batchSize: 5,
  concurrency: 5,
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
