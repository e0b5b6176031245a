// The chatbots' calls (spec 3 §2.7, §7): load one, its models, save, create from a model, delete, test. Each one
// that changes the list refreshes the shared chatbots query, so the chips, transfer and flow pickers follow.
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/app/lib/api';
import { chatbotsQuery, chipsQuery } from '@/app/lib/lists';
import { useCallMutation } from '@/app/lib/mutation';
import type { ChatbotDraft, ChatbotInstructions, ChatbotSummary } from '@/shared/contract/chatbots';
import { messages } from '@/shared/messages';

export const chatbotQuery = (id: string) =>
  queryOptions({
    queryKey: ['get-chatbot', { _id: id }] as const,
    queryFn: () => api('get-chatbot', { _id: id }),
    // The editor always starts from the saved version.
    staleTime: 0,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

export const chatbotModelsQuery = queryOptions({
  queryKey: ['get-chatbot-models', {}] as const,
  queryFn: () => api('get-chatbot-models', {}),
  staleTime: 10 * 60_000,
});

/** Salvar: a new chatbot (no id) or a change; the form shows a refusal on its field. */
export const useSaveChatbot = () =>
  useCallMutation(
    (vars: { _id?: string; draft: ChatbotDraft }) =>
      api('create-or-update-chatbot', {
        ...vars.draft,
        flow: vars.draft.redirect === 'flow_chatbot' ? vars.draft.flow : null,
        ...(vars._id && { _id: vars._id }),
      }),
    {
      successMessage: messages.chatbotSaved,
      invalidates: [chatbotsQuery.queryKey],
    },
  );

/** Criar a partir de modelo: the server builds the chatbot from the model and the values typed. */
export const useCreateFromModel = () =>
  useCallMutation(
    (vars: {
      model: string;
      name: string;
      values: Record<string, string>;
      /** The model's instructions (the same shared rule builds them) with the persona the user chose. */
      instructions: ChatbotInstructions;
    }) =>
      api('create-or-update-chatbot', {
        ...(vars.name.trim() && { name: vars.name.trim() }),
        from_model: { model: vars.model, values: vars.values },
        instructionsObject: vars.instructions,
      }),
    { successMessage: messages.chatbotSaved, invalidates: [chatbotsQuery.queryKey] },
  );

/** The soft delete: the same call with `filed: true`. */
export const useDeleteChatbot = () =>
  useCallMutation(
    (chatbot: ChatbotSummary) => api('create-or-update-chatbot', { _id: chatbot._id, filed: true }),
    {
      successMessage: messages.chatbotDeleted,
      // Its chips go to human service (the server's part): their rows change too.
      invalidates: [chatbotsQuery.queryKey, chipsQuery.queryKey],
      toastError: true,
    },
  );
