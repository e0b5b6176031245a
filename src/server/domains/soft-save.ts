// The create-or-update call of an account-scoped list: `filed: true` with an _id soft-deletes; an _id
// changes that item; no _id creates one. The shared rule has already turned the payload into fields.
import { messages } from '../../shared/messages';
import type { Db } from '../db';
import { AppError } from '../http/errors';

interface Repo<Row, Fields> {
  insert(db: Db, accountId: string, fields: Fields): Promise<Row>;
  update(db: Db, accountId: string, id: string, fields: Partial<Fields>): Promise<Row | null>;
  file(db: Db, accountId: string, id: string): Promise<Row | null>;
}

export async function softSave<Row, Fields>(
  repo: Repo<Row, Fields>,
  db: Db,
  accountId: string,
  payload: { _id?: string; filed?: boolean },
  prepare: () => { ok: true; fields: Fields } | { ok: false; error: string },
): Promise<Row> {
  if (payload.filed) {
    if (!payload._id) throw new AppError(messages.notFound);
    const filed = await repo.file(db, accountId, payload._id);
    if (!filed) throw new AppError(messages.notFound);
    return filed;
  }
  const prepared = prepare();
  if (!prepared.ok) throw new AppError(prepared.error);
  if (!payload._id) return repo.insert(db, accountId, prepared.fields);
  const updated = await repo.update(db, accountId, payload._id, prepared.fields);
  if (!updated) throw new AppError(messages.notFound);
  return updated;
}
