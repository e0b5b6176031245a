import { Avatar, Badge, Group, Text, UnstyledButton } from '@mantine/core';
import {
  IconAlertCircle,
  IconClock,
  IconClockOff,
  IconHierarchy2,
  IconRobot,
  IconUserCheck,
} from '@tabler/icons-react';
import { memo } from 'react';
import { displayName, initialsOf } from '@/app/ui/contact-name';
import { TagChips } from '@/app/ui/TagBadges';
import type { Tag } from '@/shared/contract/configuration';
import type { Conversation } from '@/shared/contract/conversations';
import { labels, messages } from '@/shared/messages';
import { replyWindowLeft } from '../contact-view';
import { activityOf } from '../data/conversations';
import { tickOf } from '../pane/pane-view';
import { Ticks } from '../pane/Ticks';
import { formatListTime, lastMessageFailed, previewOf, visibleTags } from './list-view';
import { useMinuteTick } from './minute-ticker';

/** Every item has this height (spec 2 §2.3): the virtual list places them by it. */
/** Element Timing: bench:offline reads when a row's name is first painted (the offline picture's or the app's). */
const PAINT_MARK: Record<string, string> = { elementtiming: 'conversation-name' };

export const ITEM_HEIGHT = 145;

/** The reply window's countdown: hours and minutes, then the 'off' icon once it has closed. */
function ReplyWindow({ deadline }: { deadline: string }) {
  const now = useMinuteTick();
  const left = replyWindowLeft(deadline, now);
  if (!left)
    return (
      <IconClockOff
        size={16}
        color="var(--mantine-color-red-7)"
        role="img"
        aria-label={messages.listReplyWindowClosed}
        style={{ flex: 'none' }}
      />
    );
  return (
    <Text
      span
      size="xs"
      c="dimmed"
      title={messages.listReplyWindowLeft(left)}
      style={{ display: 'inline-flex', alignItems: 'center', gap: 3, flex: 'none', whiteSpace: 'nowrap' }}
    >
      <IconClock size={14} aria-hidden />
      {left}
    </Text>
  );
}

/** A flow answers it (chatbot type 'flow_chatbot'), not a person. */
/** Who answers it when no person does: a flow, an AI chatbot, or nobody (a person serves it, or it is over). */
const automaticServer = (c: Conversation) =>
  c.is_manual || c.finished ? null : c.chatbot_type === 'flow_chatbot' ? 'flow' : c.chatbot ? 'ai' : null;

function FlowMark({ kind }: { kind: 'flow' | 'ai' }) {
  const flow = kind === 'flow';
  const Icon = flow ? IconHierarchy2 : IconRobot;
  const label = flow ? labels.flowMenus.servedByFlow : labels.chatbots.servedByChatbot;
  return (
    <Badge
      size="xs"
      variant="light"
      color={flow ? 'teal' : 'orange'}
      leftSection={<Icon size={11} aria-hidden />}
      aria-label={label}
      title={label}
      style={{ flex: 'none', textTransform: 'none' }}
    >
      {flow ? labels.common.flow : labels.common.chatbot}
    </Badge>
  );
}

/** Who holds it under equal distribution (spec 3 §9). */
function Holder({ name }: { name: string }) {
  const label = labels.departments.assignedTo(name);
  return (
    <Text
      span
      size="xs"
      c="dimmed"
      title={label}
      aria-label={label}
      truncate="end"
      // The holder's name wins the room over the chip's, which is cut first.
      style={{ flex: '0 0 auto', maxWidth: '55%' }}
    >
      <IconUserCheck size={13} aria-hidden style={{ verticalAlign: '-2px', marginRight: 3 }} />
      {name}
    </Text>
  );
}

interface Props {
  conversation: Conversation;
  chipName: string;
  tags: ReadonlyMap<string, Tag>;
  selected: boolean;
  onSelect(id: string): void;
}

/** One conversation of the list: who, on which chip, the last message and its time, tags, waiting, window. */
export const ConversationItem = memo(function ConversationItem({
  conversation: c,
  chipName,
  tags,
  selected,
  onSelect,
}: Props) {
  const name = displayName(c.contact);
  const served = automaticServer(c);
  const known = c.contact.tags.flatMap((id) => tags.get(id) ?? []);
  const { shown, more } = visibleTags(known);
  // The business's own last message (a person's, a chatbot's or a flow's): 'Você:' and its ticks; a failed
  // one has its own mark.
  const last = c.last_message;
  const own = last && last.origin !== 'customer' && !last.deleted && !lastMessageFailed(c) ? last : null;
  return (
    <UnstyledButton
      onClick={() => onSelect(c._id)}
      aria-current={selected || undefined}
      h={ITEM_HEIGHT}
      w="100%"
      px="sm"
      py={10}
      style={{
        display: 'flex',
        gap: 12,
        alignItems: 'flex-start',
        borderBottom: '1px solid var(--mantine-color-default-border)',
        background: selected ? 'var(--mantine-primary-color-light)' : undefined,
      }}
    >
      <Avatar
        src={c.contact.profile_picture}
        name={initialsOf(name)}
        color="initials"
        size={44}
        radius="xl"
        alt=""
      />
      <div style={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', gap: 5 }}>
        <Group justify="space-between" wrap="nowrap" gap={6}>
          <Text fw={c.waiting_response ? 700 : 600} truncate="end" {...PAINT_MARK}>
            {name}
          </Text>
          <Text span size="xs" c="dimmed" style={{ flex: 'none' }}>
            {formatListTime(activityOf(c))}
          </Text>
        </Group>
        <Group justify="space-between" wrap="nowrap" gap={6} mih={18}>
          <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
            <Text size="xs" c="dimmed" truncate="end">
              {chipName}
            </Text>
            {served && <FlowMark kind={served} />}
            {c.assigned_user_name && <Holder name={c.assigned_user_name} />}
          </Group>
          {c.context_window && <ReplyWindow deadline={c.context_window} />}
        </Group>
        <Text size="sm" c={c.last_message ? undefined : 'dimmed'} truncate="end">
          {lastMessageFailed(c) && (
            <IconAlertCircle
              size={15}
              color="var(--mantine-color-red-7)"
              role="img"
              aria-label={messages.listLastMessageFailed}
              style={{ verticalAlign: '-2px', marginRight: 4 }}
            >
              <title>{c.last_message?.failure ?? messages.listLastMessageFailed}</title>
            </IconAlertCircle>
          )}
          {own && (
            <span style={{ marginRight: 4, color: 'var(--mantine-color-dimmed)' }}>
              <span style={{ display: 'inline-block', verticalAlign: '-3px', marginRight: 2 }}>
                <Ticks tick={tickOf(own)} />
              </span>
              {messages.listYou}
            </span>
          )}
          {previewOf(c.last_message)}
        </Text>
        {/* Tags and the waiting badge on rows of their own: sharing one, the tags shrank to dots. */}
        <TagChips shown={shown} more={more} />
        {c.waiting_response && (
          <Badge color="orange" size="sm" style={{ flex: 'none', alignSelf: 'flex-start' }}>
            {messages.listWaitingResponse}
          </Badge>
        )}
      </div>
    </UnstyledButton>
  );
});
