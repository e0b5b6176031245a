import type { Department } from '@/shared/contract/configuration';
import { messages } from '@/shared/messages';
import { prepareDepartment } from '@/shared/rules/department';
import { departments } from '../../db/schema';
import { scopedRepo } from '../../db/scoped';
import type { Handlers } from '../../http/context';
import { nameTaken, softSave } from '../soft-save';

export const departmentsRepo = scopedRepo(departments);

const toDepartment = (d: typeof departments.$inferSelect): Department => ({
  _id: d.id,
  name: d.name,
  description: d.description,
  filed: d.filed,
});

export const departmentsHandlers = {
  'get-departments-by-user': async (_p, ctx) =>
    (await departmentsRepo.list(ctx.services.db, ctx.actor)).map(toDepartment),
  'create-or-update-department': async (p, ctx) => {
    const { db } = ctx.services;
    const existing = p.filed ? [] : await departmentsRepo.list(db, ctx.actor);
    const row = await softSave(
      departmentsRepo,
      db,
      ctx.actor,
      p,
      () => {
        const r = prepareDepartment(p);
        if (r.ok && nameTaken(existing, p._id, r.department.name))
          return { ok: false, error: messages.departmentNameTaken };
        return r.ok ? { ok: true, fields: r.department } : r;
      },
      messages.departmentNameTaken,
    );
    return toDepartment(row);
  },
} satisfies Handlers;
