// The create-or-update call of an account-scoped list: `filed: true` with an _id soft-deletes; an _id
// changes that item, or creates it with that id when it does not exist yet. The app names a new item
// when its dialog opens, so a create sent twice (a retry on a bad network, a double click) makes one item.
// The shared rule has already turned the payload into fields.
import { messages } from '../../shared/messages';
import type { FieldError } from '../../shared/rules/field-error';
import type { Actor } from '../access';
import type { Db } from '../db';
import { AppError, fieldFailure } from '../http/errors';

interface Repo<Row, Fields> {
  insert(db: Db, actor: Actor, fields: Fields, id?: string): Promise<Row | null>;
  update(db: Db, actor: Actor, id: string, fields: Partial<Fields>): Promise<Row | null>;
  file(db: Db, actor: Actor, id: string): Promise<Row | null>;
}

export async function softSave<Row, Fields>(
  repo: Repo<Row, Fields>,
  db: Db,
  actor: Actor,
  payload: { _id?: string; filed?: boolean },
  prepare: () => { ok: true; fields: Fields } | { ok: false; error: FieldError },
  /** The answer when a unique index refuses the save (two saves of one name at once). */
  uniqueError?: FieldError,
): Promise<Row> {
  if (payload.filed) {
    if (!payload._id) throw new AppError(messages.notFound);
    const filed = await repo.file(db, actor, payload._id);
    if (!filed) throw new AppError(messages.notFound);
    return filed;
  }
  const prepared = prepare();
  if (!prepared.ok) throw fieldFailure(prepared.error);
  const id = payload._id;
  const { fields } = prepared;
  // Update, else create, else (the same create arriving twice at once) update what the other one made:
  // one transaction, so a failure half-way leaves nothing.
  const write = (retry: boolean) =>
    db.transaction(async (tx) => {
      let row = id ? await repo.update(tx, actor, id, fields) : null;
      if (!retry) row ??= await repo.insert(tx, actor, fields, id);
      if (!row && id) row = await repo.update(tx, actor, id, fields);
      return row;
    });
  let saved: Row | null;
  try {
    saved = await write(false);
  } catch (e) {
    if (!isUniqueViolation(e)) throw e;
    // A unique index refused it: the same create arriving twice at once (the other one made the item:
    // this one updates it), or a name another item has.
    saved = id ? await write(true).catch(() => null) : null;
    if (!saved) throw uniqueError ? fieldFailure(uniqueError) : e;
  }
  // Still nothing: the id belongs to another account's item, or to a filed one.
  if (!saved) throw new AppError(messages.notFound);
  return saved;
}

/** PostgreSQL's unique_violation, as node-postgres or PGlite report it (drizzle wraps it in `cause`). */
export function isUniqueViolation(e: unknown): boolean {
  for (let err = e as { code?: unknown; cause?: unknown } | undefined; err; err = err.cause as typeof err) {
    if (err.code === '23505') return true;
  }
  return false;
}

/** Whether another live item of the list already has this name, whatever its case. */
export const nameTaken = (rows: { id: string; name: string }[], id: string | undefined, name: string) =>
  rows.some((r) => r.id !== id && r.name.toLocaleLowerCase('pt-BR') === name.toLocaleLowerCase('pt-BR'));
