import type { Department } from '@/shared/contract/configuration';
import { prepareDepartment } from '@/shared/rules/department';
import { departments } from '../../db/schema';
import { scopedRepo } from '../../db/scoped';
import type { Handlers } from '../../http/context';
import { softSave } from '../soft-save';

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
    const row = await softSave(departmentsRepo, ctx.services.db, ctx.actor, p, () => {
      const r = prepareDepartment(p);
      return r.ok ? { ok: true, fields: r.department } : r;
    });
    return toDepartment(row);
  },
} satisfies Handlers;
