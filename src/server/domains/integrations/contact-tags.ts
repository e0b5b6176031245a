// The public API's tags and tags/remove (spec 3 §7): the tags, by name or id, added to or removed from the
// contact of a phone (made when new), with the caller's metadata as the contact's variables, in one UPDATE.
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import { apiMessages } from '../../../shared/messages-api';
import type { Db } from '../../db';
import { contacts, tags } from '../../db/schema';
import { AppError } from '../../http/errors';
import { dataAfter, tagsAfter } from '../contacts/contact-change';
import { contactByPhone } from '../conversations/open-conversation';
import { type FlowVariables, outboundPhone } from './outbound';

/** The account's tags named (ignoring case) or identified by `refs`; a 404 when any is not the account's. */
async function accountTags(db: Db, accountId: string, refs: readonly string[]) {
  const lower = [...new Set(refs.map((r) => r.toLowerCase()))];
  const rows = await db
    .select({ id: tags.id, name: tags.name })
    .from(tags)
    .where(
      and(
        eq(tags.accountId, accountId),
        eq(tags.filed, false),
        or(inArray(tags.id, [...refs]), inArray(sql`lower(${tags.name})`, lower)),
      ),
    );
  const found = (ref: string) => rows.some((t) => t.id === ref || t.name.toLowerCase() === ref.toLowerCase());
  if (!refs.every(found)) throw new AppError(apiMessages.tagsNotFound, 404);
  return [...new Set(rows.map((t) => t.id))];
}

export async function changeContactTags(
  db: Db,
  o: {
    accountId: string;
    phone: string;
    tags: readonly string[];
    change: 'add' | 'remove';
    metadata?: FlowVariables;
  },
) {
  const phone = outboundPhone(o.phone);
  const ids = await accountTags(db, o.accountId, o.tags);
  const contact = await contactByPhone(db, o.accountId, phone);
  const [row] = await db
    .update(contacts)
    .set({
      tags: tagsAfter(o.change, ids),
      ...(o.metadata && Object.keys(o.metadata).length && { data: dataAfter(o.metadata) }),
    })
    .where(eq(contacts.id, contact.id))
    .returning({ id: contacts.id, tags: contacts.tags });
  if (!row) throw new AppError(apiMessages.tagsNotFound, 404);
  return { contact_id: row.id, tags: row.tags };
}
