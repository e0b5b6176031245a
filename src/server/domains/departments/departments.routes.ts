import type { Department } from '../../../shared/contract/configuration';
import { messages } from '../../../shared/messages';
import { prepareDepartment } from '../../../shared/rules/department';
import { fieldError } from '../../../shared/rules/field-error';
import { actorManagesDepartments } from '../../access';
import type { Handlers } from '../../http/context';
import { AppError } from '../../http/errors';
import { distributionSettingChanged } from '../distribution/distribution.service';
import { nameTaken, softSave } from '../soft-save';
import { type DepartmentRow, departmentsRepo, fileDepartment, soleAttendants } from './departments.repo';

const toDepartment = (d: DepartmentRow, sole?: Map<string, string[]>): Department => ({
  _id: d.id,
  name: d.name,
  description: d.description,
  distribute: d.distribute,
  filed: d.filed,
  ...(sole && { sole_attendants: sole.get(d.id) ?? [] }),
});

export const departmentsHandlers = {
  'get-departments-by-user': async (_p, ctx) => {
    const { db } = ctx.services;
    const rows = await departmentsRepo.list(db, ctx.actor);
    // Who would be left without a department: for the screens that delete one (owners and managers).
    const sole = actorManagesDepartments(ctx.actor) ? await soleAttendants(db, ctx.actor) : undefined;
    return rows.map((d) => toDepartment(d, sole));
  },
  'create-or-update-department': async (p, ctx) => {
    const { db } = ctx.services;
    if (p.filed && p._id) {
      // Spec 1 §5: an agent needs at least 1 department; deleting their only one would leave them blind.
      const filed = await fileDepartment(db, ctx.actor, p._id);
      if (filed.soleOf.length) throw new AppError(messages.departmentOnlyOf(filed.soleOf));
      if (!filed.row) throw new AppError(messages.notFound);
      return toDepartment(filed.row);
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
    await distributionSettingChanged(ctx.services, ctx.actor.accountId, row.id, row.distribute && !row.filed);
    return toDepartment(row);
  },
} satisfies Handlers;
