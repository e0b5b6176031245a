import { useQuery } from '@tanstack/react-query';
import { callQuery } from '@/app/lib/query';

// The departments an agent can be given, and the names of the departments column.
export const useDepartments = () => useQuery(callQuery('get-departments-by-user'));
