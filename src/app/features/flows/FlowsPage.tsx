// /flows (spec 3 §2.8): the account's flows, with their trigger and creation; Novo fluxo opens the editor,
// each row edits, duplicates, exports or deletes its flow, and Importar brings in an exported file.
import { Anchor, Button, Text } from '@mantine/core';
import { IconCopy, IconDownload, IconFileImport, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useFlows } from '@/app/lib/lists';
import { notifyError, notifySuccess } from '@/app/lib/notify';
import { confirm } from '@/app/ui/confirm';
import { SaibaMais } from '@/app/ui/HelpDialog';
import { byText, ListTable } from '@/app/ui/ListTable';
import { PageHeader } from '@/app/ui/PageHeader';
import { RowActions } from '@/app/ui/RowActions';
import type { FlowSummary } from '@/shared/contract/flows';
import { formatDateTime } from '@/shared/format';
import { labels, messages } from '@/shared/messages';
import { exportFlow, useCreateFlow, useDeleteFlow, useDuplicateFlow } from './flow-actions';
import { ImportDialog } from './ImportDialog';
import { NameDialog } from './NameDialog';

const byName = (a: FlowSummary, b: FlowSummary) => byText(a.name, b.name);

/** The trigger column: its keywords, or 'Sem gatilho'. */
export function triggerSummary(flow: Pick<FlowSummary, 'trigger' | 'keywords'>) {
  const keywords = flow.keywords.map((k) => k.trim()).filter(Boolean);
  if (!flow.trigger || keywords.length === 0) return labels.flows.noTrigger;
  const shown = keywords.slice(0, 5).join(', ');
  return labels.flows.keywords(keywords.length > 5 ? `${shown}…` : shown);
}

export function FlowsPage() {
  const flows = useFlows();
  const navigate = useNavigate();
  const create = useCreateFlow();
  const duplicate = useDuplicateFlow();
  const remove = useDeleteFlow();
  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);
  const [copying, setCopying] = useState<FlowSummary | null>(null);

  // The editor's route comes with the editor: a plain path, so this list does not depend on it.
  const editorPath = (id: string) => `/flows/${encodeURIComponent(id)}`;
  const edit = (id: string) => void navigate({ href: editorPath(id) });

  async function download(flow: FlowSummary) {
    try {
      await exportFlow(flow._id);
      notifySuccess(messages.flowExported);
    } catch {
      notifyError(new Error(messages.flowExportFailed));
    }
  }

  async function askDelete(flow: FlowSummary) {
    const sure = await confirm({
      title: labels.flows.deleteFlow,
      message: labels.flows.confirmDeleteFlow(flow.name),
      danger: true,
    });
    if (sure) remove.mutate(flow);
  }

  return (
    <>
      <PageHeader title={labels.flows.flows}>
        <SaibaMais topic="fluxos" />
        <Button
          variant="light"
          leftSection={<IconFileImport size={18} aria-hidden />}
          onClick={() => setImporting(true)}
        >
          {messages.contactsImport}
        </Button>
        <Button leftSection={<IconPlus size={18} aria-hidden />} onClick={() => setCreating(true)}>
          {labels.flows.newFlow}
        </Button>
      </PageHeader>
      <ListTable
        label={labels.flows.flows}
        query={flows}
        rowKey={(f) => f._id}
        sort={byName}
        empty={messages.noFlows}
        columns={[
          {
            label: labels.common.name,
            primary: true,
            render: (f) => (
              <Anchor
                href={editorPath(f._id)}
                inherit
                onClick={(e) => {
                  // A new tab (ctrl/cmd/middle click) is the browser's; a plain click stays in the app.
                  if (e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || e.button !== 0) return;
                  e.preventDefault();
                  edit(f._id);
                }}
              >
                {f.name}
              </Anchor>
            ),
          },
          {
            label: labels.flows.trigger,
            render: (f) => (
              <Text span fz="sm" c={f.trigger ? undefined : 'dimmed'}>
                {triggerSummary(f)}
              </Text>
            ),
          },
          { label: labels.flows.createdAt, render: (f) => formatDateTime(f.created), wrap: 'never' },
        ]}
        actions={(f) => (
          <RowActions
            actions={[
              { label: labels.common.edit, icon: IconPencil, run: () => edit(f._id) },
              { label: labels.flows.duplicate, icon: IconCopy, run: () => setCopying(f) },
              { label: labels.flows.export, icon: IconDownload, run: () => void download(f) },
              { label: labels.common.delete, icon: IconTrash, color: 'red', run: () => void askDelete(f) },
            ]}
          />
        )}
      />
      <NameDialog
        opened={creating}
        title={labels.flows.newFlow}
        label={labels.common.name}
        initial=""
        submitLabel={labels.flows.create}
        onClose={() => setCreating(false)}
        onSubmit={async (name) => {
          const flow = await create.mutateAsync(name);
          setCreating(false);
          edit(flow._id);
        }}
      />
      <NameDialog
        opened={copying !== null}
        title={labels.flows.duplicateFlow}
        label={labels.flows.newFlowName}
        initial={copying ? labels.flows.copy(copying.name) : ''}
        submitLabel={labels.flows.duplicate}
        onClose={() => setCopying(null)}
        onSubmit={async (name) => {
          if (!copying) return;
          await duplicate.mutateAsync({ _id: copying._id, name });
          setCopying(null);
        }}
      />
      <ImportDialog opened={importing} onClose={() => setImporting(false)} />
    </>
  );
}
