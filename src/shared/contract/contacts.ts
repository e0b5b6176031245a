// Contacts as the service screen uses them (spec 2 §3 Contact, §7): the contact drawer and the quick edits
// from a conversation. The contacts screen (list, import, export) adds its calls here.
import { z } from 'zod';
import { id } from './common';
import { contact } from './conversations';
import { defineCall } from './define';

export const annotation = z.object({ user: z.string().nullable(), created: z.string(), text: z.string() });
export type Annotation = z.infer<typeof annotation>;

/** The contact with what only the drawer shows: variables and annotations. */
export const contactDetails = contact.extend({
  data: z.record(z.string(), z.unknown()),
  annotations: z.array(annotation),
});
export type ContactDetails = z.infer<typeof contactDetails>;

export const contactsCalls = {
  'get-contact-by-id': defineCall({
    access: {},
    payload: z.object({ contact_id: id }),
    answer: contactDetails,
  }),
  /** 'Nome atualizado': the display name that takes precedence over the profile name; empty clears it. */
  'change-contact-name': defineCall({
    access: {},
    payload: z.object({ contact_id: id, override_name: z.string().max(200) }),
    answer: contactDetails,
  }),
  /** 'Tags atualizadas'; with a conversation id, that conversation's screens are told at once. */
  'change-contact-tags': defineCall({
    access: {},
    payload: z.object({ contact_id: id, tags: z.array(id).max(100), conversation_id: id.optional() }),
    answer: contactDetails,
  }),
  /** The drawer's Salvar: variables (values may be JSON) and annotations. */
  'change-contact-annotations-and-data': defineCall({
    access: {},
    payload: z.object({
      contact_id: id,
      data: z.record(z.string().max(100), z.unknown()),
      /** A new annotation's text; author and date are the server's. */
      new_annotation: z.string().max(4000).optional(),
    }),
    answer: contactDetails,
  }),
};
