// Deployment settings from the server (plan-management link, help videos).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callQuery } from './query';

export const appConfigQuery = queryOptions({
  ...callQuery('get-app-config'),
  staleTime: 60 * 60 * 1000,
  meta: { persist: true },
});

export const useAppConfig = () => useQuery(appConfigQuery).data;
