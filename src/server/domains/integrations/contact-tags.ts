// The public API's tags and tags/remove (spec 3 §7): the tags, by name or id, added to or removed from the
// contact of a phone (made when new), with the caller's metadata as the contact's variables, in one UPDATE.
import { apiMessages } from '../../../shared/messages-api';
import type { Actor } from '../../access';
import { AppError } from '../../http/errors';
import type { Services } from '../../services';
import { contactByPhone } from '../conversations/open-conversation';
import { type FlowVariables, outboundPhone } from './outbound';
import { outboundRepo } from './outbound.repo';

/** The account's tags named (ignoring case) or identified by `refs`; a 404 when any is not the account's. */
async function accountTags(services: Services, actor: Actor, refs: readonly string[]) {
  const rows = await outboundRepo.tagsByRef(services.db, actor, refs);
  const found = (ref: string) => rows.some((t) => t.id === ref || t.name.toLowerCase() === ref.toLowerCase());
  if (!refs.every(found)) throw new AppError(apiMessages.tagsNotFound, 404);
  return [...new Set(rows.map((t) => t.id))];
}

export async function changeContactTags(
  services: Services,
  actor: Actor,
  o: {
    phone: string;
    tags: readonly string[];
    change: 'add' | 'remove';
    metadata?: FlowVariables;
  },
) {
  const phone = outboundPhone(o.phone);
  const ids = await accountTags(services, actor, o.tags);
  const contact = await contactByPhone(services.db, actor.accountId, phone);
  const row = await outboundRepo.changeContactTags(services.db, actor, contact.id, {
    change: o.change,
    tagIds: ids,
    metadata: o.metadata,
  });
  if (!row) throw new AppError(apiMessages.tagsNotFound, 404);
  return { contact_id: row.id, tags: row.tags };
}
