// The common shape of the account's configuration lists (tags, departments, quick messages): rows that
// belong to one account and are soft-deleted with `filed`. Every query is scoped to the caller's account,
// so an id from another account behaves as not found.
import { and, asc, eq, type InferInsertModel, type InferSelectModel } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { newId } from '../../shared/ids';
import type { Db } from './index';

type ScopedTable = PgTable & {
  id: PgColumn;
  accountId: PgColumn;
  filed: PgColumn;
  createdAt: PgColumn;
};

export function scopedRepo<T extends ScopedTable>(table: T) {
  type Row = InferSelectModel<T>;
  type Fields = Omit<InferInsertModel<T>, 'id' | 'accountId'>;
  const scope = (accountId: string, id: string) => and(eq(table.accountId, accountId), eq(table.id, id));
  return {
    /** Active (not filed) rows of the account, oldest first. */
    async list(db: Db, accountId: string): Promise<Row[]> {
      return (await db
        .select()
        .from(table as PgTable)
        .where(and(eq(table.accountId, accountId), eq(table.filed, false)))
        .orderBy(asc(table.createdAt), asc(table.id))) as Row[];
    },
    async find(db: Db, accountId: string, id: string): Promise<Row | null> {
      const rows = (await db
        .select()
        .from(table as PgTable)
        .where(and(scope(accountId, id), eq(table.filed, false)))
        .limit(1)) as Row[];
      return rows[0] ?? null;
    },
    /** Inserts with `id` (a new one by default); null when that id is already taken, in any account. */
    async insert(db: Db, accountId: string, fields: Fields, id: string = newId()): Promise<Row | null> {
      const rows = (await db
        .insert(table)
        .values({ ...fields, id, accountId } as InferInsertModel<T>)
        .onConflictDoNothing()
        .returning()) as Row[];
      return rows[0] ?? null;
    },
    async update(db: Db, accountId: string, id: string, fields: Partial<Fields>): Promise<Row | null> {
      const rows = (await db
        .update(table)
        .set(fields as never)
        .where(and(scope(accountId, id), eq(table.filed, false)))
        .returning()) as Row[];
      return rows[0] ?? null;
    },
    /** The soft delete; filing a filed row again answers it as it is. */
    async file(db: Db, accountId: string, id: string): Promise<Row | null> {
      const rows = (await db
        .update(table)
        .set({ filed: true } as never)
        .where(scope(accountId, id))
        .returning()) as Row[];
      return rows[0] ?? null;
    },
  };
}
