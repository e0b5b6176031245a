import type { Handlers } from '../../http/context';
import { changesSince } from './changes';
import {
  changeConversationData,
  createSystemMessage,
  finishConversation,
  finishInactiveConversations,
  listConversations,
  openManualCount,
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
  'get-open-manual-conversation-count': (_p, ctx) => openManualCount(ctx),
  'get-messages-by-conversation': (p, ctx) => listMessages(ctx, p),
  'send-conversation-message': (p, ctx) => sendConversationMessage(ctx, ctx.user, p),
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
