import { useQuery } from '@tanstack/react-query';
import { callQuery } from '@/app/lib/query';

export const teamUsersQuery = callQuery('get-team-users');

export const useTeamUsers = () => useQuery(teamUsersQuery);
