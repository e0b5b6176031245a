// The service screen's list and its conversation actions (spec 2 §2.3, §4, §7). Every action checks that the
// caller may see the conversation, changes it, and tells the other screens over the socket: a conversation
// that moves to another department is announced to both departments, so it leaves one list and joins the other.
import { and, count, desc, eq, inArray, isNotNull, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import { MESSAGE_STATUS } from '../../../shared/constants';
import type { Conversation } from '../../../shared/contract/conversations';
import { messages as texts } from '../../../shared/messages';
import { fieldError } from '../../../shared/rules/field-error';
import { type TransferInput, transferError } from '../../../shared/rules/transfer';
import { type Actor, departmentCondition, narrowDepartments, type UserActor } from '../../access';
import type { Db } from '../../db';
import { contacts, conversations, departments, tags } from '../../db/schema';
import type { SignedInContext } from '../../http/context';
import { AppError, fieldFailure } from '../../http/errors';
import type { Services } from '../../services';
import { chatbotsRepo } from '../chatbots/chatbots.repo';
import { queueChatbotReply, servingChatbot } from '../chatbots/start';
import { flowsRepo } from '../flows/flows.repo';
import { queueFlowRun, startingFlow } from '../flows/start';
import { appendMessage } from './append-message';
import { visibleConversation } from './conversations.service';
import { conversationView, loadConversation, selectConversationViews, toMessage } from './present';

type Ctx = SignedInContext;
type ConversationRow = typeof conversations.$inferSelect;

export interface ListInput {
  filter: {
    situation: 'all' | 'waiting_response';
    types: ('chatbot' | 'human')[];
    departments: string[];
    tags: string[];
    chips: string[];
    text: string;
    assigned_user: string | null;
  };
  limit: number;
  after?: { last_message_at: string; _id: string };
  conversation_id?: string;
}

const activity = sql`coalesce(${conversations.lastMessageAt}, ${conversations.createdAt})`;
// The cursor comes back as a JS date (milliseconds) while PostgreSQL keeps microseconds: the list sorts and
// pages on the millisecond, or a conversation between the cursor and its true time would be skipped.
const activityMs = sql`date_trunc('milliseconds', ${activity})`;

/** Open conversations the caller may see, newest activity first, a page at a time. */
/** The bell (spec 1 "Shell elements"): open human conversations the caller may see. */
export async function openManualCount(ctx: Ctx) {
  const [row] = await ctx.services.db
    .select({ n: count() })
    .from(conversations)
    .where(
      and(
        eq(conversations.accountId, ctx.actor.accountId),
        eq(conversations.isManual, true),
        isNull(conversations.finishedAt),
        departmentCondition(ctx.actor, conversations.departmentId),
      ),
    );
  return { open_manual_count: row?.n ?? 0 };
}

export async function listConversations(ctx: Ctx, p: ListInput) {
  const { filter } = p;
  if (p.conversation_id) {
    await visibleConversation(ctx, p.conversation_id);
    const one = await loadConversation(ctx.services.db, p.conversation_id);
    return { conversations: one ? [one] : [], load_more: false };
  }
  // Attendants: their departments only, whatever the filter asks.
  const departmentIds = narrowDepartments(ctx.actor, filter.departments.length ? filter.departments : null);
  if (departmentIds?.length === 0) return { conversations: [], load_more: false };
  const types = new Set(filter.types);
  const text = filter.text.trim();
  const digits = text.replace(/\D/g, '');
  const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const afterAt = p.after ? new Date(p.after.last_message_at) : null;
  if (afterAt && Number.isNaN(afterAt.getTime())) throw new AppError(texts.invalidPayload);
  const rows = await selectConversationViews(ctx.services.db)
    .where(
      and(
        eq(conversations.accountId, ctx.actor.accountId),
        isNull(conversations.finishedAt),
        departmentIds ? inArray(conversations.departmentId, departmentIds) : undefined,
        filter.situation === 'waiting_response' ? eq(conversations.waitingResponse, true) : undefined,
        types.size === 1 ? eq(conversations.isManual, types.has('human')) : undefined,
        filter.chips.length ? inArray(conversations.chipId, filter.chips) : undefined,
        filter.assigned_user ? eq(conversations.assignedUserId, filter.assigned_user) : undefined,
        filter.tags.length
          ? sql`${contacts.tags} ?| array[${sql.join(
              filter.tags.map((t) => sql`${t}`),
              sql`, `,
            )}]::text[]`
          : undefined,
        text
          ? or(
              sql`${contacts.name} ilike ${like}`,
              sql`${contacts.overrideName} ilike ${like}`,
              digits.length >= 3 ? sql`${contacts.phone} like ${`%${digits}%`}` : undefined,
            )
          : undefined,
        p.after && afterAt
          ? sql`(${activityMs}, ${conversations.id}) < (${afterAt}, ${p.after._id})`
          : undefined,
      ),
    )
    .orderBy(desc(activityMs), desc(conversations.id))
    .limit(p.limit + 1);
  return {
    conversations: rows.slice(0, p.limit).map(conversationView),
    load_more: rows.length > p.limit,
  };
}

type ConversationChange = Partial<typeof conversations.$inferInsert>;

/** Tells the department the conversation was in and, when it moved, the one it is in now. */
async function announce(ctx: Ctx, before: ConversationRow) {
  const view = (await loadConversation(ctx.services.db, before.id)) as Conversation;
  const event = { type: 'conversation_updated' as const, message: view, by: ctx.user.id };
  ctx.services.realtime.toConversation(ctx.actor.accountId, view.department, event);
  if (before.departmentId && before.departmentId !== view.department) {
    ctx.services.realtime.toConversation(ctx.actor.accountId, before.departmentId, event);
  }
  return view;
}

/** Saves a change and tells the screens. */
async function changed(ctx: Ctx, before: ConversationRow, set: ConversationChange) {
  await ctx.services.db.update(conversations).set(set).where(eq(conversations.id, before.id));
  return announce(ctx, before);
}

async function openOne(ctx: Ctx, conversationId: string) {
  const { conversation } = await visibleConversation(ctx, conversationId);
  if (conversation.finishedAt) throw new AppError(texts.conversationAlreadyFinished);
  return conversation;
}

export async function changeConversationData(
  ctx: Ctx,
  p: { conversation_id: string; waiting_response?: false; auto_follow_up?: false },
) {
  const { conversation } = await visibleConversation(ctx, p.conversation_id);
  return changed(ctx, conversation, {
    ...(p.waiting_response === false && { waitingResponse: false }),
    // Switched off for this conversation only: a new conversation with the contact has it again.
    ...(p.auto_follow_up === false && { autoFollowUp: false }),
  });
}

export async function setConversationManual(ctx: Ctx, conversationId: string) {
  const conversation = await openOne(ctx, conversationId);
  const view = await changed(ctx, conversation, { isManual: true });
  ctx.services.realtime.toConversation(ctx.actor.accountId, view.department, {
    type: 'set_manual',
    message: { _id: view._id, user: ctx.user.id },
  });
  return view;
}

async function checkTags(ctx: Ctx, ids: string[]) {
  if (!ids.length) return;
  const found = await ctx.services.db
    .select({ id: tags.id })
    .from(tags)
    .where(and(eq(tags.accountId, ctx.actor.accountId), eq(tags.filed, false), inArray(tags.id, ids)));
  if (found.length !== new Set(ids).size) throw new AppError(texts.tagNotFound);
}

/**
 * Transferência (spec 2 §4): to a department, a person there serves it; to a chatbot or a flow, the manual
 * flag is cleared, the other target and the flow context are reset, and a flow starts from the beginning.
 * A finished conversation transferred (from the history) is served again.
 */
export async function transferConversation(
  ctx: Ctx,
  p: TransferInput & { conversation_id: string; tags?: string[] },
) {
  const error = transferError(p);
  if (error) throw fieldFailure(error);
  const { conversation, contact } = await visibleConversation(ctx, p.conversation_id);
  const { db } = ctx.services;
  let set: Partial<typeof conversations.$inferInsert>;
  if (p.type === 'department') {
    const department = await accountDepartment(db, ctx.actor.accountId, p.department ?? '');
    if (!department) throw fieldFailure(fieldError('department', texts.departmentNotFound));
    set = toDepartment(department);
  } else if (p.type === 'flow') {
    const flow = await flowsRepo.find(db, ctx.actor, p.flow ?? '');
    if (!flow) throw fieldFailure(fieldError('flow', texts.flowNotFound));
    set = startingFlow(flow.id);
  } else {
    const chatbot = await chatbotsRepo.find(db, ctx.actor, p.chatbot ?? '');
    if (!chatbot) throw fieldFailure(fieldError('chatbot', texts.chatbotNotFound));
    set = servingChatbot(chatbot.id);
  }
  if (p.tags) await checkTags(ctx, p.tags);
  const tagsSet = p.tags;
  // The contact's tags and the conversation's new place are one change: a concurrent transfer never
  // leaves one call's tags with another call's department.
  await reopening(ctx, conversation, () =>
    ctx.services.db.transaction(async (tx) => {
      if (tagsSet) await tx.update(contacts).set({ tags: tagsSet }).where(eq(contacts.id, contact.id));
      await tx
        .update(conversations)
        .set(conversation.finishedAt ? { ...set, finishedAt: null } : set)
        .where(eq(conversations.id, conversation.id));
      // The flow starts from the beginning: its run is queued with the change (flows/engine.ts).
      if (set.startFlow) await queueFlowRun(ctx.services, conversation.id, { tx: tx as Db });
      // The chatbot answers the customer's last messages if no one did (chatbots/engine.ts).
      if (set.chatbotType === 'chatbot')
        await queueChatbotReply(ctx.services, conversation.id, { tx: tx as Db });
    }),
  );
  return announce(ctx, conversation);
}

/** The account's department of that id (not deleted), or null. */
export async function accountDepartment(db: Db, accountId: string, id: string) {
  const [department] = await db
    .select({ id: departments.id })
    .from(departments)
    .where(and(eq(departments.id, id), eq(departments.accountId, accountId), eq(departments.filed, false)));
  return department ?? null;
}

/** A transfer to a department: a person there serves it (a flow's redirect to human service too). */
/** A person in that department serves it: a flow serving it stops (the engine reads is_manual before every step). */
export const toDepartment = (department: { id: string }): ConversationChange => ({
  departmentId: department.id,
  isManual: true,
  startFlow: false,
});

export async function finishConversation(ctx: Ctx, conversationId: string) {
  const conversation = await openOne(ctx, conversationId);
  const row = await finishOpen(ctx.services, conversation.id, ctx.user.id);
  if (!row) throw new AppError(texts.conversationAlreadyFinished);
  return (await loadConversation(ctx.services.db, row.id)) as Conversation;
}

/**
 * Finishes an open conversation and tells the lists; null when it was finished already. `by`: the user, or
 * null when a flow's end finished it.
 */
export async function finishOpen(
  services: Pick<Services, 'db' | 'realtime'>,
  conversationId: string,
  by: string | null,
) {
  const [row] = await services.db
    .update(conversations)
    .set({ finishedAt: new Date() })
    .where(and(eq(conversations.id, conversationId), isNull(conversations.finishedAt)))
    .returning();
  if (!row) return null;
  services.realtime.toConversation(row.accountId, row.departmentId, {
    type: 'conversation_finished',
    message: { _id: row.id, user: by },
  });
  return row;
}

/** A contact has one open conversation per chip: a resume waits until the other one is finished. */
async function resumable(ctx: Ctx, conversation: ConversationRow) {
  const [open] = await ctx.services.db
    .select({ id: conversations.id })
    .from(conversations)
    .where(
      and(
        eq(conversations.chipId, conversation.chipId),
        eq(conversations.contactId, conversation.contactId),
        isNull(conversations.finishedAt),
      ),
    )
    .limit(1);
  if (open) throw new AppError(texts.contactHasOpenConversation);
}

/**
 * Opens a finished conversation again through `write`: the open-conversation index lets one of two
 * concurrent openings win, and the other gets the clear message.
 */
async function reopening(ctx: Ctx, conversation: ConversationRow, write: () => Promise<unknown>) {
  if (!conversation.finishedAt) return write();
  await resumable(ctx, conversation);
  try {
    return await write();
  } catch (err) {
    await resumable(ctx, conversation);
    throw err;
  }
}

export async function resumeConversation(ctx: Ctx, conversationId: string) {
  const { conversation } = await visibleConversation(ctx, conversationId);
  if (!conversation.finishedAt) throw new AppError(texts.conversationNotFinished);
  // Only a finished one is resumed: of several resumes at once, one succeeds.
  const resumed = await reopening(ctx, conversation, () =>
    ctx.services.db
      .update(conversations)
      .set({ finishedAt: null })
      .where(and(eq(conversations.id, conversation.id), isNotNull(conversations.finishedAt)))
      .returning({ id: conversations.id }),
  );
  if (!(resumed as unknown[]).length) throw new AppError(texts.conversationNotFinished);
  return announce(ctx, conversation);
}

type Finished = { id: string; departmentId: string | null }[];

/** Finishes the account's open conversations that `where` picks (in `db`, maybe a transaction). */
function finishRows(actor: Actor, where: SQL | undefined, db: Db): Promise<Finished> {
  return db
    .update(conversations)
    .set({ finishedAt: new Date() })
    .where(and(eq(conversations.accountId, actor.accountId), isNull(conversations.finishedAt), where))
    .returning({ id: conversations.id, departmentId: conversations.departmentId });
}

/** Tells every list the conversations ended (after the write committed). */
export function announceFinished(services: Services, actor: UserActor, rows: Finished) {
  for (const row of rows) {
    services.realtime.toConversation(actor.accountId, row.departmentId, {
      type: 'conversation_finished',
      message: { _id: row.id, user: actor.userId },
    });
  }
  return rows.length;
}

/** Bulk finish: every open conversation of the account with no message for `hours`. */
export async function finishInactiveConversations(ctx: Ctx, hours: number) {
  const limit = new Date(Date.now() - hours * 60 * 60 * 1000);
  const rows = await finishRows(ctx.actor, lt(activity, limit), ctx.services.db);
  return { finished: announceFinished(ctx.services, ctx.actor, rows) };
}

/** A deleted contact leaves no conversation open: nobody could answer it, and a new message opens a new one. */
export const finishContactConversations = (actor: Actor, contactId: string, db: Db) =>
  finishRows(actor, eq(conversations.contactId, contactId), db);

export async function createSystemMessage(ctx: Ctx, p: { conversation_id: string; message: string }) {
  const { conversation } = await visibleConversation(ctx, p.conversation_id);
  // A note in the timeline: the conversation itself does not change.
  const { row } = await appendMessage(ctx.services, ctx.actor, {
    conversation,
    effect: 'none',
    message: {
      origin: 'user',
      type: 'system',
      message: p.message,
      userId: ctx.user.id,
      status: MESSAGE_STATUS.sent,
    },
  });
  return toMessage(row);
}
