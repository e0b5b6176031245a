import type { Handlers } from '../../http/context';
import {
  changeContactAnnotationsAndData,
  changeContactName,
  changeContactTags,
  getContact,
} from './contacts.service';

export const contactsHandlers = {
  'get-contact-by-id': (p, ctx) => getContact(ctx, p.contact_id),
  'change-contact-name': (p, ctx) => changeContactName(ctx, p.contact_id, p.override_name),
  'change-contact-tags': (p, ctx) => changeContactTags(ctx, p.contact_id, p.tags),
  'change-contact-annotations-and-data': (p, ctx) => changeContactAnnotationsAndData(ctx, p),
} satisfies Handlers;
