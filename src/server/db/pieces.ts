// Long writes in pieces (issue 37). The embedded database runs one transaction at a time, so one that writes
// 200,000 rows keeps every other request of the server waiting for seconds. A long write goes instead in
// transactions of its own, each sized to hold the database about PIECE_MS, and the event loop turns between two
// of them, so the requests that came meanwhile are served before the next piece. The size follows the pace of
// the last piece (a busy machine gets smaller pieces). On PostgreSQL the same pieces keep row locks short.
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './index';

/**
 * What a piece aims to hold the database: a tenth of issue 37's 250 ms, so a piece ten times slower than planned
 * (a machine whose other work takes the CPU away midway) is still under.
 */
export const PIECE_MS = 25;
const MIN_ROWS = 50;
const MAX_ROWS = 20_000;

/** Lets what waits for the event loop and the database go before the next piece. */
export const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Calls `piece(tx, rows)` in a transaction of its own until it answers false (nothing left), `rows` being how
 * many rows the piece may write: `first` for the first piece, then sized by the last one's pace.
 */
export async function inPieces(
  db: Db,
  piece: (tx: Db, rows: number) => Promise<boolean>,
  first = 500,
): Promise<void> {
  let rows = first;
  for (;;) {
    let ms = 0;
    const more = await db.transaction(async (tx) => {
      const start = performance.now();
      const answer = await piece(tx, rows);
      ms = performance.now() - start;
      return answer;
    });
    if (!more) return;
    // At most half again or half as many from one piece to the next: one odd piece does not swing the size.
    const factor = Math.min(1.5, Math.max(0.5, PIECE_MS / Math.max(ms, 1)));
    rows = Math.round(Math.min(MAX_ROWS, Math.max(MIN_ROWS, rows * factor)));
    await yieldToOthers();
  }
}

/** `write(tx, piece, start)` over `items` in pieces, in order; `start` is the piece's first index in `items`. */
export async function forEachPiece<T>(
  db: Db,
  items: readonly T[],
  write: (tx: Db, piece: T[], start: number) => Promise<void>,
  first?: number,
): Promise<void> {
  let start = 0;
  if (!items.length) return;
  await inPieces(
    db,
    async (tx, rows) => {
      const piece = items.slice(start, start + rows);
      await write(tx, piece, start);
      start += piece.length;
      return start < items.length;
    },
    first,
  );
}

/**
 * Every row of a read keyed by a number that runs from 1 to `last` (a campaign's seq), range by range, in order:
 * `range(tx, from, to)` answers the rows with from < key <= to. An export of 200,000 rows read at once holds the
 * embedded database for seconds. A range bounds each read's work by itself; a LIMIT would not where the planner
 * has no statistics (PGlite runs no autovacuum, so a table filled since its last ANALYZE has none) and sorts
 * every row left on each page.
 */
export async function readRangesInPieces<R>(
  db: Db,
  last: number,
  range: (tx: Db, from: number, to: number) => Promise<R[]>,
): Promise<R[]> {
  const all: R[] = [];
  let from = 0;
  if (last <= 0) return all;
  await inPieces(
    db,
    async (tx, rows) => {
      for (const row of await range(tx, from, from + rows)) all.push(row);
      from += rows;
      return from < last;
    },
    2_000,
  );
  return all;
}

/**
 * Deletes the rows of `table` that `where` selects, in pieces: each piece the first rows by `key` (an indexed
 * column, or a primary key's columns), so a piece finds its rows by the index instead of scanning the table.
 */
export async function deleteInPieces(
  db: Db,
  table: PgTable,
  key: PgColumn[],
  where: ReturnType<typeof sql>,
): Promise<void> {
  const columns = sql.join(key, sql`, `);
  await inPieces(db, async (tx, rows) => {
    const result = await tx.execute(sql`
      delete from ${table} where (${columns}) in (
        select ${columns} from ${table} where ${where} limit ${rows})`);
    return deletedCount(result) === rows;
  });
}

/** db.execute's count of rows a delete touched: PGlite answers affectedRows, node-postgres rowCount. */
function deletedCount(result: unknown): number {
  const r = result as { affectedRows?: number; rowCount?: number | null };
  return r.affectedRows ?? r.rowCount ?? 0;
}
