// The one way to write 'insert, or find the row a unique key says is already there': a retried call, a
// replayed webhook or two requests at once store one row, and every one of them answers it. On PostgreSQL
// an insert that meets a row of a transaction still in flight waits for it, so the read that follows sees
// the committed winner.
import type { InferInsertModel, InferSelectModel, SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './index';

export async function insertOnce<T extends PgTable>(
  db: Db,
  table: T,
  values: InferInsertModel<T>,
  existing: SQL | undefined,
): Promise<{ row: InferSelectModel<T>; created: boolean } | null> {
  const inserted = (await db
    .insert(table)
    .values(values)
    .onConflictDoNothing()
    .returning()) as InferSelectModel<T>[];
  if (inserted[0]) return { row: inserted[0], created: true };
  // The conflict may be on another key than `existing` names (an id taken in another account): null.
  if (!existing) return null;
  const found = (await db
    .select()
    .from(table as PgTable)
    .where(existing)
    .limit(1)) as InferSelectModel<T>[];
  return found[0] ? { row: found[0], created: false } : null;
}
