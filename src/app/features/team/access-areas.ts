import type { AccessArea } from '@/shared/constants';
import { labels } from '@/shared/messages';

/** The access areas of spec 1 §6 as the team dialog names them. */
export const AREA_LABELS: Record<AccessArea, string> = {
  dashboard: labels.common.dashboard,
  contacts: labels.common.contatos,
  campaigns: labels.common.campanhas,
  chips: labels.common.chips,
  chatbots: labels.chatbots.chatbots,
  flows: labels.flows.fluxos,
  'follow-ups': labels.team.followUpsAutomaticos,
  team: labels.common.minhaEquipe,
  tags: labels.common.tags,
  departments: labels.common.departamentos,
  'quick-messages': labels.common.mensagensRapidas,
  api: 'API e webhooks',
};
