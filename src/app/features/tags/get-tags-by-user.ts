import { useQuery } from '@tanstack/react-query';
import { callQuery } from '@/app/lib/query';

export const tagsQuery = callQuery('get-tags-by-user');

export const useTags = () => useQuery(tagsQuery);
