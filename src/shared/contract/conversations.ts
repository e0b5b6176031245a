// Conversations, messages and contacts (spec 2 §3, §7): the message pipeline's calls. The service screen
// (Atendimento) adds its list, filters and conversation actions on top of these shapes.
import { z } from 'zod';
import {
  MESSAGE_ORIGINS,
  MESSAGE_SOURCES,
  MESSAGE_TYPES,
  MESSAGE_WAITED_MAX_MS,
  SENDABLE_MEDIA,
} from '../constants';
import { messages } from '../messages';
import { fileName, id, interactiveMenu, noPayload } from './common';
import { defineCall } from './define';

const iso = z.string();
export const mediaType = z.enum(Object.keys(SENDABLE_MEDIA) as ['image', 'audio', 'video', 'document']);
export type MediaType = z.infer<typeof mediaType>;

export const contact = z.object({
  _id: id,
  name: z.string(),
  override_name: z.string().nullable(),
  phone: z.string(),
  tags: z.array(id),
  ignore: z.boolean(),
  profile_picture: z.string().nullable(),
  channel_contact_id: z.string().nullable(),
  created: iso,
});
export type Contact = z.infer<typeof contact>;

export const replyMessage = z.object({
  type: z.string(),
  message: z.string(),
  media: z.string().nullable().optional(),
  forwarded: z.boolean().optional(),
});

export const message = z.object({
  _id: id,
  conversation_id: id,
  message: z.string(),
  origin: z.enum(MESSAGE_ORIGINS),
  /** Which engine wrote a message of origin 'chatbot'; absent on older copies. */
  source: z.enum(MESSAGE_SOURCES).nullish(),
  type: z.enum(MESSAGE_TYPES),
  media_url: z.string().nullable(),
  file_name: z.string().nullable(),
  /** Audio sent as a voice note. */
  ptt: z.boolean(),
  /** An audio's length in seconds, when known. */
  audio_seconds: z.number().int().nullish(),
  canonical_url: z.string().nullable(),
  deleted: z.boolean(),
  /** 0 pending, 1 sent, 3 delivered, 4 or more read; -1 failed (then `failure` says why, in pt-BR). */
  status: z.number().int(),
  failure: z.string().nullable(),
  created: iso,
  /** A send that waited on the attendant's device: when it was typed (its bubble shows this time). */
  typed_at: iso.nullish(),
  user: id.nullable(),
  message_id: z.string().nullable(),
  platform_message_id: z.string().nullable(),
  event: z.string().nullable(),
  reply_message: replyMessage.nullable(),
  location: z.object({ latitude: z.number(), longitude: z.number(), name: z.string().optional() }).nullable(),
  /** A flow's menu (quick replies or a list): the options the customer was offered. Absent on older copies. */
  interactive: interactiveMenu.nullish(),
});
export type Message = z.infer<typeof message>;

export const conversation = z.object({
  _id: id,
  contact,
  chip: id,
  chatbot: id.nullable(),
  chatbot_type: z.enum(['chatbot', 'flow_chatbot']).nullable(),
  flow: id.nullable(),
  department: id.nullable(),
  created: iso,
  finished: iso.nullable(),
  is_manual: z.boolean(),
  is_new: z.boolean(),
  waiting_response: z.boolean(),
  auto_follow_up: z.boolean(),
  /** Decided by the server: an automatic follow-up applies to it (src/shared/rules/follow-up.ts). */
  follow_up_applies: z.boolean(),
  context_window: iso.nullable(),
  channel_type: z.string().nullable(),
  last_message: message.nullable(),
  start_flow: z.boolean(),
  /** Who holds it under equal distribution (spec 3 §9), and their name; null when nobody does. */
  assigned_user: id.nullable(),
  assigned_user_name: z.string().nullable(),
});
export type Conversation = z.infer<typeof conversation>;

/** The app's own id for a message it sends: the key that makes a repeated send harmless. */
const localMessageId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, messages.fieldProblems.messageId);

export const conversationsCalls = {
  /** Open human conversations the caller can see (attendants: their departments only). */
  'get-open-manual-conversation-count': defineCall({
    access: {},
    payload: noPayload,
    answer: z.object({ open_manual_count: z.number().int().nonnegative() }),
  }),
  /** A conversation's messages, oldest first: the last `limit`, or those before `before`. */
  'get-messages-by-conversation': defineCall({
    access: {},
    payload: z.object({
      conversation_id: id,
      before: z.iso.datetime({ offset: true }).optional(),
      limit: z.number().int().min(1).max(500).default(200),
    }),
    answer: z.array(message),
  }),
  /**
   * Sends text or media into a conversation. Idempotent on `message_id`: the same id sent again, even
   * concurrently, stores one message, makes one provider send and gets the same answer.
   */
  'send-conversation-message': defineCall({
    access: {},
    payload: z.object({
      conversation_id: id,
      message_id: localMessageId,
      text: z.string().max(4096).default(''),
      /** A file uploaded first with upload-file. */
      media: z
        .object({
          type: mediaType,
          url: z.string().max(300),
          file_name: fileName(200).optional(),
          /** Audio only: send as a voice note (a recording), not as an audio file. */
          ptt: z.boolean().optional(),
        })
        .optional(),
      /** The message being answered. */
      reply_message: id.optional(),
      /**
       * How long it waited on the device (the offline outbox) before this try, in ms: the server keeps the time
       * it was typed as now minus this, by its own clock (a device's clock may be off; a duration is not).
       */
      waited_ms: z.number().int().min(0).max(MESSAGE_WAITED_MAX_MS).optional(),
    }),
    answer: message,
  }),
  /** Marks one of the caller's own sent messages deleted (never a summary), and deletes it at the provider. */
  'delete-conversation-message': defineCall({
    access: {},
    payload: z.object({ _id: id }),
    answer: message,
  }),
  /** Does this number have the messaging app on the chip's provider? `id` is the provider's id for it. */
  'check-phone': defineCall({
    access: {},
    payload: z.object({ phone: z.string().max(40), chip: id }),
    answer: z.object({ exists: z.boolean(), phone: z.string(), id: z.string().nullable() }),
  }),
  /**
   * The service screen's list (spec 2 §2.3, §9): open conversations the caller may see, newest activity
   * first, 15 at a time. With `conversation_id`, just that one (open or finished), for a refresh after an event.
   */
  'get-conversations-with-last-message': defineCall({
    access: {},
    payload: z.object({
      filter: z
        .object({
          situation: z.enum(['all', 'waiting_response']).default('all'),
          /** Empty means both. */
          types: z
            .array(z.enum(['chatbot', 'human']))
            .max(2)
            .default([]),
          departments: z.array(id).max(200).default([]),
          tags: z.array(id).max(200).default([]),
          chips: z.array(id).max(200).default([]),
          /** Name or phone. */
          text: z.string().max(100).default(''),
          /** 'Minhas': only those this user holds under equal distribution (spec 3 §9). */
          assigned_user: id.nullable().default(null),
        })
        .default({
          situation: 'all',
          types: [],
          departments: [],
          tags: [],
          chips: [],
          text: '',
          assigned_user: null,
        }),
      limit: z.number().int().min(1).max(100).default(15),
      /** The list so far: the next page starts after the last conversation shown. */
      after: z.object({ last_message_at: z.string(), _id: id }).optional(),
      conversation_id: id.optional(),
    }),
    answer: z.object({ conversations: z.array(conversation), load_more: z.boolean() }),
  }),
  /** 'Conversa atualizada': Marcar como respondida (waiting_response false), Desativar follow-up automático. */
  'change-conversation-data': defineCall({
    access: {},
    payload: z.object({
      conversation_id: id,
      waiting_response: z.literal(false).optional(),
      auto_follow_up: z.literal(false).optional(),
    }),
    answer: conversation,
  }),
  /** Atender como humano: the chatbot or flow stops, a person serves. */
  'set-conversation-manual': defineCall({
    access: {},
    payload: z.object({ conversation_id: id }),
    answer: conversation,
  }),
  /** Transferência (spec 2 §4, §5): to a department (human), an AI chatbot or a flow; tags may be set too. */
  'transfer-conversation': defineCall({
    access: {},
    payload: z.object({
      conversation_id: id,
      type: z.enum(['department', 'chatbot', 'flow']).or(z.literal('')),
      department: id.nullish(),
      chatbot: id.nullish(),
      flow: id.nullish(),
      tags: z.array(id).max(100).optional(),
    }),
    answer: conversation,
  }),
  'finish-conversation': defineCall({
    access: {},
    payload: z.object({ conversation_id: id }),
    answer: conversation,
  }),
  /** 'Atendimento retomado com sucesso': a finished conversation is served again (if the contact has no other open one on that chip). */
  'resume-conversation': defineCall({
    access: {},
    payload: z.object({ conversation_id: id }),
    answer: conversation,
  }),
  /** Bulk finish: open conversations with no message for `hours` (default 48). Owners and managers. */
  'finish-inactive-conversations': defineCall({
    access: { roles: ['owner', 'manager'] },
    payload: z.object({
      hours: z
        .number()
        .int()
        .min(1)
        .max(24 * 365)
        .default(48),
    }),
    answer: z.object({ finished: z.number().int().nonnegative() }),
  }),
  /**
   * The catch-up after a reconnect (offline issue §3): what changed for the caller since `cursor`, a cursor
   * this call answered before (the server's clock, never the device's). Without a cursor, or with one too
   * old or not understood, `reset` is true and only a fresh cursor comes back: the app then reloads its
   * lists. Bounded: at most `limit` conversations and `limit` messages a call; `more` asks for the next call
   * with the new cursor. Changes may come again across calls (the cursor overlaps a few seconds): the app
   * merges by id.
   */
  'get-changes-since': defineCall({
    access: {},
    payload: z.object({
      cursor: z.string().max(200).optional(),
      limit: z.number().int().min(1).max(500).default(200),
    }),
    answer: z.object({
      cursor: z.string(),
      reset: z.boolean(),
      /** Changed (new, updated, finished) and still visible to the caller; a finished one carries `finished`. */
      conversations: z.array(conversation),
      /** Changed and no longer visible to the caller (transferred to a department the attendant does not serve). */
      removed: z.array(id),
      /** Created or changed (status, deleted) in conversations the caller sees, oldest change first. */
      messages: z.array(message),
      more: z.boolean(),
    }),
  }),
  /** A note in the conversation's timeline (type system), seen by the team only. */
  'create-system-message': defineCall({
    access: {},
    payload: z.object({ conversation_id: id, message: z.string().trim().min(1).max(1000) }),
    answer: message,
  }),
  /** Uploads a file to send (spec 2 §7 upload-file): checked by its content against the type's formats. */
  'upload-file': defineCall({
    access: {},
    upload: { maxBytes: 'media' },
    payload: z.object({ type: mediaType, filename: fileName(200).optional() }),
    answer: z.object({ url: z.string(), type: mediaType, file_name: z.string(), mime: z.string() }),
  }),
};
