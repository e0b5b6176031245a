// Platform administration's queries (spec 3 §2.4, §5–§7). Platform staff act over every account, so nothing
// here is scoped to one: every function takes the StaffActor, which only staffActor() builds (it refuses anyone
// else), so a query over every account cannot be reached by a customer's call. The account row's lock
// (`lockAccount`) is the one chip, user and flow creation take, so a limit is never set below a concurrent
// creation.
import { and, asc, type Column, count, desc, eq, or, sql } from 'drizzle-orm';
import { PAGE_SIZE } from '../../../shared/constants';
import type { AccountUsage } from '../../../shared/contract/admin';
import { newId } from '../../../shared/ids';
import type { StaffActor } from '../../access';
import type { Db } from '../../db';
import { accounts, chips, departments, flows, subscriptions, users } from '../../db/schema';

export type AccountRow = typeof accounts.$inferSelect;

// Accents and case aside, in SQL and in JS alike (no extension needed: PGlite and PostgreSQL both have it).
const ACCENTED = 'áàâãäåéèêëíìîïóòôõöúùûüçñý';
const PLAIN = 'aaaaaaeeeeiiiiooooouuuucny';
const folded = (column: Column) => sql`translate(lower(${column}), ${ACCENTED}, ${PLAIN})`;
const fold = (text: string) =>
  text
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '');
/** The query as a LIKE pattern: its own % and _ are letters, not wildcards. */
const containsPattern = (text: string) => `%${fold(text).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export const adminRepo = {
  /** Live users of every account whose name or e-mail contains `query`, newest first, one page, and the total. */
  async customers(db: Db, _staff: StaffActor, p: { query: string; page: number }) {
    const pattern = containsPattern(p.query);
    const where = and(
      eq(users.filed, false),
      p.query
        ? or(
            sql`${folded(users.name)} like ${pattern} escape '\\'`,
            sql`${folded(users.email)} like ${pattern} escape '\\'`,
          )
        : undefined,
    );
    const [rows, [total]] = await Promise.all([
      db
        .select({ user: users, account: accounts, lastStatus: subscriptions.lastStatus })
        .from(users)
        .innerJoin(accounts, eq(accounts.id, users.accountId))
        .leftJoin(subscriptions, eq(subscriptions.accountId, accounts.id))
        .where(where)
        .orderBy(desc(users.createdAt), desc(users.id))
        .limit(PAGE_SIZE)
        .offset((p.page - 1) * PAGE_SIZE),
      db.select({ n: count() }).from(users).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  },

  /** A live (not deleted) user of any account, or null. */
  async liveUser(db: Db, _staff: StaffActor, userId: string) {
    const [row] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, userId), eq(users.filed, false)));
    return row ?? null;
  },

  setPassword: (db: Db, _staff: StaffActor, userId: string, passwordHash: string) =>
    db.update(users).set({ passwordHash }).where(eq(users.id, userId)),

  async account(db: Db, _staff: StaffActor, accountId: string): Promise<AccountRow | null> {
    const [row] = await db.select().from(accounts).where(eq(accounts.id, accountId));
    return row ?? null;
  },

  /** The account row under its lock (in a transaction), or null. */
  async lockAccount(tx: Db, _staff: StaffActor, accountId: string): Promise<AccountRow | null> {
    const [row] = await tx.select().from(accounts).where(eq(accounts.id, accountId)).for('update');
    return row ?? null;
  },

  async updateAccount(
    tx: Db,
    _staff: StaffActor,
    accountId: string,
    set: Partial<typeof accounts.$inferInsert>,
  ): Promise<AccountRow | null> {
    const [row] = await tx.update(accounts).set(set).where(eq(accounts.id, accountId)).returning();
    return row ?? null;
  },

  async subscriptionStatus(db: Db, _staff: StaffActor, accountId: string) {
    const [row] = await db
      .select({ lastStatus: subscriptions.lastStatus })
      .from(subscriptions)
      .where(eq(subscriptions.accountId, accountId));
    return row?.lastStatus ?? null;
  },

  /** What the account uses against its limits: live chips (common and official), users and flows. */
  async usage(db: Db, _staff: StaffActor, accountId: string): Promise<AccountUsage> {
    const [chipRows, [userCount], [flowCount]] = await Promise.all([
      db
        .select({ official: chips.official, n: count() })
        .from(chips)
        .where(and(eq(chips.accountId, accountId), eq(chips.filed, false)))
        .groupBy(chips.official),
      db
        .select({ n: count() })
        .from(users)
        .where(and(eq(users.accountId, accountId), eq(users.filed, false))),
      db
        .select({ n: count() })
        .from(flows)
        .where(and(eq(flows.accountId, accountId), eq(flows.filed, false))),
    ]);
    return {
      channels: chipRows.find((r) => !r.official)?.n ?? 0,
      official_channels: chipRows.find((r) => r.official)?.n ?? 0,
      users: userCount?.n ?? 0,
      flows: flowCount?.n ?? 0,
    };
  },

  /** The account's first live department, or null. */
  async firstDepartment(db: Db, _staff: StaffActor, accountId: string) {
    const [row] = await db
      .select({ id: departments.id })
      .from(departments)
      .where(and(eq(departments.accountId, accountId), eq(departments.filed, false)))
      .orderBy(asc(departments.createdAt), asc(departments.id))
      .limit(1);
    return row ?? null;
  },

  async insertChip(tx: Db, _staff: StaffActor, values: Omit<typeof chips.$inferInsert, 'id'>) {
    const [row] = await tx
      .insert(chips)
      .values({ id: newId(), ...values })
      .returning();
    if (!row) throw new Error('chip insert returned nothing');
    return row;
  },
};
