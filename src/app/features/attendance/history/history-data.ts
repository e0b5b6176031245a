// The finished-conversations list (spec 2 §2.2): its filter, its paged query (PAGE_SIZE a page, as ListTable
// counts them) and the transfer that resumes one.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { callQuery } from '@/app/lib/query';
import { PAGE_SIZE } from '@/shared/constants';
import type { HistoryConversation } from '@/shared/contract/new-conversation';

export type HistoryType = 'chatbot' | 'human';
export interface HistoryFilter {
  types: HistoryType[];
  departments: string[];
  tags: string[];
  text: string;
}

export const EMPTY_HISTORY_FILTER: HistoryFilter = {
  types: ['chatbot', 'human'],
  departments: [],
  tags: [],
  text: '',
};
/** Every page of the history, whatever the filter (the key convention: [call, payload]). */
export const HISTORY_KEY = ['get-conversations-by-user'] as const;

export const useHistory = (filter: HistoryFilter, page: number) =>
  useQuery({
    ...callQuery('get-conversations-by-user', { filter, page, itemsPerPage: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });

/** Canal: the channel's name and its chatbot's; 'Canal apagado' / 'Chatbot apagado' when removed. */
export function channelLabel(c: HistoryConversation, texts: { channel: string; chatbot: string }) {
  const parts = [c.chip_name ?? texts.channel];
  if (c.chatbot_name) parts.push(c.chatbot_name);
  else if (c.chatbot_deleted) parts.push(texts.chatbot);
  return parts.join(' · ');
}
