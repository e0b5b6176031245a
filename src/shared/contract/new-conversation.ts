// New conversation (spec 2 §5 New conversation, §7): the contact picker, the official numbers' templates and
// start-new-conversation. Finished conversations (spec 2 §2.2): the history list.
import { z } from 'zod';
import { id } from './common';
import { contact, conversation } from './conversations';
import { defineCall } from './define';
import { fixedTemplate } from './scheduled-messages';

/** A row of the finished-conversations table (spec 2 §2.2): the conversation with its channel's names. */
export const historyConversation = conversation.extend({
  /** The channel's name; null when the channel was deleted ('Canal apagado'). */
  chip_name: z.string().nullable(),
  /** The chatbot's name; null when none answers it, or it was deleted (`chatbot_deleted`). */
  chatbot_name: z.string().nullable(),
  chatbot_deleted: z.boolean(),
});
export type HistoryConversation = z.infer<typeof historyConversation>;

export const newConversationCalls = {
  /** The contact picker: by name or phone, 10 a page (spec 2 §9). */
  'get-contacts-for-new-conversation': defineCall({
    access: {},
    payload: z.object({
      query: z.string().max(100).default(''),
      page: z.number().int().min(1).max(10_000).default(1),
      itemsPerPage: z.number().int().min(1).max(50).default(10),
    }),
    answer: z.object({ contacts: z.array(contact), total: z.number().int().nonnegative() }),
  }),
  /** get template messages by waba id: the APPROVED templates with fixed content, usable as they are. */
  'get-template-messages-by-waba-id': defineCall({
    access: {},
    payload: z.object({ waba: z.string().min(1).max(100) }),
    answer: z.array(fixedTemplate),
  }),
  /**
   * Opens a conversation with a contact (by id) or a number (`phone`, digits with country code) on a chip.
   * Official chips send the template first; an existing open conversation is answered as it is.
   */
  'start-new-conversation': defineCall({
    access: {},
    payload: z.object({
      chip: id,
      contact_id: id.optional(),
      phone: z.string().max(40).optional(),
      department: id.nullish(),
      template: fixedTemplate.nullish(),
    }),
    answer: conversation,
  }),
  /** Finished conversations (history): filter by type (mandatory), departments, tags, name or phone; paged. */
  'get-conversations-by-user': defineCall({
    access: {},
    payload: z.object({
      filter: z.object({
        text: z.string().max(100).default(''),
        types: z
          .array(z.enum(['chatbot', 'human']))
          .max(2)
          .default(['chatbot', 'human']),
        tags: z.array(id).max(200).default([]),
        departments: z.array(id).max(200).default([]),
        /** true: finished only; false: ongoing only; absent: both. */
        finished: z.boolean().optional(),
      }),
      page: z.number().int().min(1).max(100_000).default(1),
      itemsPerPage: z.number().int().min(1).max(100).default(10),
    }),
    answer: z.object({ conversations: z.array(historyConversation), total: z.number().int().nonnegative() }),
  }),
};
