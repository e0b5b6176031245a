// /chatbots (spec 3 §2.7): the account's AI chatbots. Novo chatbot opens an empty editor, Criar a partir de
// modelo asks a model's fields first; each row edits or deletes (soft) its chatbot.
import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { IconPlus, IconTemplate } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useChatbots } from '@/app/lib/lists';
import { SaibaMais } from '@/app/ui/HelpDialog';
import { byText, ListTable, RowActions } from '@/app/ui/ListTable';
import { PageHeader } from '@/app/ui/PageHeader';
import type { ChatbotSummary } from '@/shared/contract/chatbots';
import { formatDateTime } from '@/shared/format';
import { labels, messages } from '@/shared/messages';
import { chatbotLabels } from '@/shared/messages-editors';
import { useDeleteChatbot } from './chatbot-actions';
import { NEW_CHATBOT } from './chatbot-editor';
import { ModelDialog } from './ModelDialog';

const L = chatbotLabels;
const byName = (a: ChatbotSummary, b: ChatbotSummary) => byText(a.name, b.name);

/** The editor's path: a plain href, so this list does not load the editor's route. */
export const editorPath = (id: string) => `/chatbots/${encodeURIComponent(id)}`;

const personaOf = (c: ChatbotSummary) => {
  const gender =
    c.persona_gender === 'feminina' || c.persona_gender === 'masculina' ? c.persona_gender : null;
  return gender ? `${c.persona_name} (${L.generos[gender]})` : c.persona_name;
};

export function ChatbotsPage() {
  const chatbots = useChatbots();
  const navigate = useNavigate();
  const remove = useDeleteChatbot();
  const [fromModel, setFromModel] = useState(false);
  const edit = (id: string) => void navigate({ href: editorPath(id) });

  return (
    <>
      <PageHeader title={labels.chatbots.chatbots}>
        <SaibaMais topic="chatbots" />
        <Button
          variant="light"
          leftSection={<IconTemplate size={18} aria-hidden />}
          onClick={() => setFromModel(true)}
        >
          {L.createFromModel}
        </Button>
        <Button leftSection={<IconPlus size={18} aria-hidden />} onClick={() => edit(NEW_CHATBOT)}>
          {L.newChatbot}
        </Button>
      </PageHeader>
      {chatbots.isError && !chatbots.data ? (
        <Alert color="red" role="alert">
          <Stack gap="xs" align="flex-start">
            <Text fz="sm">{messages.chatbotsLoadFailed}</Text>
            <Button size="xs" variant="light" color="red" onClick={() => void chatbots.refetch()}>
              {labels.common.tryAgain}
            </Button>
          </Stack>
        </Alert>
      ) : (
        <ListTable
          label={labels.chatbots.chatbots}
          query={chatbots}
          rowKey={(c) => c._id}
          sort={byName}
          empty={messages.noChatbots}
          columns={[
            {
              label: labels.common.name,
              primary: true,
              render: (c) => (
                <Anchor
                  href={editorPath(c._id)}
                  inherit
                  onClick={(e) => {
                    // A new tab (ctrl/cmd/middle click) is the browser's; a plain click stays in the app.
                    if (e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || e.button !== 0) return;
                    e.preventDefault();
                    edit(c._id);
                  }}
                >
                  {c.name}
                </Anchor>
              ),
            },
            { label: L.persona, render: personaOf },
            { label: labels.flows.createdAt, render: (c) => formatDateTime(c.created), wrap: 'never' },
            { label: L.updatedAt, render: (c) => formatDateTime(c.updated), wrap: 'never' },
          ]}
          actions={(c) => (
            <RowActions
              onEdit={() => edit(c._id)}
              onDelete={() => remove.mutate(c)}
              confirmDelete={{ title: L.deleteChatbot, message: L.confirmDeleteChatbot(c.name) }}
            />
          )}
        />
      )}
      <ModelDialog opened={fromModel} onClose={() => setFromModel(false)} onCreated={(c) => edit(c._id)} />
    </>
  );
}
