import { Badge, Button, Text, Tooltip } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { SaibaMais } from '@/app/ui/HelpDialog';
import { ListTable, RowActions } from '@/app/ui/ListTable';
import { PageHeader } from '@/app/ui/PageHeader';
import { useEditDialog } from '@/app/ui/use-edit-dialog';
import { ScheduleDialog } from '@/app/widgets/schedule/ScheduleDialog';
import { useDeleteScheduledMessage, useScheduledMessages } from '@/app/widgets/schedule/scheduled-messages';
import type { ScheduledMessage } from '@/shared/contract/scheduled-messages';
import { formatDateTime, formatPhone } from '@/shared/format';
import { labels, messages } from '@/shared/messages';
import { scheduledPreview } from '@/shared/rules/scheduled-message';

const STATUS_COLORS = { scheduled: 'blue', sent: 'green', error: 'red' } as const;

function Status({ item }: { item: ScheduledMessage }) {
  const badge = (
    <Badge color={STATUS_COLORS[item.status]} variant="light" miw="max-content">
      {messages.scheduleStatusLabels[item.status]}
    </Badge>
  );
  return item.failure ? <Tooltip label={item.failure}>{badge}</Tooltip> : badge;
}

/** /agendamento (spec 2 §2.4): individually scheduled messages; edit and delete while still scheduled. */
export function ScheduledMessagesPage() {
  const list = useScheduledMessages();
  const dialog = useEditDialog<ScheduledMessage>();
  const remove = useDeleteScheduledMessage();

  return (
    <>
      <PageHeader title={labels.common.schedule}>
        <SaibaMais topic="agendamento" />
        <Button leftSection={<IconPlus size={18} aria-hidden />} onClick={dialog.openNew}>
          {messages.scheduleMessage}
        </Button>
      </PageHeader>
      <ListTable
        label={labels.common.scheduledMessages}
        query={list}
        rowKey={(m) => m._id}
        empty={labels.scheduledMessages.noMessageScheduled}
        columns={[
          {
            label: labels.scheduledMessages.dateAndTime,
            primary: true,
            render: (m) => formatDateTime(m.scheduledTo),
          },
          { label: labels.common.phone, render: (m) => formatPhone(m.to), wrap: 'never' },
          {
            label: labels.common.message,
            render: (m) => (
              <Text span fz="sm">
                {scheduledPreview(m)}
              </Text>
            ),
            // The column that gives way: a long link breaks rather than widen the table.
            wrap: 'anywhere',
          },
          { label: labels.common.status, render: (m) => <Status item={m} />, wrap: 'never' },
        ]}
        actions={(m) =>
          m.status === 'scheduled' ? (
            <RowActions
              onEdit={() => dialog.openEdit(m)}
              onDelete={() => remove.mutate(m)}
              confirmDelete={{
                title: labels.scheduledMessages.deleteSchedule,
                message: labels.scheduledMessages.confirmDeleteMessageScheduledFor(
                  formatDateTime(m.scheduledTo),
                ),
              }}
            />
          ) : null
        }
      />
      <ScheduleDialog key={dialog.key} opened={dialog.opened} onClose={dialog.close} item={dialog.item} />
    </>
  );
}
