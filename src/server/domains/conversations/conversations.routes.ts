import { and, count, eq, inArray, isNull } from 'drizzle-orm';
import { conversations } from '../../db/schema';
import type { Handlers } from '../../http/context';
import { changesSince } from './changes';
import {
  changeConversationData,
  createSystemMessage,
  finishConversation,
  finishInactiveConversations,
  listConversations,
  resumeConversation,
  setConversationManual,
  transferConversation,
} from './conversation-actions';
import {
  checkPhone,
  deleteConversationMessage,
  listMessages,
  sendConversationMessage,
  uploadFile,
} from './conversations.service';

export const conversationsHandlers = {
  // The bell (spec 1 "Shell elements"): open human conversations; attendants count only their departments.
  'get-open-manual-conversation-count': async (_p, ctx) => {
    const { user } = ctx;
    if (user.userRole === 'user' && user.departments.length === 0) return { open_manual_count: 0 };
    const [row] = await ctx.services.db
      .select({ n: count() })
      .from(conversations)
      .where(
        and(
          eq(conversations.accountId, user.accountId),
          eq(conversations.isManual, true),
          isNull(conversations.finishedAt),
          user.userRole === 'user' ? inArray(conversations.departmentId, user.departments) : undefined,
        ),
      );
    return { open_manual_count: row?.n ?? 0 };
  },
  'get-messages-by-conversation': (p, ctx) => listMessages(ctx, p),
  'send-conversation-message': (p, ctx) => sendConversationMessage(ctx, p),
  'delete-conversation-message': (p, ctx) => deleteConversationMessage(ctx, p._id),
  'check-phone': (p, ctx) => checkPhone(ctx, p),
  'upload-file': (p, ctx) => uploadFile(ctx, p),
  'get-conversations-with-last-message': (p, ctx) => listConversations(ctx, p),
  'change-conversation-data': (p, ctx) => changeConversationData(ctx, p),
  'set-conversation-manual': (p, ctx) => setConversationManual(ctx, p.conversation_id),
  'transfer-conversation': (p, ctx) => transferConversation(ctx, p),
  'finish-conversation': (p, ctx) => finishConversation(ctx, p.conversation_id),
  'resume-conversation': (p, ctx) => resumeConversation(ctx, p.conversation_id),
  'finish-inactive-conversations': (p, ctx) => finishInactiveConversations(ctx, p.hours),
  'create-system-message': (p, ctx) => createSystemMessage(ctx, p),
  'get-changes-since': (p, ctx) => changesSince(ctx, p),
} satisfies Handlers;
