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
  'get-open-manual-conversation-count': (_p, ctx) => openManualCount(ctx.services, ctx.actor),
  'get-messages-by-conversation': (p, ctx) => listMessages(ctx.services, ctx.actor, p),
  'send-conversation-message': (p, ctx) => sendConversationMessage(ctx, ctx.user, p),
  'delete-conversation-message': (p, ctx) => deleteConversationMessage(ctx.services, ctx.actor, p._id),
  'check-phone': (p, ctx) => checkPhone(ctx.services, ctx.actor, p),
  'upload-file': (p, ctx) => uploadFile(ctx.services, ctx.file, p),
  'get-conversations-with-last-message': (p, ctx) => listConversations(ctx.services, ctx.actor, p),
  'change-conversation-data': (p, ctx) => changeConversationData(ctx.services, ctx.actor, p),
  'set-conversation-manual': (p, ctx) => setConversationManual(ctx.services, ctx.actor, p.conversation_id),
  'transfer-conversation': (p, ctx) => transferConversation(ctx.services, ctx.actor, p),
  'finish-conversation': (p, ctx) => finishConversation(ctx.services, ctx.actor, p.conversation_id),
  'resume-conversation': (p, ctx) => resumeConversation(ctx.services, ctx.actor, p.conversation_id),
  'finish-inactive-conversations': (p, ctx) => finishInactiveConversations(ctx.services, ctx.actor, p.hours),
  'create-system-message': (p, ctx) => createSystemMessage(ctx.services, ctx.actor, p),
  'get-changes-since': (p, ctx) => changesSince(ctx.services, ctx.actor, p),
} satisfies Handlers;
