// Contacts as the service screen uses them (spec 2 §3 Contact, §7): the contact drawer and the quick edits
// from a conversation. The contacts screen (list, import, export) adds its calls here.
import { z } from 'zod';
import { CONTACT_IMPORT_BATCH, CONTACT_IMPORT_MAX_BYTES } from '../constants';
import { messages } from '../messages';
import { id, ok } from './common';
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

/** The contacts screen's filters (spec 2 §2.1), shared by the list and the export. */
export const contactFilter = z.object({
  /** Name or phone. */
  query: z.string().trim().max(200).default(''),
  /** Contacts with any of these tags. */
  tags: z.array(id).max(100).default([]),
  /** 'Por data de criação': the first and last instant of the chosen days, in the user's time zone. */
  created_from: z.iso.datetime({ offset: true }).optional(),
  created_to: z.iso.datetime({ offset: true }).optional(),
});
export type ContactFilter = z.input<typeof contactFilter>;

/** One row of a spreadsheet: `telefone` and the other recognised columns (the contact's variables). */
export const importPerson = z
  .object({ telefone: z.string().regex(/^[0-9]{10,15}$/, messages.fieldProblems.contactPhone) })
  .catchall(z.string().max(4000));
export type ImportPerson = z.infer<typeof importPerson>;

/** The spreadsheet analysis (send audience list): the Import object plus what the screen tells about it. */
export const audienceAnalysis = z.object({
  /** Valid contacts (the Import object's people). */
  valid: z.array(importPerson),
  /** Recognised header columns, telefone first (the Import object's props). */
  header: z.array(z.string()),
  /** Data rows read, valid or not. */
  total_count: z.number().int(),
  /** Rows refused, by their line number in the sheet. */
  invalid: z.array(z.object({ line: z.number().int(), reason: z.string() })),
  message: z.string(),
});
export type AudienceAnalysis = z.infer<typeof audienceAnalysis>;

export const contactsCalls = {
  /** The contacts screen's page: 'Foram encontrados N contatos' is `total`. */
  'get-contacts-by-user': defineCall({
    access: { area: 'contacts' },
    payload: contactFilter.extend({
      itemsPerPage: z.number().int().min(1).max(100).default(10),
      page: z.number().int().min(1).max(1_000_000).default(1),
    }),
    answer: z.object({ data: z.array(contact), total: z.number().int() }),
  }),
  /** Ignore on: the contact's messages stop being handled; off: chatbot and manual service answer again. */
  'ignore-contact': defineCall({
    access: { area: 'contacts' },
    payload: z.object({ contact_id: id, ignore: z.boolean() }),
    answer: contact,
  }),
  /** 'Contato apagado': managers and owners only. */
  'delete-contact': defineCall({
    access: { area: 'contacts', roles: ['owner', 'manager'] },
    payload: z.object({ contact_id: id }),
    answer: ok,
  }),
  /** Contatos_<date>.xlsx of the contacts the filters find; role user is refused with the spec's text. */
  'export-contacts': defineCall({
    access: { area: 'contacts' },
    payload: contactFilter,
    answer: z.object({ file_name: z.string(), content_base64: z.string() }),
  }),
  /** The spreadsheet analysis ('send audience list'): nothing is stored. */
  'send-audience-list': defineCall({
    access: {},
    upload: { maxBytes: CONTACT_IMPORT_MAX_BYTES },
    payload: z.object({}),
    answer: audienceAnalysis,
  }),
  /** 'Contatos importados com sucesso.': upserts by phone, merging the variables; the app sends batches. */
  'import-contacts': defineCall({
    access: { area: 'contacts' },
    payload: z.object({
      people: z.array(importPerson).min(1).max(CONTACT_IMPORT_BATCH),
      props: z.array(z.string().min(1).max(100)).min(1).max(200),
    }),
    answer: z.object({ created: z.number().int(), updated: z.number().int() }),
  }),
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
