// Scheduled individual messages (spec 2 §2.4, §5, §7). The calls keep the list; the job in
// src/server/jobs/scheduled-messages.ts sends each one when it is due (the service queues its runner job).
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { ScheduledMessage } from '../../../shared/contract/scheduled-messages';
import { messages as texts } from '../../../shared/messages';
import { prepareScheduledMessage, type ScheduledMessageInput } from '../../../shared/rules/scheduled-message';
import { chips, scheduledMessages } from '../../db/schema';
import type { Handlers, SignedInContext } from '../../http/context';
import { AppError } from '../../http/errors';
import { queueScheduledMessage } from '../../jobs/scheduled-messages';
import { visibleChip } from '../conversations/conversations.service';
import { usableTemplates } from '../conversations/templates';
import { createScheduledItem } from './scheduled-messages.service';

type Row = typeof scheduledMessages.$inferSelect;

export const toScheduledMessage = (r: Row): ScheduledMessage => ({
  _id: r.id,
  to: r.to,
  chip: r.chipId,
  type: r.type,
  message: r.message,
  flow: r.flowId,
  template: r.template ?? null,
  scheduledTo: r.scheduledTo.toISOString(),
  // 'sending' is the job's own state: the screen still shows it as scheduled (not yet sent).
  status: r.status === 'sending' ? 'scheduled' : r.status,
  failure: r.failure,
  filed: r.filed,
});

async function prepare(ctx: SignedInContext, p: ScheduledMessageInput) {
  const chip =
    p.chip && /^[0-9A-Z]{28}$/.test(p.chip) ? await visibleChip(ctx, p.chip).catch(() => null) : null;
  if (p.chip && !chip) throw new AppError(texts.notFound);
  const prepared = prepareScheduledMessage(p, chip);
  if (!prepared.ok) throw new AppError(prepared.error);
  if (!chip) throw new AppError(texts.scheduleChipRequired);
  let template: Row['template'] = null;
  if (chip.official) {
    const wanted = p.template;
    const found = (await usableTemplates(ctx.services, chip)).find(
      (t) => t.name === wanted?.name && t.language === wanted.language,
    );
    if (!found) throw new AppError(texts.newConversationTemplateNotFixed);
    template = found;
  } else if (p.type === 'flow') {
    // Flows arrive with their own issue: until then no id names one.
    throw new AppError(texts.flowNotFound);
  }
  return {
    chipId: chip.id,
    to: prepared.to,
    type: chip.official ? ('text' as const) : p.type,
    message: chip.official ? '' : p.message,
    flowId: null,
    template,
    scheduledTo: prepared.scheduledTo,
  };
}

/** One item the caller may see (attendants: their departments' chips); otherwise 'not found'. */
async function visibleItem(ctx: SignedInContext, id: string) {
  const [row] = await ctx.services.db
    .select({ item: scheduledMessages, departmentId: chips.departmentId })
    .from(scheduledMessages)
    .innerJoin(chips, eq(chips.id, scheduledMessages.chipId))
    .where(
      and(
        eq(scheduledMessages.id, id),
        eq(scheduledMessages.accountId, ctx.user.accountId),
        eq(scheduledMessages.filed, false),
      ),
    )
    .limit(1);
  const user = ctx.user;
  if (
    !row ||
    (user.userRole === 'user' && !(row.departmentId && user.departments.includes(row.departmentId)))
  )
    throw new AppError(texts.notFound);
  return row.item;
}

export const scheduledMessagesHandlers = {
  'get-scheduled-messages-by-user': async (_p, ctx) => {
    const { user } = ctx;
    if (user.userRole === 'user' && user.departments.length === 0) return [];
    const rows = await ctx.services.db
      .select({ item: scheduledMessages })
      .from(scheduledMessages)
      .innerJoin(chips, eq(chips.id, scheduledMessages.chipId))
      .where(
        and(
          eq(scheduledMessages.accountId, user.accountId),
          eq(scheduledMessages.filed, false),
          user.userRole === 'user' ? inArray(chips.departmentId, user.departments) : undefined,
        ),
      )
      .orderBy(desc(scheduledMessages.scheduledTo), desc(scheduledMessages.id))
      .limit(1000);
    return rows.map((r) => toScheduledMessage(r.item));
  },
  'create-scheduled-message': async (p, ctx) => {
    const fields = await prepare(ctx, p);
    return toScheduledMessage(await createScheduledItem(ctx, fields, p._id));
  },
  'update-scheduled-message': async (p, ctx) => {
    const item = await visibleItem(ctx, p._id);
    const { db } = ctx.services;
    if (p.filed) {
      // Deleting is allowed only before the job took it: a message on its way cannot be called back.
      const [row] = await db
        .update(scheduledMessages)
        .set({ filed: true })
        .where(and(eq(scheduledMessages.id, item.id), eq(scheduledMessages.status, 'scheduled')))
        .returning();
      if (!row) throw new AppError(texts.scheduleNotEditable);
      return toScheduledMessage(row);
    }
    const fields = await prepare(ctx, p);
    // A new time gets its own job; the old one finds the row not yet due and claims nothing.
    const row = await db.transaction(async (tx) => {
      const [changed] = await tx
        .update(scheduledMessages)
        .set({ ...fields, failure: null })
        .where(and(eq(scheduledMessages.id, item.id), eq(scheduledMessages.status, 'scheduled')))
        .returning();
      if (changed && changed.scheduledTo.getTime() !== item.scheduledTo.getTime())
        await queueScheduledMessage(ctx.services, tx, changed);
      return changed;
    });
    if (!row) throw new AppError(texts.scheduleNotEditable);
    return toScheduledMessage(row);
  },
} satisfies Handlers;
