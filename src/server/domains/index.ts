// Every domain's handlers, bound to the contract registry by http/api.ts.
import type { Handlers } from '../http/context';
import { accountsHandlers } from './accounts/accounts.routes';
import { adminHandlers } from './admin/admin.routes';
import { aiHandlers } from './ai/ai.routes';
import { appConfigHandlers } from './app-config/app-config.routes';
import { audiencesHandlers } from './audiences/audiences.routes';
import { authHandlers } from './auth/auth.routes';
import { billingHandlers } from './billing/billing.routes';
import { campaignsHandlers } from './campaigns/campaigns.routes';
import { chatbotsHandlers } from './chatbots/chatbots.routes';
import { chipsHandlers } from './chips/chips.routes';
import { contactsHandlers } from './contacts/contacts.routes';
import { conversationsHandlers } from './conversations/conversations.routes';
import { newConversationHandlers } from './conversations/new-conversation.routes';
import { dashboardHandlers } from './dashboard/dashboard.routes';
import { departmentsHandlers } from './departments/departments.routes';
import { flowsHandlers } from './flows/flows.routes';
import { followUpsHandlers } from './follow-ups/follow-ups.routes';
import { mediaHandlers } from './media/media.routes';
import { pushHandlers } from './push/push.routes';
import { quickMessagesHandlers } from './quick-messages/quick-messages.routes';
import { scheduledMessagesHandlers } from './scheduled-messages/scheduled-messages.routes';
import { tagsHandlers } from './tags/tags.routes';
import { teamHandlers } from './team/team.routes';
import { templatesHandlers } from './templates/templates.routes';
import { usersHandlers } from './users/users.routes';
import { webhooksHandlers } from './webhooks/webhooks.routes';

export const handlers: Handlers = {
  ...authHandlers,
  ...usersHandlers,
  ...accountsHandlers,
  ...chipsHandlers,
  ...tagsHandlers,
  ...departmentsHandlers,
  ...quickMessagesHandlers,
  ...teamHandlers,
  ...conversationsHandlers,
  ...contactsHandlers,
  ...appConfigHandlers,
  ...mediaHandlers,
  ...scheduledMessagesHandlers,
  ...newConversationHandlers,
  ...aiHandlers,
  ...pushHandlers,
  ...flowsHandlers,
  ...chatbotsHandlers,
  ...audiencesHandlers,
  ...campaignsHandlers,
  ...templatesHandlers,
  ...followUpsHandlers,
  ...webhooksHandlers,
  ...dashboardHandlers,
  ...billingHandlers,
  ...adminHandlers,
};
