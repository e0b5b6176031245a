import { and, asc, eq, inArray } from 'drizzle-orm';
import { chips } from '../../db/schema';
import type { Handlers } from '../../http/context';

export const chipsHandlers = {
  // Attendants see only the chips of their departments (spec 1 §6); owners and managers see all.
  'get-chip-numbers-by-user': async (_p, ctx) => {
    const { user } = ctx;
    if (user.userRole === 'user' && user.departments.length === 0) return [];
    const rows = await ctx.services.db
      .select()
      .from(chips)
      .where(
        and(
          eq(chips.accountId, user.accountId),
          eq(chips.filed, false),
          user.userRole === 'user' ? inArray(chips.departmentId, user.departments) : undefined,
        ),
      )
      .orderBy(asc(chips.createdAt), asc(chips.id));
    return rows.map((c) => ({
      _id: c.id,
      name: c.name,
      status: c.status,
      official: c.official,
      waba: c.waba,
      department: c.departmentId,
    }));
  },
} satisfies Handlers;
