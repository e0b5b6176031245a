// The account's team as its owner and managers manage it: users of the actor's account only, so another
// account's user id behaves as not found.
import { and, eq, sql } from 'drizzle-orm';
import type { Actor } from '../../access';
import type { Db } from '../../db';
import { accounts, users } from '../../db/schema';

export type TeamUserRow = typeof users.$inferSelect;
type TeamUserFields = Pick<
  typeof users.$inferInsert,
  'name' | 'email' | 'passwordHash' | 'userRole' | 'departments' | 'accessAreas'
>;

const ofAccount = (actor: Actor, id: string) => and(eq(users.id, id), eq(users.accountId, actor.accountId));

export const teamRepo = {
  /** The account's users not deleted, the owner first. */
  list(db: Db, actor: Actor): Promise<TeamUserRow[]> {
    return db
      .select()
      .from(users)
      .where(and(eq(users.accountId, actor.accountId), eq(users.filed, false)))
      .orderBy(sql`${users.userRole} = 'owner' desc`, users.createdAt, users.id);
  },
  /** A user of the actor's account, deleted or not. */
  async find(db: Db, actor: Actor, id: string): Promise<TeamUserRow | null> {
    const [row] = await db.select().from(users).where(ofAccount(actor, id)).limit(1);
    return row ?? null;
  },
  async update(db: Db, actor: Actor, id: string, set: Partial<TeamUserFields & { filed: boolean }>) {
    await db.update(users).set(set).where(ofAccount(actor, id));
  },
  /**
   * Creates the user `id` unless the plan's user limit is reached (`max` comes back). The account row is
   * locked so the limit holds under concurrent creations; the same creation arriving twice finds the id
   * taken and makes nothing (the caller then answers the user of its account, or not found).
   */
  async createWithinPlan(
    db: Db,
    actor: Actor,
    id: string,
    fields: TeamUserFields,
  ): Promise<{ max: number } | null> {
    return db.transaction(async (tx) => {
      const [account] = await tx
        .select({ maxUsers: accounts.maxUsers })
        .from(accounts)
        .where(eq(accounts.id, actor.accountId))
        .for('update');
      // An id is unique on the platform: taken in any account, nothing is made.
      const [made] = await tx.select({ id: users.id }).from(users).where(eq(users.id, id));
      if (made) return null;
      const [count] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(users)
        .where(and(eq(users.accountId, actor.accountId), eq(users.filed, false)));
      const max = account?.maxUsers ?? 0;
      if ((count?.n ?? 0) >= max) return { max };
      await tx.insert(users).values({ ...fields, id, accountId: actor.accountId });
      return null;
    });
  },
};
