import type { Handlers } from '../../http/context';
import {
  createScheduledMessage,
  listScheduledMessages,
  updateScheduledMessage,
} from './scheduled-messages.service';

export const scheduledMessagesHandlers = {
  'get-scheduled-messages-by-user': (_p, ctx) => listScheduledMessages(ctx.services, ctx.actor),
  'create-scheduled-message': (p, ctx) => createScheduledMessage(ctx.services, ctx.actor, p),
  'update-scheduled-message': (p, ctx) => updateScheduledMessage(ctx.services, ctx.actor, p),
} satisfies Handlers;
