// Scheduled individual messages (spec 2 §2.4, §5, §7). The calls keep the list; the job in
// src/server/jobs/scheduled-messages.ts sends each one when it is due (its runner job is queued here).
import type { z } from 'zod';
import type { CallName, Calls } from '../../../shared/contract';
import type { ScheduledMessage } from '../../../shared/contract/scheduled-messages';
import { newId } from '../../../shared/ids';
import { messages as texts } from '../../../shared/messages';
import { fieldError } from '../../../shared/rules/field-error';
import { prepareScheduledMessage, type ScheduledMessageInput } from '../../../shared/rules/scheduled-message';
import type { Actor } from '../../access';
import { AppError, fieldFailure } from '../../http/errors';
import { queueScheduledMessage } from '../../jobs/scheduled-messages';
import type { Services } from '../../services';
import { visibleChip } from '../conversations/conversations.service';
import { usableTemplates } from '../conversations/templates';
import { flowsRepo } from '../flows/flows.repo';
import { type ScheduledMessageRow as Row, scheduledMessagesRepo as repo } from './scheduled-messages.repo';

type Payload<N extends CallName> = z.output<Calls[N]['payload']>;

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

async function prepare(services: Services, actor: Actor, p: ScheduledMessageInput) {
  const chip =
    p.chip && /^[0-9A-Z]{28}$/.test(p.chip)
      ? await visibleChip({ services, actor }, p.chip).catch(() => null)
      : null;
  if (p.chip && !chip) throw new AppError(texts.notFound);
  const prepared = prepareScheduledMessage(p, chip);
  if (!prepared.ok) throw fieldFailure(prepared.error);
  if (!chip) throw fieldFailure(fieldError('chip', texts.scheduleChipRequired));
  let template: Row['template'] = null;
  let flowId: string | null = null;
  if (chip.official) {
    const wanted = p.template;
    const found = (await usableTemplates(services, chip)).find(
      (t) => t.name === wanted?.name && t.language === wanted.language,
    );
    if (!found) throw fieldFailure(fieldError('template', texts.newConversationTemplateNotFixed));
    template = found;
  } else if (p.type === 'flow') {
    const flow = await flowsRepo.find(services.db, actor, p.flow ?? '');
    if (!flow) throw fieldFailure(fieldError('flow', texts.flowNotFound));
    flowId = flow.id;
  }
  return {
    chipId: chip.id,
    to: prepared.to,
    type: chip.official ? ('text' as const) : p.type,
    message: chip.official || p.type === 'flow' ? '' : p.message,
    flowId,
    template,
    scheduledTo: prepared.scheduledTo,
  };
}

export async function listScheduledMessages(services: Services, actor: Actor) {
  return (await repo.list(services.db, actor)).map(toScheduledMessage);
}

/**
 * Creates the item once per `id`: a repeat, even at once, answers the first one, when the caller may see
 * it (an id of another account's item, or of one in another department, is not found). The row and its
 * runner job are written in one transaction: never one without the other.
 */
export async function createScheduledMessage(
  services: Services,
  actor: Actor,
  p: Payload<'create-scheduled-message'>,
) {
  const fields = await prepare(services, actor, p);
  const { db } = services;
  if (actor.kind !== 'user') throw new AppError(texts.insufficientPermissions);
  const id = p._id ?? newId();
  const stored = await db.transaction(async (tx) => {
    const made = await repo.insertOnce(tx, actor, id, fields);
    if (made?.created) await queueScheduledMessage(services, tx, made.row);
    return made;
  });
  if (!stored) throw new AppError(texts.notFound);
  if (!stored.created && !(await repo.find(db, actor, id, { filed: true })))
    throw new AppError(texts.notFound);
  return toScheduledMessage(stored.row);
}

export async function updateScheduledMessage(
  services: Services,
  actor: Actor,
  p: Payload<'update-scheduled-message'>,
) {
  const { db } = services;
  const item = await repo.find(db, actor, p._id);
  if (!item) throw new AppError(texts.notFound);
  // Deleting is allowed only before the job took it: a message on its way cannot be called back.
  let row: Row | null;
  if (p.filed) row = await repo.updateScheduled(db, actor, item.id, { filed: true });
  else {
    const fields = await prepare(services, actor, p);
    // A new time gets its own job; the old one finds the row not yet due and claims nothing.
    row = await db.transaction(async (tx) => {
      const changed = await repo.updateScheduled(tx, actor, item.id, { ...fields, failure: null });
      if (changed && changed.scheduledTo.getTime() !== item.scheduledTo.getTime())
        await queueScheduledMessage(services, tx, changed);
      return changed;
    });
  }
  if (!row) throw new AppError(texts.scheduleNotEditable);
  return toScheduledMessage(row);
}
