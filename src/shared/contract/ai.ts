// AI summary and AI follow-up (spec 2 §5 AI features, §7, §8): each spends one of the account's monthly
// balance and answers what is left of it.
import { z } from 'zod';
import { id } from './common';
import { message } from './conversations';
import { defineCall } from './define';

const aiPayload = z.object({
  conversation_id: id,
  /** An optional instruction from the attendant ('foque no pedido'). */
  text: z.string().trim().max(500).default(''),
});

export const aiCalls = {
  /** Summarises the last 30 text and audio messages into a 'summary' message of the conversation. */
  'summarize-messages': defineCall({
    access: {},
    payload: aiPayload,
    answer: z.object({ message, balance: z.number().int() }),
  }),
  /** A follow-up text from the last 15 messages, for the attendant to edit and send. */
  'create-ai-follow-up': defineCall({
    access: {},
    payload: aiPayload,
    answer: z.object({ follow_up: z.string(), balance: z.number().int() }),
  }),
};
