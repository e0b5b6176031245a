import type { AccessArea } from '@/shared/constants';

/** The access areas of spec 1 §6 as the team dialog names them. */
export const AREA_LABELS: Record<AccessArea, string> = {
  dashboard: 'Dashboard',
  contacts: 'Contatos',
  campaigns: 'Campanhas',
  chips: 'Chips',
  chatbots: 'Chatbots',
  flows: 'Fluxos',
  'follow-ups': 'Follow-ups automáticos',
  team: 'Minha Equipe',
  tags: 'Tags',
  departments: 'Departamentos',
  'quick-messages': 'Mensagens rápidas',
  api: 'API e webhooks',
};
