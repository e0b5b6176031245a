// The scheduled-messages calls, shared by /agendamento and the Atendimento menu (both open ScheduleDialog).
import { useQuery } from '@tanstack/react-query';
import { api } from '@/app/lib/api';
import { useCallMutation } from '@/app/lib/mutation';
import { callQuery } from '@/app/lib/query';
import type { Payload } from '@/shared/contract';
import type { ScheduledMessage } from '@/shared/contract/scheduled-messages';
import { messages } from '@/shared/messages';

export const scheduledMessagesQuery = callQuery('get-scheduled-messages-by-user');
/** While an item waits to be sent, the list looks again every 5 s, so it turns to sent on its own. */
export const useScheduledMessages = () =>
  useQuery({
    ...scheduledMessagesQuery,
    refetchInterval: (q) => (q.state.data?.some((m) => m.status === 'scheduled') ? 5000 : false),
  });

/** The official numbers' usable templates (APPROVED, fixed content), by the chip's WABA. */
export const useTemplates = (waba: string | null) =>
  useQuery({
    ...callQuery('get-template-messages-by-waba-id', { waba: waba ?? '' }),
    enabled: Boolean(waba),
  });

type SavePayload = Payload<'create-scheduled-message'> & { _id: string; editing: boolean };

/** Creates (under the id named when the dialog opened) or changes an item; errors are left to the dialog. */
export const useSaveScheduledMessage = () =>
  useCallMutation(
    ({ editing, ...payload }: SavePayload) =>
      editing ? api('update-scheduled-message', payload) : api('create-scheduled-message', payload),
    { successMessage: messages.scheduleSaved, invalidates: [scheduledMessagesQuery.queryKey] },
  );

export const useDeleteScheduledMessage = () =>
  useCallMutation(
    (item: ScheduledMessage) => api('update-scheduled-message', { _id: item._id, filed: true }),
    {
      successMessage: messages.scheduleDeleted,
      invalidates: [scheduledMessagesQuery.queryKey],
      toastError: true,
    },
  );
