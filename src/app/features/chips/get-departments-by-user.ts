import { useQuery } from '@tanstack/react-query';
import { callQuery } from '@/app/lib/query';

// The department a new conversation enters by (the dialog's select) and the names of the list's column.
export const useDepartments = () => useQuery(callQuery('get-departments-by-user'));
