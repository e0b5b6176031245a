// Hot statements built once per database. Drizzle builds a query's SQL on every run, and on the inbound path
// that cost more CPU than the round trips (a wide select builds each of its columns); a prepared statement is
// built once, and PostgreSQL parses and plans it once per connection. Values go in as sql.placeholder().
import type { Db } from './index';

const byDatabase = new WeakMap<object, Map<string, unknown>>();

/** The statement `name` on this database (or transaction), built by `build` the first time. */
export function prepared<T>(db: Db, name: string, build: (db: Db) => T): T {
  let statements = byDatabase.get(db);
  if (!statements) {
    statements = new Map();
    byDatabase.set(db, statements);
  }
  let statement = statements.get(name) as T | undefined;
  if (!statement) {
    statement = build(db);
    statements.set(name, statement);
  }
  return statement;
}
