import type { Handlers } from '../../http/context';
import {
  contactsForNewConversation,
  listHistory,
  startNewConversation,
  templatesByWaba,
} from './new-conversation';

export const newConversationHandlers = {
  'get-contacts-for-new-conversation': (p, ctx) => contactsForNewConversation(ctx.services, ctx.actor, p),
  'get-template-messages-by-waba-id': (p, ctx) => templatesByWaba(ctx.services, ctx.actor, p.waba),
  'start-new-conversation': (p, ctx) => startNewConversation(ctx.services, ctx.actor, p),
  'get-conversations-by-user': (p, ctx) => listHistory(ctx.services, ctx.actor, p),
} satisfies Handlers;
