// The integrations' rows (outbound.ts, contact-tags.ts): the keys of what was sent (outbound_sends), and the
// few writes the sends make on the account's contacts and campaigns. Every function takes who acts (the API
// key's caller, or the system for a webhook's event) and keeps to its account.
import { and, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { Actor } from '../../access';
import type { Db } from '../../db';
import {
  campaignRecipients,
  campaigns,
  contacts,
  messages,
  outboundSends,
  tags,
  users,
} from '../../db/schema';
import { dataAfter, tagsAfter } from '../contacts/contacts.repo';

export type OutboundSendRow = typeof outboundSends.$inferSelect;
type CampaignFields = Omit<typeof campaigns.$inferInsert, 'id' | 'accountId' | 'userId'>;

const ofKey = (actor: Actor, key: string) =>
  and(eq(outboundSends.accountId, actor.accountId), eq(outboundSends.key, key));

export const outboundRepo = {
  /** What was sent for this key, if anything. */
  async sent(db: Db, actor: Actor, key: string): Promise<OutboundSendRow | null> {
    const [row] = await db.select().from(outboundSends).where(ofKey(actor, key)).limit(1);
    return row ?? null;
  },
  /** Records the key (in the send's own transaction); false when another call recorded it first. */
  async record(
    db: Db,
    actor: Actor,
    o: { key: string; kind: 'flow' | 'template'; conversationId?: string; campaignId?: string },
  ): Promise<boolean> {
    const [recorded] = await db
      .insert(outboundSends)
      .values({ ...o, accountId: actor.accountId })
      .onConflictDoNothing()
      .returning();
    return Boolean(recorded);
  },
  /** The text message stored under this message_id (a text sent for a key: outboundMessageId). */
  async storedMessage(db: Db, actor: Actor, messageId: string) {
    const [row] = await db
      .select()
      .from(messages)
      .where(and(eq(messages.accountId, actor.accountId), eq(messages.messageId, messageId)))
      .limit(1);
    return row ?? null;
  },
  /** The account's owner (not deleted): the creator a campaign row needs. */
  async ownerId(db: Db, actor: Actor): Promise<string | null> {
    const [owner] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.accountId, actor.accountId), eq(users.userRole, 'owner'), eq(users.filed, false)))
      .limit(1);
    return owner?.id ?? null;
  },
  /**
   * A send's variables merged into the contact's (a flow reads them as {key}); `name` names a contact that
   * has none (a new one), never renaming one the business named.
   */
  async setContactVariables(
    db: Db,
    actor: Actor,
    contactId: string,
    variables: Readonly<Record<string, unknown>>,
    name: string,
  ) {
    await db
      .update(contacts)
      .set({
        data: dataAfter(variables),
        ...(name && { name: sql`case when ${contacts.name} = '' then ${name} else ${contacts.name} end` }),
      })
      .where(and(eq(contacts.id, contactId), eq(contacts.accountId, actor.accountId)));
  },
  /** Adds or removes tags of the contact, with the caller's metadata merged into its variables, in one UPDATE. */
  async changeContactTags(
    db: Db,
    actor: Actor,
    contactId: string,
    o: { change: 'add' | 'remove'; tagIds: readonly string[]; metadata?: Readonly<Record<string, unknown>> },
  ) {
    const [row] = await db
      .update(contacts)
      .set({
        tags: tagsAfter(o.change, o.tagIds),
        ...(o.metadata && Object.keys(o.metadata).length && { data: dataAfter(o.metadata) }),
      })
      .where(and(eq(contacts.id, contactId), eq(contacts.accountId, actor.accountId)))
      .returning({ id: contacts.id, tags: contacts.tags });
    return row ?? null;
  },
  /** The account's tags (not deleted) named, ignoring case, or identified by one of `refs`. */
  tagsByRef(db: Db, actor: Actor, refs: readonly string[]) {
    const lower = [...new Set(refs.map((r) => r.toLowerCase()))];
    return db
      .select({ id: tags.id, name: tags.name })
      .from(tags)
      .where(
        and(
          eq(tags.accountId, actor.accountId),
          eq(tags.filed, false),
          or(inArray(tags.id, [...refs]), inArray(sql`lower(${tags.name})`, lower)),
        ),
      );
  },
  /**
   * A one-person official campaign, started now, with its key recorded and its first job queued by `queue`,
   * in one transaction; false when another call recorded the key first (nothing is made).
   */
  async createSingleCampaign(
    db: Db,
    actor: Actor,
    o: { id: string; key: string; ownerId: string; phone: string; fields: CampaignFields },
    queue: (tx: Db, row: typeof campaigns.$inferSelect) => Promise<void>,
  ): Promise<boolean> {
    return db.transaction(async (tx) => {
      if (!(await outboundRepo.record(tx, actor, { key: o.key, kind: 'template', campaignId: o.id })))
        return false;
      const now = new Date();
      const [row] = await tx
        .insert(campaigns)
        .values({
          ...o.fields,
          id: o.id,
          accountId: actor.accountId,
          userId: o.ownerId,
          status: 'started',
          startedAt: now,
          nextSendAt: now,
          peopleCount: 1,
        })
        .returning();
      if (!row) throw new Error('campaign not inserted');
      await tx.insert(campaignRecipients).values({ campaignId: o.id, seq: 1, phone: o.phone, data: {} });
      await queue(tx as Db, row);
      return true;
    });
  },
  /** Housekeeping over every account: keys recorded before `days` ago (a webhook's sender may replay for a while). */
  async prune(db: Db, days: number) {
    await db
      .delete(outboundSends)
      .where(lt(outboundSends.createdAt, sql`now() - ${days} * interval '1 day'`));
  },
};
