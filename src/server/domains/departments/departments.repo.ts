import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Actor } from '../../access';
import type { Db } from '../../db';
import { departments, users } from '../../db/schema';
import { scopedRepo } from '../../db/scoped';

export const departmentsRepo = scopedRepo(departments);
export type DepartmentRow = typeof departments.$inferSelect;

/** Department id → the names of the attendants for whom it is the only department. */
export async function soleAttendants(db: Db, actor: Actor) {
  const rows = await db
    .select({ name: users.name, departments: users.departments })
    .from(users)
    .where(
      and(
        eq(users.accountId, actor.accountId),
        eq(users.filed, false),
        eq(users.userRole, 'user'),
        sql`jsonb_array_length(${users.departments}) = 1`,
      ),
    )
    .orderBy(users.name);
  const sole = new Map<string, string[]>();
  for (const r of rows) {
    const id = r.departments[0] as string;
    sole.set(id, [...(sole.get(id) ?? []), r.name]);
  }
  return sole;
}

/**
 * Deletes (files) a department, unless it is some attendant's only one (their names come back), and takes it
 * off the lists of the attendants who also hold others: one transaction, so no list keeps a deleted id.
 */
export async function fileDepartment(db: Db, actor: Actor, id: string) {
  return db.transaction(async (tx) => {
    const soleOf = (await soleAttendants(tx, actor)).get(id) ?? [];
    if (soleOf.length) return { soleOf, row: null };
    const row = await departmentsRepo.file(tx, actor, id);
    if (row)
      await tx
        .update(users)
        .set({ departments: sql`${users.departments} - ${row.id}::text` })
        .where(and(eq(users.accountId, actor.accountId), sql`${users.departments} ? ${row.id}`));
    return { soleOf, row };
  });
}

/** Whether every one of these ids is a department of the actor's account, not deleted. */
export async function allDepartmentsActive(db: Db, actor: Actor, ids: readonly string[]) {
  if (ids.length === 0) return true;
  const found = await db
    .select({ id: departments.id })
    .from(departments)
    .where(
      and(
        eq(departments.accountId, actor.accountId),
        eq(departments.filed, false),
        inArray(departments.id, [...ids]),
      ),
    );
  return found.length === ids.length;
}
