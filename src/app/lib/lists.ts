// The account's shared lists, each declared once: every screen, dialog and the shell read the same query (key
// [call, {}], see callQuery), so one change or one socket event refreshes them all. Features that list
// something only for themselves keep their query next to their screen.
import { type QueryClient, useQuery } from '@tanstack/react-query';
import type { Chip } from '@/shared/contract';
import { callQuery } from './query';

export const departmentsQuery = callQuery('get-departments-by-user');
export const tagsQuery = callQuery('get-tags-by-user');
/** The chips: the top bar and drawer poll it (lib/chips.ts), the socket's events update it. */
export const chipsQuery = callQuery('get-chip-numbers-by-user');
export const quickMessagesQuery = callQuery('get-quick-messages-by-user');
export const teamUsersQuery = callQuery('get-team-users');
/** The flows (summaries): the list at /flows and the chips, transfer and scheduling pickers. */
export const flowsQuery = callQuery('get-flows-by-user');
/** The AI chatbots (summaries): the list at /chatbots, the chips, transfer and flow-redirect pickers, the pane. */
export const chatbotsQuery = callQuery('get-chatbots-by-user');
/** The live audiences: the list at /audiencias and the campaign dialog's audience picker. */
export const audiencesQuery = callQuery('get-audiences-by-user');

export const useDepartments = () => useQuery(departmentsQuery);
export const useTags = () => useQuery(tagsQuery);
export const useChips = () => useQuery(chipsQuery);
export const useQuickMessages = () => useQuery(quickMessagesQuery);
export const useTeamUsers = () => useQuery(teamUsersQuery);
export const useFlows = () => useQuery(flowsQuery);
export const useChatbots = () => useQuery(chatbotsQuery);
export const useAudiences = () => useQuery(audiencesQuery);

/** Named items (flows, chatbots) as a Select's options, by name. */
const byNameOptions = (items: readonly { _id: string; name: string }[] | undefined) =>
  (items ?? [])
    .map((f) => ({ value: f._id, label: f.name }))
    .sort((a, b) => a.label.localeCompare(b.label, 'pt-BR', { sensitivity: 'base', numeric: true }));

/** The flows as a Select's options, by name. */
export const flowOptions = byNameOptions;
/** The AI chatbots as a Select's options, by name. */
export const chatbotOptions = byNameOptions;
/** The audiences as a Select's options, by name. */
export const audienceOptions = byNameOptions;

/** A call's answer replaces the chip's row at once (the socket may bring the same news a moment later). */
export function putChip(client: QueryClient, chip: Chip) {
  client.setQueryData<Chip[]>(chipsQuery.queryKey, (chips) =>
    chips?.map((c) => (c._id === chip._id ? chip : c)),
  );
}
