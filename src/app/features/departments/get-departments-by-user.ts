import { useQuery } from '@tanstack/react-query';
import { callQuery } from '@/app/lib/query';

export const departmentsQuery = callQuery('get-departments-by-user');

export const useDepartments = () => useQuery(departmentsQuery);
