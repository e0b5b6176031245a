import { and, eq, sql } from 'drizzle-orm';
import type { Department } from '../../../shared/contract/configuration';
import { messages } from '../../../shared/messages';
import { prepareDepartment } from '../../../shared/rules/department';
import { fieldError } from '../../../shared/rules/field-error';
import type { Db } from '../../db';
import { departments, users } from '../../db/schema';
import { scopedRepo } from '../../db/scoped';
import type { Handlers } from '../../http/context';
import { AppError } from '../../http/errors';
import { nameTaken, softSave } from '../soft-save';

export const departmentsRepo = scopedRepo(departments);

const toDepartment = (d: typeof departments.$inferSelect, sole?: Map<string, string[]>): Department => ({
  _id: d.id,
  name: d.name,
  description: d.description,
  filed: d.filed,
  ...(sole && { sole_attendants: sole.get(d.id) ?? [] }),
});

/** Department id → the names of the attendants for whom it is the only department. */
async function soleAttendants(db: Db, accountId: string) {
  const rows = await db
    .select({ name: users.name, departments: users.departments })
    .from(users)
    .where(
      and(
        eq(users.accountId, accountId),
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

export const departmentsHandlers = {
  'get-departments-by-user': async (_p, ctx) => {
    const { db } = ctx.services;
    const rows = await departmentsRepo.list(db, ctx.actor);
    // Who would be left without a department: for the screens that delete one (owners and managers).
    const sole =
      ctx.actor.kind === 'user' && ctx.actor.user.userRole !== 'user'
        ? await soleAttendants(db, ctx.actor.accountId)
        : undefined;
    return rows.map((d) => toDepartment(d, sole));
  },
  'create-or-update-department': async (p, ctx) => {
    const { db } = ctx.services;
    if (p.filed && p._id) {
      // Spec 1 §5: an agent needs at least 1 department; deleting their only one would leave them blind.
      const names = (await soleAttendants(db, ctx.actor.accountId)).get(p._id);
      if (names?.length) throw new AppError(messages.departmentOnlyOf(names));
    }
    const existing = p.filed ? [] : await departmentsRepo.list(db, ctx.actor);
    const row = await softSave(
      departmentsRepo,
      db,
      ctx.actor,
      p,
      () => {
        const r = prepareDepartment(p);
        if (r.ok && nameTaken(existing, p._id, r.department.name))
          return { ok: false, error: fieldError('name', messages.departmentNameTaken) };
        return r.ok ? { ok: true, fields: r.department } : r;
      },
      fieldError('name', messages.departmentNameTaken),
    );
    // A deleted department leaves the attendants who also held others.
    if (p.filed)
      await db
        .update(users)
        .set({ departments: sql`${users.departments} - ${row.id}::text` })
        .where(and(eq(users.accountId, ctx.actor.accountId), sql`${users.departments} ? ${row.id}`));
    return toDepartment(row);
  },
} satisfies Handlers;
