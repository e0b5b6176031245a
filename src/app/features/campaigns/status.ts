import type { CampaignStatus } from '@/shared/contract/campaigns';

/** The status badge's colour. */
export const STATUS_COLORS: Record<CampaignStatus, string> = {
  scheduled: 'blue',
  started: 'yellow',
  finished: 'green',
  canceled: 'gray',
  error: 'red',
};
