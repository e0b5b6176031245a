import type { Handlers } from '../../http/context';
import {
  createScheduledMessage,
  listScheduledMessages,
  updateScheduledMessage,
} from './scheduled-messages.service';

export const scheduledMessagesHandlers = {
  'get-scheduled-messages-by-user': (_p, ctx) => listScheduledMessages(ctx),
  'create-scheduled-message': (p, ctx) => createScheduledMessage(ctx, p),
  'update-scheduled-message': (p, ctx) => updateScheduledMessage(ctx, p),
} satisfies Handlers;
