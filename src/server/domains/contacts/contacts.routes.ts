import { messages } from '../../../shared/messages';
import type { Handlers } from '../../http/context';
import { AppError } from '../../http/errors';
import {
  changeContactAnnotationsAndData,
  changeContactName,
  changeContactTags,
  deleteContact,
  exportContacts,
  getContact,
  ignoreContact,
  importContacts,
  listContacts,
} from './contacts.service';
import { analyseContactsSheet } from './contacts-sheet';

export const contactsHandlers = {
  'get-contact-by-id': (p, ctx) => getContact(ctx.services, ctx.actor, p.contact_id),
  'change-contact-name': (p, ctx) =>
    changeContactName(ctx.services, ctx.actor, p.contact_id, p.override_name),
  'change-contact-tags': (p, ctx) => changeContactTags(ctx.services, ctx.actor, p.contact_id, p.tags),
  'change-contact-annotations-and-data': (p, ctx) =>
    changeContactAnnotationsAndData(ctx.services, ctx.actor, p),
  'get-contacts-by-user': (p, ctx) => listContacts(ctx.services, ctx.actor, p),
  'ignore-contact': (p, ctx) => ignoreContact(ctx.services, ctx.actor, p.contact_id, p.ignore),
  'delete-contact': (p, ctx) => deleteContact(ctx.services, ctx.actor, p.contact_id),
  'export-contacts': (p, ctx) => exportContacts(ctx.services, ctx.actor, p),
  'send-audience-list': async (_p, ctx) => {
    if (!ctx.file) throw new AppError(messages.fileRequired);
    return analyseContactsSheet(ctx.file.buffer, ctx.file.filename);
  },
  'import-contacts': (p, ctx) => importContacts(ctx.services.db, ctx.actor, p),
} satisfies Handlers;
