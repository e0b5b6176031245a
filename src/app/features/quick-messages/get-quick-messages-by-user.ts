import { useQuery } from '@tanstack/react-query';
import { callQuery } from '@/app/lib/query';

export const quickMessagesQuery = callQuery('get-quick-messages-by-user');

export const useQuickMessages = () => useQuery(quickMessagesQuery);
