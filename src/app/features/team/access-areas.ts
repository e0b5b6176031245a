import type { AccessArea } from '@/shared/constants';
import { labels } from '@/shared/messages';

/** The access areas of spec 1 §6 as the team dialog names them. */
export const AREA_LABELS: Record<AccessArea, string> = {
  dashboard: labels.common.dashboard,
  contacts: labels.common.contacts,
  campaigns: labels.common.campaigns,
  chips: labels.common.chips,
  chatbots: labels.chatbots.chatbots,
  flows: labels.flows.flows,
  'follow-ups': labels.team.automaticFollowUps,
  team: labels.common.myTeam,
  tags: labels.common.tags,
  departments: labels.common.departments,
  'quick-messages': labels.common.quickMessages,
  api: 'API e webhooks',
};
