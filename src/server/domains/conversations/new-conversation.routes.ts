import type { Handlers } from '../../http/context';
import {
  contactsForNewConversation,
  listHistory,
  startNewConversation,
  templatesByWaba,
} from './new-conversation';

export const newConversationHandlers = {
  'get-contacts-for-new-conversation': (p, ctx) => contactsForNewConversation(ctx, p),
  'get-template-messages-by-waba-id': (p, ctx) => templatesByWaba(ctx, p.waba),
  'start-new-conversation': (p, ctx) => startNewConversation(ctx, p),
  'get-conversations-by-user': (p, ctx) => listHistory(ctx, p),
} satisfies Handlers;
