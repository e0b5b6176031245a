import { ActionIcon, Avatar, Badge, Group, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { memo } from 'react';
import { chatbotsQuery, flowsQuery, useChips, useDepartments } from '@/app/lib/lists';
import { displayName, initialsOf } from '@/app/ui/contact-name';
import { useIsMobile } from '@/app/ui/use-is-mobile';
import type { Conversation } from '@/shared/contract/conversations';
import { formatPhone } from '@/shared/format';
import { labels, messages } from '@/shared/messages';
import { ConversationMenu } from '../actions/ConversationMenu';
import classes from './pane.module.css';
import { ReplyWindow } from './ReplyWindow';

interface Props {
  conversation: Conversation;
  onClose(): void;
}

const withName = (kind: string, name: string | null) => (name ? `${kind}: ${name}` : kind);

/** The name of the AI chatbot or flow serving a conversation not served by a person (null if unknown). */
function useServingName(conversation: Conversation): string | null {
  const automatic = !conversation.is_manual && conversation.finished === null;
  const flow = conversation.chatbot_type === 'flow_chatbot';
  const chatbots = useQuery({ ...chatbotsQuery, enabled: automatic && !flow && !!conversation.chatbot });
  const flows = useQuery({ ...flowsQuery, enabled: automatic && flow && !!conversation.flow });
  if (!automatic) return null;
  if (flow) return flows.data?.find((f) => f._id === conversation.flow)?.name ?? null;
  return chatbots.data?.find((c) => c._id === conversation.chatbot)?.name ?? null;
}

/** The pane's header: who, on which chip and department, the reply window, and the conversation menu. */
export const PaneHeader = memo(function PaneHeader({ conversation, onClose }: Props) {
  const mobile = useIsMobile();
  const chips = useChips();
  const departments = useDepartments();
  const chip = chips.data?.find((c) => c._id === conversation.chip);
  const department = departments.data?.find((d) => d._id === conversation.department);
  const name = displayName(conversation.contact);
  const finished = conversation.finished !== null;
  const phone = formatPhone(conversation.contact.phone);
  const serving = useServingName(conversation);

  return (
    <header className={classes.header}>
      {mobile && (
        <ActionIcon variant="subtle" color="gray" size="lg" aria-label={messages.back} onClick={onClose}>
          <IconArrowLeft size={22} aria-hidden />
        </ActionIcon>
      )}
      <Avatar
        src={conversation.contact.profile_picture}
        name={initialsOf(name)}
        color="initials"
        size={mobile ? 38 : 42}
        radius="xl"
        alt=""
      />
      <div className={classes.headerText}>
        <Group gap={6} wrap="nowrap">
          <Title order={2} size="h5" lineClamp={1} style={{ minWidth: 0 }}>
            {name}
          </Title>
          {finished && (
            <Badge size="sm" color="gray" variant="filled" style={{ flexShrink: 0 }}>
              {messages.paneFinished}
            </Badge>
          )}
        </Group>
        <Group gap={8} wrap="nowrap">
          {phone !== name && (
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {phone}
            </Text>
          )}
          {conversation.context_window && !finished && <ReplyWindow deadline={conversation.context_window} />}
          {conversation.assigned_user_name && (
            <Text size="xs" c="dimmed" truncate="end" style={{ minWidth: 0 }}>
              {labels.departments.assignedTo(conversation.assigned_user_name)}
            </Text>
          )}
        </Group>
        <Group gap={4} mt={2} wrap="wrap">
          {chip && (
            <Badge
              size="xs"
              variant="light"
              color="teal"
              title={messages.chip}
              style={{ textTransform: 'none' }}
            >
              {chip.name}
            </Badge>
          )}
          <Badge
            size="xs"
            variant="light"
            color="blue"
            title={labels.common.department}
            style={{ textTransform: 'none' }}
          >
            {department?.name ?? (conversation.department ? '…' : messages.noDepartment)}
          </Badge>
          <Badge
            size="xs"
            variant="light"
            color={conversation.is_manual ? 'grape' : 'orange'}
            style={{ textTransform: 'none' }}
          >
            {conversation.is_manual
              ? messages.human
              : conversation.chatbot_type === 'flow_chatbot'
                ? withName(labels.common.flow, serving)
                : withName(labels.common.chatbot, serving)}
          </Badge>
        </Group>
      </div>
      <ConversationMenu conversation={conversation} onClose={onClose} />
    </header>
  );
});
