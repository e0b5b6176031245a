// /conversas (spec 2 §2.2): conversations with their channel, tags, department, start and end, 10 a page;
// the filter sheet; 'Ver conversa' (read-only) and 'Enviar para atendimento humano' (transfer and resume).

import { ActionIcon, Alert, Avatar, Button, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconEye, IconFilter, IconHeadset } from '@tabler/icons-react';
import { useState } from 'react';
import { useDepartments } from '@/app/lib/lists';
import { useCurrentUser } from '@/app/lib/user';
import { displayName, initialsOf } from '@/app/ui/contact-name';
import { SaibaMais } from '@/app/ui/HelpDialog';
import { type ListColumn, ListTable } from '@/app/ui/ListTable';
import { PageHeader } from '@/app/ui/PageHeader';
import { TagBadges } from '@/app/ui/TagBadges';
import { useIsMobile } from '@/app/ui/use-is-mobile';
import type { HistoryConversation } from '@/shared/contract/new-conversation';
import { formatDateTime, formatPhone } from '@/shared/format';
import { labels, messages } from '@/shared/messages';
import { ConversationViewDialog } from './ConversationViewDialog';
import { HistoryFilterSheet } from './HistoryFilterSheet';
import { channelLabel, EMPTY_HISTORY_FILTER, type HistoryFilter, useHistory } from './history-data';
import { SendToHumanDialog } from './SendToHumanDialog';

const isFiltered = (f: HistoryFilter) => JSON.stringify(f) !== JSON.stringify(EMPTY_HISTORY_FILTER);

export function HistoryPage() {
  const user = useCurrentUser();
  const mobile = useIsMobile();
  const [filter, setFilter] = useState<HistoryFilter>(EMPTY_HISTORY_FILTER);
  const [page, setPage] = useState(1);
  const [sheet, setSheet] = useState(false);
  const [viewing, setViewing] = useState<HistoryConversation | null>(null);
  const [sending, setSending] = useState<HistoryConversation | null>(null);
  const history = useHistory(filter, page);
  const departments = useDepartments();
  const departmentName = (id: string | null) =>
    (id && departments.data?.find((d) => d._id === id)?.name) || '—';
  const channelTexts = { channel: messages.historyChannelDeleted, chatbot: messages.historyChatbotDeleted };

  const total = history.data?.total ?? 0;

  // Labelled buttons on phone cards, icon buttons with a tooltip in the table.
  const actions = (c: HistoryConversation) =>
    mobile ? (
      <>
        <Button size="xs" variant="light" onClick={() => setSending(c)}>
          {messages.historySendToHuman}
        </Button>
        <Button size="xs" variant="light" onClick={() => setViewing(c)}>
          {messages.historyViewConversation}
        </Button>
      </>
    ) : (
      <>
        <Tooltip label={messages.historySendToHuman} withArrow>
          <ActionIcon variant="subtle" aria-label={messages.historySendToHuman} onClick={() => setSending(c)}>
            <IconHeadset size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
        <Tooltip label={messages.historyViewConversation} withArrow>
          <ActionIcon
            variant="subtle"
            aria-label={messages.historyViewConversation}
            onClick={() => setViewing(c)}
          >
            <IconEye size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
      </>
    );
  const columns: ListColumn<HistoryConversation>[] = [
    { label: labels.common.name, render: (c) => displayName(c.contact), primary: true },
    { label: labels.common.phone, render: (c) => formatPhone(c.contact.phone), wrap: 'never' },
    {
      label: labels.history.channel,
      // The chip and its chatbot: whole on a phone's card; in the table on one line, a long one ending with
      // an ellipsis (the whole text in the title).
      render: (c) => (
        <Text
          span
          fz="sm"
          truncate={mobile ? undefined : 'end'}
          maw={mobile ? undefined : 120}
          display="block"
          title={channelLabel(c, channelTexts)}
        >
          {channelLabel(c, channelTexts)}
        </Text>
      ),
      wrap: 'never',
    },
    { label: labels.common.tags, render: (c) => <TagBadges ids={c.contact.tags} max={3} />, wrap: 'words' },
    { label: labels.common.department, render: (c) => departmentName(c.department), wrap: 'words' },
    { label: labels.history.start, render: (c) => formatDateTime(c.created), wrap: 'words' },
    {
      label: labels.history.end,
      render: (c) => (c.finished ? formatDateTime(c.finished) : messages.historyOngoing),
      wrap: 'words',
    },
  ];
  const avatar = (c: HistoryConversation) => (
    <Avatar
      src={c.contact.profile_picture}
      name={initialsOf(displayName(c.contact))}
      color="initials"
      radius="xl"
      alt=""
    />
  );

  return (
    <>
      <PageHeader title={labels.common.conversations}>
        <SaibaMais topic="conversas" />
        <Button
          variant="light"
          leftSection={<IconFilter size={18} aria-hidden />}
          onClick={() => setSheet(true)}
        >
          {labels.history.filter}
        </Button>
      </PageHeader>
      <Stack gap="md">
        {isFiltered(filter) && (
          <Alert color="yellow" variant="light" py={6}>
            <Group justify="space-between">
              <Text fz="sm">{messages.listFiltersActive}</Text>
              <Button
                size="xs"
                variant="subtle"
                onClick={() => {
                  setFilter(EMPTY_HISTORY_FILTER);
                  setPage(1);
                }}
              >
                {messages.listClearFilters}
              </Button>
            </Group>
          </Alert>
        )}
        <Text fz="sm" c="dimmed">
          {total === 1 ? labels.history.oneConversation : labels.history.nConversations(total)}
        </Text>
        <ListTable
          label={labels.common.conversations}
          query={{
            data: history.data?.conversations,
            isPending: history.isPending,
            error: history.error,
            refetch: history.refetch,
          }}
          columns={columns}
          rowKey={(c) => c._id}
          avatar={avatar}
          actions={actions}
          empty={messages.listEmpty}
          paging={{ page, total, onChange: setPage }}
          minWidth={900}
        />
      </Stack>
      <HistoryFilterSheet
        opened={sheet}
        onClose={() => setSheet(false)}
        user={user}
        value={filter}
        onApply={(f) => {
          setFilter(f);
          setPage(1);
          setSheet(false);
        }}
      />
      <ConversationViewDialog conversation={viewing} onClose={() => setViewing(null)} />
      <SendToHumanDialog conversation={sending} onClose={() => setSending(null)} />
    </>
  );
}
