import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db';
import type { AccountRow, UserRow } from '../../db/rows';
import { accounts, users } from '../../db/schema';

export type { AccountRow, UserRow };

export const usersRepo = {
  async findActiveByEmail(db: Db, email: string) {
    const rows = await db
      .select({ user: users, account: accounts })
      .from(users)
      .innerJoin(accounts, eq(accounts.id, users.accountId))
      .where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, eq(users.filed, false)))
      .limit(1);
    return rows[0] ?? null;
  },

  async findById(db: Db, id: string) {
    const rows = await db
      .select({ user: users, account: accounts })
      .from(users)
      .innerJoin(accounts, eq(accounts.id, users.accountId))
      .where(eq(users.id, id))
      .limit(1);
    return rows[0] ?? null;
  },

  /** Whether an active user already has this e-mail (a deleted one frees it). */
  async emailTaken(db: Db, email: string) {
    const rows = await db
      .select({ id: users.id })
      .from(users)
      .where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, eq(users.filed, false)))
      .limit(1);
    return rows.length > 0;
  },

  async update(db: Db, id: string, set: Partial<typeof users.$inferInsert>) {
    if (Object.keys(set).length === 0) return; // nothing to change is not an error
    await db.update(users).set(set).where(eq(users.id, id));
  },
};
