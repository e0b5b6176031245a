import { Button, Code, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuickMessages } from '@/app/lib/lists';
import { SaibaMais } from '@/app/ui/HelpDialog';
import { byText, ListTable, RowActions } from '@/app/ui/ListTable';
import { PageHeader } from '@/app/ui/PageHeader';
import { useEditDialog } from '@/app/ui/use-edit-dialog';
import type { QuickMessage } from '@/shared/contract/configuration';
import { truncatePreview } from '@/shared/format';
import { labels } from '@/shared/messages';
import { useDeleteQuickMessage } from './create-or-update-quick-message';
import { QuickMessageDialog } from './QuickMessageDialog';

const byShortcut = (a: QuickMessage, b: QuickMessage) => byText(a.shortcut, b.shortcut);

/** /mensagens-rapidas (spec 1 "Quick messages"): ready answers, called by '/' and their shortcut. */
export function QuickMessagesPage() {
  const quickMessages = useQuickMessages();
  const dialog = useEditDialog<QuickMessage>();
  const remove = useDeleteQuickMessage();

  return (
    <>
      <PageHeader title={labels.common.quickMessages}>
        <SaibaMais topic="mensagens-rapidas" />
        <Button leftSection={<IconPlus size={18} aria-hidden />} onClick={dialog.openNew}>
          {labels.quickMessages.newQuickMessage}
        </Button>
      </PageHeader>
      <ListTable
        label={labels.common.quickMessages}
        query={quickMessages}
        rowKey={(q) => q._id}
        sort={byShortcut}
        empty={labels.quickMessages.noQuickMessages}
        columns={[
          {
            label: labels.quickMessages.shortcut,
            primary: true,
            render: (q) => <Code fz="sm">/{q.shortcut}</Code>,
          },
          {
            label: labels.common.message,
            render: (q) => (
              <Text span fz="sm" title={q.message}>
                {truncatePreview(q.message)}
              </Text>
            ),
          },
        ]}
        actions={(q) => (
          <RowActions
            onEdit={() => dialog.openEdit(q)}
            onDelete={() => remove.mutate(q)}
            confirmDelete={{
              title: labels.quickMessages.deleteQuickMessage,
              message: labels.quickMessages.confirmDeleteQuickMessage(q.shortcut),
            }}
          />
        )}
      />
      <QuickMessageDialog dialog={dialog} />
    </>
  );
}
