// The account row and its subscription, as an actor of that account reaches them: always `actor.accountId`,
// never an account id of the caller's choosing.
import { eq, sql } from 'drizzle-orm';
import type { Actor } from '../../access';
import type { Db } from '../../db';
import { accounts, subscriptions, users } from '../../db/schema';

export interface NewAccount {
  account: Partial<typeof accounts.$inferInsert> & { name: string };
  owner: Omit<typeof users.$inferInsert, 'id' | 'accountId' | 'userRole'>;
  subscriptionStatus?: (typeof subscriptions.$inferInsert)['lastStatus'];
}

type SubscriptionRow = typeof subscriptions.$inferSelect;

export const accountsRepo = {
  /**
   * Opens the actor's account (the system opening an account acts in the account it opens): the account,
   * its owner and its subscription in one transaction.
   */
  async open(db: Db, actor: Actor, ownerId: string, input: NewAccount) {
    const { accountId } = actor;
    await db.transaction(async (tx) => {
      await tx.insert(accounts).values({ ...input.account, id: accountId });
      await tx.insert(users).values({ id: ownerId, accountId, userRole: 'owner', ...input.owner });
      await tx.insert(subscriptions).values({ accountId, lastStatus: input.subscriptionStatus ?? 'active' });
    });
  },

  /** Changes the actor's account (its plan's limits, its status, its API key). */
  update: (db: Db, actor: Actor, set: Partial<Omit<typeof accounts.$inferInsert, 'id'>>) =>
    db.update(accounts).set(set).where(eq(accounts.id, actor.accountId)),

  /** The account's subscription (billing status and invoices), or null before the first one. */
  async subscription(db: Db, actor: Actor): Promise<SubscriptionRow | null> {
    const [row] = await db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.accountId, actor.accountId))
      .limit(1);
    return row ?? null;
  },

  saveSubscription: (
    db: Db,
    actor: Actor,
    s: Pick<typeof subscriptions.$inferInsert, 'lastStatus' | 'invoices'>,
  ) =>
    db
      .insert(subscriptions)
      .values({ accountId: actor.accountId, ...s })
      .onConflictDoUpdate({
        target: subscriptions.accountId,
        set: { ...s, updatedAt: sql`now()` },
      }),
};
