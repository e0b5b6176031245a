// The account's webhooks and the events third parties post to them. Every function takes who acts and keeps
// to its account, except the two entries that come before anyone is known: the public endpoint names a
// webhook by the id in its URL (the id is the secret) and the job names an event by the id it was queued with.
import { and, desc, eq, lt, ne, sql } from 'drizzle-orm';
import type { Actor, UserActor } from '../../access';
import type { ChipRow } from '../../channels/adapter';
import type { Db } from '../../db';
import { insertOnce } from '../../db/insert-once';
import { chips, webhookEvents, webhooks } from '../../db/schema';

export type WebhookRow = typeof webhooks.$inferSelect;
export type WebhookEventRow = typeof webhookEvents.$inferSelect;
type WebhookFields = Partial<Omit<typeof webhooks.$inferInsert, 'id' | 'accountId' | 'userId'>>;

const ofActor = (actor: Actor, id: string) =>
  and(eq(webhooks.id, id), eq(webhooks.accountId, actor.accountId));

export const webhooksRepo = {
  /** The account's webhooks with their chips, newest first. */
  list: (db: Db, actor: Actor): Promise<{ w: WebhookRow; chip: ChipRow | null }[]> =>
    db
      .select({ w: webhooks, chip: chips })
      .from(webhooks)
      .leftJoin(chips, eq(chips.id, webhooks.chipId))
      .where(and(eq(webhooks.accountId, actor.accountId), eq(webhooks.filed, false)))
      .orderBy(desc(webhooks.createdAt), desc(webhooks.id))
      .limit(1000),
  async find(db: Db, actor: Actor, id: string) {
    const [row] = await db
      .select({ w: webhooks, chip: chips })
      .from(webhooks)
      .leftJoin(chips, eq(chips.id, webhooks.chipId))
      .where(and(ofActor(actor, id), eq(webhooks.filed, false)))
      .limit(1);
    return row ?? null;
  },
  /** A webhook of the account whether deleted or not (the job reads a deleted one to stop). */
  async findWithFiled(db: Db, actor: Actor, id: string): Promise<WebhookRow | null> {
    const [row] = await db.select().from(webhooks).where(ofActor(actor, id)).limit(1);
    return row ?? null;
  },
  /** An empty webhook of the signed-in user, once per id: a repeat answers the row the first one made. */
  async create(db: Db, actor: UserActor, id: string) {
    const made = await insertOnce(
      db,
      webhooks,
      { id, accountId: actor.accountId, userId: actor.userId },
      ofActor(actor, id),
    );
    return made?.row ?? null;
  },
  async update(db: Db, actor: Actor, id: string, set: WebhookFields) {
    await db.update(webhooks).set(set).where(ofActor(actor, id));
  },
  /**
   * The webhook a third party's POST names by the id in its URL, not deleted: its only key. Whoever posts
   * acts for that webhook's account from then on (apiKeyActor(hook.accountId)).
   */
  async byUrlId(db: Db, id: string): Promise<WebhookRow | null> {
    const [row] = await db
      .select()
      .from(webhooks)
      .where(and(eq(webhooks.id, id), eq(webhooks.filed, false)))
      .limit(1);
    return row ?? null;
  },
};

export const webhookEventsRepo = {
  /**
   * Stores the event once per (webhook, key) within `windowHours`, and runs `queue` with its id in the same
   * transaction. A row of the same key older than the window gives its key up first (a new event, months
   * later, is sent). A duplicate answers the first one's id.
   */
  async receive(
    db: Db,
    actor: Actor,
    e: { id: string; webhookId: string; key: string; phone: string; fields: Record<string, string> },
    windowHours: number,
    queue: (tx: Db, eventId: string) => Promise<void>,
  ): Promise<{ id: string | null; duplicate: boolean }> {
    return db.transaction(async (tx) => {
      const ofKey = and(
        eq(webhookEvents.accountId, actor.accountId),
        eq(webhookEvents.webhookId, e.webhookId),
        eq(webhookEvents.dedupeKey, e.key),
      );
      await tx
        .update(webhookEvents)
        .set({ dedupeKey: sql`${webhookEvents.dedupeKey} || ':' || ${webhookEvents.id}` })
        .where(and(ofKey, sql`${webhookEvents.createdAt} < now() - make_interval(hours => ${windowHours})`));
      const [made] = await tx
        .insert(webhookEvents)
        .values({
          id: e.id,
          webhookId: e.webhookId,
          accountId: actor.accountId,
          dedupeKey: e.key,
          phone: e.phone,
          fields: e.fields,
        })
        .onConflictDoNothing()
        .returning({ id: webhookEvents.id });
      if (made) {
        await queue(tx as Db, made.id);
        return { id: made.id, duplicate: false };
      }
      const [first] = await tx.select({ id: webhookEvents.id }).from(webhookEvents).where(ofKey).limit(1);
      return { id: first?.id ?? null, duplicate: true };
    });
  },
  /** The event a job was queued with, by the id in its data; the job then acts for the event's account. */
  async forJob(db: Db, eventId: string): Promise<WebhookEventRow | null> {
    const [row] = await db.select().from(webhookEvents).where(eq(webhookEvents.id, eventId)).limit(1);
    return row ?? null;
  },
  /** The outcome of a queued event (once: an event already finished keeps its outcome). */
  async finish(db: Db, actor: Actor, eventId: string, failure: string | null) {
    await db
      .update(webhookEvents)
      .set({ status: failure ? 'error' : 'sent', failure, processedAt: new Date() })
      .where(
        and(
          eq(webhookEvents.id, eventId),
          eq(webhookEvents.accountId, actor.accountId),
          eq(webhookEvents.status, 'queued'),
        ),
      );
  },
  /** Housekeeping over every account: events handled before `days` ago (a queued one waits for its job). */
  async pruneHandled(db: Db, days: number) {
    await db
      .delete(webhookEvents)
      .where(
        and(
          lt(webhookEvents.createdAt, sql`now() - ${days} * interval '1 day'`),
          ne(webhookEvents.status, 'queued'),
        ),
      );
  },
};
