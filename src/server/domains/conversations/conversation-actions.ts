// The service screen's list and its conversation actions (spec 2 §2.3, §4, §7). Every action checks that the
// caller may see the conversation, changes it, and tells the other screens over the socket: a conversation
// that moves to another department is announced to both departments, so it leaves one list and joins the other.
import { MESSAGE_STATUS } from '../../../shared/constants';
import type { Conversation } from '../../../shared/contract/conversations';
import { messages as texts } from '../../../shared/messages';
import { fieldError } from '../../../shared/rules/field-error';
import { type TransferInput, transferError } from '../../../shared/rules/transfer';
import { type Actor, narrowDepartments, systemActor, type UserActor } from '../../access';
import type { Db } from '../../db';
import { AppError, fieldFailure } from '../../http/errors';
import type { Services } from '../../services';
import { chatbotsRepo } from '../chatbots/chatbots.repo';
import { queueChatbotReply, servingChatbot } from '../chatbots/start';
import { flowsRepo } from '../flows/flows.repo';
import { queueFlowRun, startingFlow } from '../flows/start';
import { tagsRepo } from '../tags/tags.repo';
import { appendMessage } from './append-message';
import { resetRuns } from './claim';
import { type ConversationRow, conversationViewsRepo } from './conversation-views.repo';
import { type ConversationChange, conversationsRepo, type FinishedConversation } from './conversations.repo';
import { visibleConversation } from './conversations.service';
import { conversationView, loadConversation, toMessage } from './present';

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

/** The bell (spec 1 "Shell elements"): open human conversations the caller may see. */
export async function openManualCount(services: Services, actor: Actor) {
  return { open_manual_count: await conversationsRepo.openManualCount(services.db, actor) };
}

/** Open conversations the caller may see, newest activity first, a page at a time. */
export async function listConversations(services: Services, actor: Actor, p: ListInput) {
  const { filter } = p;
  if (p.conversation_id) {
    await visibleConversation({ services, actor }, p.conversation_id);
    const one = await loadConversation(services.db, p.conversation_id);
    return { conversations: one ? [one] : [], load_more: false };
  }
  // Attendants: their departments only, whatever the filter asks.
  const departmentIds = narrowDepartments(actor, filter.departments.length ? filter.departments : null);
  if (departmentIds?.length === 0) return { conversations: [], load_more: false };
  const types = new Set(filter.types);
  const text = filter.text.trim();
  const afterAt = p.after ? new Date(p.after.last_message_at) : null;
  if (afterAt && Number.isNaN(afterAt.getTime())) throw new AppError(texts.invalidPayload);
  const rows = await conversationViewsRepo.listOpen(services.db, actor, {
    departmentIds,
    waitingResponse: filter.situation === 'waiting_response',
    manual: types.size === 1 ? types.has('human') : null,
    chips: filter.chips,
    assignedUser: filter.assigned_user,
    tags: filter.tags,
    text,
    digits: text.replace(/\D/g, ''),
    after: p.after && afterAt ? { at: afterAt, id: p.after._id } : null,
    limit: p.limit,
  });
  return {
    conversations: rows.slice(0, p.limit).map(conversationView),
    load_more: rows.length > p.limit,
  };
}

/** Tells the department the conversation was in and, when it moved, the one it is in now. */
async function announce(services: Services, actor: UserActor, before: ConversationRow) {
  const view = (await loadConversation(services.db, before.id)) as Conversation;
  const event = { type: 'conversation_updated' as const, message: view, by: actor.userId };
  services.realtime.toConversation(actor.accountId, view.department, event);
  if (before.departmentId && before.departmentId !== view.department) {
    services.realtime.toConversation(actor.accountId, before.departmentId, event);
  }
  return view;
}

/** Saves a change and tells the screens. */
async function changed(
  services: Services,
  actor: UserActor,
  before: ConversationRow,
  set: ConversationChange,
) {
  await conversationsRepo.update(services.db, actor, before.id, set);
  return announce(services, actor, before);
}

async function openOne(services: Services, actor: Actor, conversationId: string) {
  const { conversation } = await visibleConversation({ services, actor }, conversationId);
  if (conversation.finishedAt) throw new AppError(texts.conversationAlreadyFinished);
  return conversation;
}

export async function changeConversationData(
  services: Services,
  actor: UserActor,
  p: { conversation_id: string; waiting_response?: false; auto_follow_up?: false },
) {
  const { conversation } = await visibleConversation({ services, actor }, p.conversation_id);
  return changed(services, actor, conversation, {
    ...(p.waiting_response === false && { waitingResponse: false }),
    // Switched off for this conversation only: a new conversation with the contact has it again.
    ...(p.auto_follow_up === false && { autoFollowUp: false }),
  });
}

export async function setConversationManual(services: Services, actor: UserActor, conversationId: string) {
  const conversation = await openOne(services, actor, conversationId);
  const view = await changed(services, actor, conversation, { isManual: true });
  services.realtime.toConversation(actor.accountId, view.department, {
    type: 'set_manual',
    message: { _id: view._id, user: actor.userId },
  });
  return view;
}

async function checkTags(services: Services, actor: Actor, ids: string[]) {
  if (!ids.length) return;
  if ((await tagsRepo.countActive(services.db, actor, ids)) !== new Set(ids).size)
    throw new AppError(texts.tagNotFound);
}

/**
 * Transferência (spec 2 §4): to a department, a person there serves it; to a chatbot or a flow, the manual
 * flag is cleared, the other target and the flow context are reset, and a flow starts from the beginning.
 * A finished conversation transferred (from the history) is served again.
 */
export async function transferConversation(
  services: Services,
  actor: UserActor,
  p: TransferInput & { conversation_id: string; tags?: string[] },
) {
  const error = transferError(p);
  if (error) throw fieldFailure(error);
  const { conversation, contact } = await visibleConversation({ services, actor }, p.conversation_id);
  const { db } = services;
  let set: ConversationChange;
  if (p.type === 'department') {
    const department = await conversationsRepo.department(db, actor, p.department ?? '');
    if (!department) throw fieldFailure(fieldError('department', texts.departmentNotFound));
    set = toDepartment(department);
  } else if (p.type === 'flow') {
    const flow = await flowsRepo.find(db, actor, p.flow ?? '');
    if (!flow) throw fieldFailure(fieldError('flow', texts.flowNotFound));
    set = startingFlow(flow.id);
  } else {
    const chatbot = await chatbotsRepo.find(db, actor, p.chatbot ?? '');
    if (!chatbot) throw fieldFailure(fieldError('chatbot', texts.chatbotNotFound));
    set = servingChatbot(chatbot.id);
  }
  if (p.tags) await checkTags(services, actor, p.tags);
  const tagsSet = p.tags;
  // The contact's tags and the conversation's new place are one change: a concurrent transfer never
  // leaves one call's tags with another call's department.
  await reopening(services, actor, conversation, () =>
    db.transaction(async (tx) => {
      if (tagsSet) await conversationsRepo.setContactTags(tx as Db, actor, contact.id, tagsSet);
      await conversationsRepo.update(
        tx as Db,
        actor,
        conversation.id,
        conversation.finishedAt ? { ...set, finishedAt: null } : set,
      );
      // The flow starts from the beginning: its run is queued with the change (flows/engine.ts).
      if (set.startFlow) await queueFlowRun(services, conversation.id, { tx: tx as Db });
      // The chatbot answers the customer's last messages if no one did (chatbots/engine.ts), from a fresh
      // position.
      if (set.chatbotType === 'chatbot') {
        await resetRuns(tx as Db, 'chatbots', [conversation.id]);
        await queueChatbotReply(services, conversation.id, { tx: tx as Db });
      }
    }),
  );
  return announce(services, actor, conversation);
}

/** The account's department of that id (not deleted), or null: a flow's redirect, acting for the account. */
export const accountDepartment = (db: Db, accountId: string, id: string) =>
  conversationsRepo.department(db, systemActor(accountId, 'flows'), id);

/** A transfer to a department: a person there serves it (a flow's redirect to human service too). */
/** A person in that department serves it: a flow serving it stops (the engine reads is_manual before every step). */
export const toDepartment = (department: { id: string }): ConversationChange => ({
  departmentId: department.id,
  isManual: true,
  startFlow: false,
});

export async function finishConversation(services: Services, actor: UserActor, conversationId: string) {
  const conversation = await openOne(services, actor, conversationId);
  const row = await finishOpen(services, conversation.id, actor.userId);
  if (!row) throw new AppError(texts.conversationAlreadyFinished);
  return (await loadConversation(services.db, row.id)) as Conversation;
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
  const row = await conversationsRepo.finishOpen(services.db, conversationId);
  if (!row) return null;
  services.realtime.toConversation(row.accountId, row.departmentId, {
    type: 'conversation_finished',
    message: { _id: row.id, user: by },
  });
  return row;
}

/** A contact has one open conversation per chip: a resume waits until the other one is finished. */
async function resumable(services: Services, actor: Actor, conversation: ConversationRow) {
  const open = await conversationsRepo.openOnChip(
    services.db,
    actor,
    conversation.chipId,
    conversation.contactId,
  );
  if (open) throw new AppError(texts.contactHasOpenConversation);
}

/**
 * Opens a finished conversation again through `write`: the open-conversation index lets one of two
 * concurrent openings win, and the other gets the clear message.
 */
async function reopening(
  services: Services,
  actor: Actor,
  conversation: ConversationRow,
  write: () => Promise<unknown>,
) {
  if (!conversation.finishedAt) return write();
  await resumable(services, actor, conversation);
  try {
    return await write();
  } catch (err) {
    await resumable(services, actor, conversation);
    throw err;
  }
}

export async function resumeConversation(services: Services, actor: UserActor, conversationId: string) {
  const { conversation } = await visibleConversation({ services, actor }, conversationId);
  if (!conversation.finishedAt) throw new AppError(texts.conversationNotFinished);
  // Only a finished one is resumed: of several resumes at once, one succeeds.
  const resumed = await reopening(services, actor, conversation, () =>
    conversationsRepo.resume(services.db, actor, conversation.id),
  );
  if (!(resumed as unknown[]).length) throw new AppError(texts.conversationNotFinished);
  return announce(services, actor, conversation);
}

/** Tells every list the conversations ended (after the write committed). */
export function announceFinished(services: Services, actor: UserActor, rows: FinishedConversation[]) {
  for (const row of rows) {
    services.realtime.toConversation(actor.accountId, row.departmentId, {
      type: 'conversation_finished',
      message: { _id: row.id, user: actor.userId },
    });
  }
  return rows.length;
}

/** Bulk finish: every open conversation of the account with no message for `hours`. */
export async function finishInactiveConversations(services: Services, actor: UserActor, hours: number) {
  const limit = new Date(Date.now() - hours * 60 * 60 * 1000);
  const rows = await conversationsRepo.finishInactive(services.db, actor, limit);
  return { finished: announceFinished(services, actor, rows) };
}

/** A deleted contact leaves no conversation open: nobody could answer it, and a new message opens a new one. */
export const finishContactConversations = (actor: Actor, contactId: string, db: Db) =>
  conversationsRepo.finishOfContact(db, actor, contactId);

export async function createSystemMessage(
  services: Services,
  actor: UserActor,
  p: { conversation_id: string; message: string },
) {
  const { conversation } = await visibleConversation({ services, actor }, p.conversation_id);
  // A note in the timeline: the conversation itself does not change.
  const { row } = await appendMessage(services, actor, {
    conversation,
    effect: 'none',
    message: {
      origin: 'user',
      type: 'system',
      message: p.message,
      userId: actor.userId,
      status: MESSAGE_STATUS.sent,
    },
  });
  return toMessage(row);
}
