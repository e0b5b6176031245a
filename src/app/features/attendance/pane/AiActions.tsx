// AI summary and AI follow-up from the command bar (spec 2 §2.3, §5): the summary arrives as a 'summary'
// message (the socket brings it to every screen); the follow-up text goes into the box to edit and send.
// The server lets one of each run per conversation, so a second click, here or in another tab, is refused.
import { ActionIcon, Loader, Menu } from '@mantine/core';
import { IconMessageChatbot, IconNotes, IconSparkles } from '@tabler/icons-react';
import { useState } from 'react';
import { api } from '@/app/lib/api';
import { notifyError, notifySuccess } from '@/app/lib/notify';
import { messages } from '@/shared/messages';

interface Props {
  conversationId: string;
  onFollowUp(text: string): void;
}

export function AiActions({ conversationId, onFollowUp }: Props) {
  const [running, setRunning] = useState<'summary' | 'follow_up' | null>(null);

  async function summarize() {
    setRunning('summary');
    try {
      const { balance } = await api('summarize-messages', { conversation_id: conversationId });
      notifySuccess(messages.aiSummarized(balance));
    } catch (err) {
      notifyError(err);
    } finally {
      setRunning(null);
    }
  }

  async function followUp() {
    setRunning('follow_up');
    try {
      const answer = await api('create-ai-follow-up', { conversation_id: conversationId });
      onFollowUp(answer.follow_up);
      notifySuccess(messages.aiFollowUpCreated(answer.balance));
    } catch (err) {
      notifyError(err);
    } finally {
      setRunning(null);
    }
  }

  return (
    <Menu position="top-start" shadow="md" width={220}>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" size={40} radius="xl" aria-label={messages.aiMenu}>
          {running ? <Loader size={18} /> : <IconSparkles size={22} aria-hidden />}
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconNotes size={18} aria-hidden />} onClick={() => void summarize()}>
          {messages.aiSummarize}
        </Menu.Item>
        <Menu.Item leftSection={<IconMessageChatbot size={18} aria-hidden />} onClick={() => void followUp()}>
          {messages.aiFollowUp}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
