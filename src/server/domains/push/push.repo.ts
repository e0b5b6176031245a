// Web Push's rows: the server's VAPID key pair (one for the whole platform, so no account and no actor) and
// the devices' subscriptions, each a user's in one account.
import { and, eq } from 'drizzle-orm';
import type { Actor, UserActor } from '../../access';
import type { Db } from '../../db';
import { insertOnce } from '../../db/insert-once';
import { pushKeys, pushSubscriptions, users } from '../../db/schema';

const KEY_ID = 'vapid';

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;

export const pushKeysRepo = {
  /** The stored VAPID pair, or the one `made` stored now (two racing starts keep the first one). */
  async findOrStore(db: Db, made: () => { publicKey: string; privateKey: string }) {
    const [row] = await db.select().from(pushKeys).where(eq(pushKeys.id, KEY_ID)).limit(1);
    if (row) return row;
    const stored = await insertOnce(db, pushKeys, { id: KEY_ID, ...made() }, eq(pushKeys.id, KEY_ID));
    return stored?.row ?? null;
  },
};

export const pushSubscriptionsRepo = {
  /** The signed-in user's device: the endpoint names it, and moves to whoever subscribes with it last. */
  async subscribe(
    db: Db,
    actor: UserActor,
    id: string,
    sub: { endpoint: string; p256dh: string; auth: string; userAgent: string | null },
  ) {
    const owner = { accountId: actor.accountId, userId: actor.userId };
    await db
      .insert(pushSubscriptions)
      .values({ id, ...owner, ...sub })
      .onConflictDoUpdate({
        target: pushSubscriptions.endpoint,
        set: { ...owner, p256dh: sub.p256dh, auth: sub.auth, userAgent: sub.userAgent },
      });
  },
  async unsubscribe(db: Db, actor: UserActor, endpoint: string) {
    await db
      .delete(pushSubscriptions)
      .where(
        and(
          eq(pushSubscriptions.accountId, actor.accountId),
          eq(pushSubscriptions.userId, actor.userId),
          eq(pushSubscriptions.endpoint, endpoint),
        ),
      );
  },
  /** The subscriptions of the account's users not deleted, with each user (who may see what is decided after). */
  withUsers(db: Db, actor: Actor) {
    return db
      .select({ sub: pushSubscriptions, user: users })
      .from(pushSubscriptions)
      .innerJoin(users, eq(users.id, pushSubscriptions.userId))
      .where(and(eq(pushSubscriptions.accountId, actor.accountId), eq(users.filed, false)));
  },
  /** A subscription the push service says is gone. */
  async forget(db: Db, actor: Actor, id: string) {
    await db
      .delete(pushSubscriptions)
      .where(and(eq(pushSubscriptions.id, id), eq(pushSubscriptions.accountId, actor.accountId)));
  },
};
