// The chatbot editor (/chatbots/:chatbotId, 'novo' for a new one; spec 3 §3 Chatbot, §5, §9): the form and,
// beside it (a tab on phones), 'Testar chatbot'. Loaded on its own (router.tsx).
import { Center, Loader } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { ApiError } from '@/app/lib/api';
import { labels, messages } from '@/shared/messages';
import { newChatbotDraft } from '@/shared/rules/chatbot';
import { ChatbotEditor } from './ChatbotEditor';
import { chatbotQuery } from './chatbot-actions';
import { draftOf, NEW_CHATBOT } from './chatbot-editor';

/** Why a chatbot did not open: the server's refusal (not found, another account), else the spec's text. */
const loadFailure = (err: unknown) =>
  err instanceof ApiError && err.status !== 0 && err.status < 500 ? err.message : messages.chatbotsLoadFailed;

export function ChatbotEditorPage() {
  const { chatbotId = NEW_CHATBOT } = useParams({ strict: false }) as { chatbotId?: string };
  const navigate = useNavigate();
  const isNew = chatbotId === NEW_CHATBOT;
  // A new chatbot just saved: its editor stays (with its test chat) while the address takes its id.
  const created = useRef<string | null>(null);
  const chatbot = useQuery({ ...chatbotQuery(chatbotId), enabled: !isNew && created.current !== chatbotId });

  useEffect(() => {
    if (!chatbot.isError) return;
    const message = loadFailure(chatbot.error);
    notifications.hide(message);
    notifications.show({ id: message, color: 'red', message });
    void navigate({ href: '/chatbots', replace: true });
  }, [chatbot.isError, chatbot.error, navigate]);

  if (isNew || created.current === chatbotId)
    return (
      <ChatbotEditor
        key={NEW_CHATBOT}
        id={isNew ? null : chatbotId}
        initial={newChatbotDraft()}
        onCreated={(id) => {
          created.current = id;
        }}
      />
    );
  if (!chatbot.data)
    return (
      <Center py="xl" aria-busy="true">
        <Loader aria-label={labels.common.loading} />
      </Center>
    );
  return <ChatbotEditor key={chatbot.data._id} id={chatbot.data._id} initial={draftOf(chatbot.data)} />;
}
