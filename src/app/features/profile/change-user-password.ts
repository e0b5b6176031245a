import { useCallMutation } from '@/app/lib/mutation';

export const useChangeUserPassword = () => useCallMutation('change-user-password');
