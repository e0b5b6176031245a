// The common shape of the account's configuration lists (tags, departments, quick messages): rows that
// belong to one account and are soft-deleted with `filed`. Every query takes the actor and is scoped to
// its account, so an id from another account behaves as not found.
import { and, asc, eq, type InferInsertModel, type InferSelectModel } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { newId } from '../../shared/ids';
import type { Actor } from '../access';
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
  const scope = (actor: Actor, id: string) => and(eq(table.accountId, actor.accountId), eq(table.id, id));
  return {
    /** Active (not filed) rows of the account, oldest first. */
    async list(db: Db, actor: Actor): Promise<Row[]> {
      return (await db
        .select()
        .from(table as PgTable)
        .where(and(eq(table.accountId, actor.accountId), eq(table.filed, false)))
        .orderBy(asc(table.createdAt), asc(table.id))) as Row[];
    },
    async find(db: Db, actor: Actor, id: string): Promise<Row | null> {
      const rows = (await db
        .select()
        .from(table as PgTable)
        .where(and(scope(actor, id), eq(table.filed, false)))
        .limit(1)) as Row[];
      return rows[0] ?? null;
    },
    /** Inserts with `id` (a new one by default); null when that id is already taken, in any account. */
    async insert(db: Db, actor: Actor, fields: Fields, id: string = newId()): Promise<Row | null> {
      const rows = (await db
        .insert(table)
        .values({ ...fields, id, accountId: actor.accountId } as InferInsertModel<T>)
        // Only a taken id answers null; another unique index (a repeated name) refuses with its error.
        .onConflictDoNothing({ target: table.id })
        .returning()) as Row[];
      return rows[0] ?? null;
    },
    async update(db: Db, actor: Actor, id: string, fields: Partial<Fields>): Promise<Row | null> {
      const rows = (await db
        .update(table)
        .set(fields as never)
        .where(and(scope(actor, id), eq(table.filed, false)))
        .returning()) as Row[];
      return rows[0] ?? null;
    },
    /** The soft delete; filing a filed row again answers it as it is. */
    async file(db: Db, actor: Actor, id: string): Promise<Row | null> {
      const rows = (await db
        .update(table)
        .set({ filed: true } as never)
        .where(scope(actor, id))
        .returning()) as Row[];
      return rows[0] ?? null;
    },
  };
}
