// The customers screen's calls: the page query and the mutations that refresh it.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallMutation } from '@/app/lib/mutation';
import { callQuery } from '@/app/lib/query';
import { messages } from '@/shared/messages';
import { adminMessages } from '@/shared/messages-admin';

const CUSTOMERS_KEY = ['get-customers'] as const;
const OFFICIAL_KEY = ['get-official-chips-of-account'] as const;

export const useCustomers = (query: string, page: number) =>
  useQuery({ ...callQuery('get-customers', { query, page }), placeholderData: keepPreviousData });

export const useAccountUsage = (account: string) => useQuery(callQuery('get-account-usage', { account }));

export const useOfficialChips = (account: string) =>
  useQuery(callQuery('get-official-chips-of-account', { account }));

export const useWabaPhoneNumbers = (account: string, waba: string | null) =>
  useQuery({
    ...callQuery('get-waba-phone-numbers', { account, waba: waba ?? '' }),
    enabled: Boolean(waba),
    retry: false,
  });

export const useCreateAccount = () =>
  useCallMutation('create-user', {
    successMessage: adminMessages.accountCreated,
    invalidates: [CUSTOMERS_KEY],
  });

export const useChangeCustomerPassword = () =>
  useCallMutation('change-customer-password', { successMessage: adminMessages.passwordChanged });

export const useUpdateAccount = () =>
  useCallMutation('update-account', {
    successMessage: adminMessages.accountUpdated,
    invalidates: [CUSTOMERS_KEY],
  });

export const useAddWaba = () => useCallMutation('add-account-waba', { invalidates: [OFFICIAL_KEY] });

export const useCreateOfficialChip = () =>
  useCallMutation('admin-create-chip', {
    successMessage: messages.numberCreated,
    invalidates: [OFFICIAL_KEY],
    toastError: true,
  });

export const useRegisterPhoneNumber = () =>
  useCallMutation('admin-register-phone-number', {
    successMessage: messages.numberUpdated,
    invalidates: [OFFICIAL_KEY],
  });

export const useSetChipStatus = () =>
  useCallMutation('admin-set-chip-status', {
    successMessage: messages.numberUpdated,
    invalidates: [OFFICIAL_KEY],
    toastError: true,
  });

export const useDeleteOfficialChip = () =>
  useCallMutation('admin-delete-chip', {
    successMessage: messages.numberDeleted,
    invalidates: [OFFICIAL_KEY],
    toastError: true,
  });
