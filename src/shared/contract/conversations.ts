// Conversations (spec 2). Issue 3 brings only the top-bar bell's counter; the service screen adds the rest.
import { z } from 'zod';
import { noPayload } from './common';
import { defineCall } from './define';

export const conversationsCalls = {
  /** Open human conversations the caller can see (attendants: their departments only). */
  'get-open-manual-conversation-count': defineCall({
    access: {},
    payload: noPayload,
    answer: z.object({ open_manual_count: z.number().int().nonnegative() }),
  }),
};
