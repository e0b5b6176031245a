// The signed-in user's own row (profile, preferences, picture), reached through the user's actor: its id in
// its account, never a user id of the caller's choosing. Apart from users.repo.ts, which sign-in reads before
// there is an actor (and which the access rule's module reaches, so it cannot import the actor back).
import { and, eq } from 'drizzle-orm';
import type { UserActor } from '../../access';
import type { Db } from '../../db';
import { accounts, users } from '../../db/schema';

const own = (actor: UserActor) => and(eq(users.id, actor.userId), eq(users.accountId, actor.accountId));

export const profileRepo = {
  /** The user's row with the account. */
  async find(db: Db, actor: UserActor) {
    const rows = await db
      .select({ user: users, account: accounts })
      .from(users)
      .innerJoin(accounts, eq(accounts.id, users.accountId))
      .where(own(actor))
      .limit(1);
    return rows[0] ?? null;
  },

  async update(db: Db, actor: UserActor, set: Partial<Omit<typeof users.$inferInsert, 'id' | 'accountId'>>) {
    if (Object.keys(set).length === 0) return; // nothing to change is not an error
    await db.update(users).set(set).where(own(actor));
  },
};
