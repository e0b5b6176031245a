// Contacts as an actor reaches them: its account, and for attendants the contacts of their departments'
// conversations and those nobody has talked to yet (the access rule's contactReachCondition).
import { and, eq, type SQL } from 'drizzle-orm';
import { type Actor, contactReachCondition } from '../../access';
import type { Db } from '../../db';
import { contacts } from '../../db/schema';

export type ContactRow = typeof contacts.$inferSelect;
type Insert = typeof contacts.$inferInsert;
/** A contact's change, as columns or SQL on the current row (an append must not read and write back). */
export type ContactChange = { [K in keyof Insert]?: Insert[K] | SQL };

/** The contacts the actor reaches, not deleted. */
export const reachableContacts = (actor: Actor): SQL =>
  and(
    eq(contacts.accountId, actor.accountId),
    eq(contacts.filed, false),
    contactReachCondition(actor),
  ) as SQL;

export const contactsRepo = {
  async visible(db: Db, actor: Actor, contactId: string): Promise<ContactRow | null> {
    const [row] = await db
      .select()
      .from(contacts)
      .where(and(eq(contacts.id, contactId), reachableContacts(actor)))
      .limit(1);
    return row ?? null;
  },
  /** Changes a contact of the actor's account; null when there is none with that id. */
  async update(db: Db, actor: Actor, contactId: string, set: ContactChange) {
    const [row] = await db
      .update(contacts)
      .set(set)
      .where(and(eq(contacts.id, contactId), eq(contacts.accountId, actor.accountId)))
      .returning();
    return row ?? null;
  },
};
