// Accounts and their owners. A new account starts with the smallest plan; admins raise limits later.
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { newId } from '../../../shared/ids';
import type { Actor } from '../../access';
import type { Db } from '../../db';
import { accounts, subscriptions, users } from '../../db/schema';

export const newApiKey = () => randomBytes(24).toString('base64url');

export interface NewAccount {
  account: Partial<typeof accounts.$inferInsert> & { name: string };
  owner: Omit<typeof users.$inferInsert, 'id' | 'accountId' | 'userRole'>;
  subscriptionStatus?: (typeof subscriptions.$inferInsert)['lastStatus'];
}

/** Creates account, owner and subscription in one transaction; answers the new ids. */
export async function createAccount(db: Db, input: NewAccount) {
  const accountId = newId();
  const ownerId = newId();
  await db.transaction(async (tx) => {
    await tx.insert(accounts).values({ id: accountId, ...input.account });
    await tx.insert(users).values({ id: ownerId, accountId, userRole: 'owner', ...input.owner });
    await tx.insert(subscriptions).values({ accountId, lastStatus: input.subscriptionStatus ?? 'active' });
  });
  return { accountId, ownerId };
}

/** The account's subscription (billing status and invoices), or null before the first one. */
export async function subscriptionOf(db: Db, actor: Actor) {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.accountId, actor.accountId))
    .limit(1);
  return row ?? null;
}
