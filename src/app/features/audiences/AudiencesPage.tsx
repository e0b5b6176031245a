// /audiencias (spec 3 §2.9): the spreadsheets of people the campaigns send to. Importar audiência analyses
// a sheet before saving it; each row edits (rename, create_contacts, a new sheet) or deletes (soft) its
// audience. Behind the plan gate: campaigns and audiences need campaigns_enabled (spec 3 §6).
import { Button, Group, Text } from '@mantine/core';
import { IconFileImport } from '@tabler/icons-react';
import { useAudiences } from '@/app/lib/lists';
import { SaibaMais } from '@/app/ui/HelpDialog';
import { ListTable, RowActions } from '@/app/ui/ListTable';
import { PageHeader } from '@/app/ui/PageHeader';
import { useEditDialog } from '@/app/ui/use-edit-dialog';
import { PlanGate } from '@/app/widgets/PlanGate';
import { VariableBadges } from '@/app/widgets/sheet/SheetAnalysis';
import type { Audience } from '@/shared/contract/campaigns';
import { formatDateTime } from '@/shared/format';
import { labels, messages } from '@/shared/messages';
import { campaignLabels } from '@/shared/messages-campaigns';
import { AudienceDialog } from './AudienceDialog';
import { useDeleteAudience } from './audience-actions';

const L = campaignLabels.audiences;
const HELP = { id: 'audiencias', title: labels.common.audiences, text: L.helpText };
const count = new Intl.NumberFormat('pt-BR');

export function AudiencesPage() {
  return (
    <PlanGate title={labels.common.audiences}>
      <Audiences />
    </PlanGate>
  );
}

function Audiences() {
  const audiences = useAudiences();
  const dialog = useEditDialog<Audience>();
  const remove = useDeleteAudience();

  return (
    <>
      <PageHeader title={labels.common.audiences}>
        <SaibaMais topic={HELP} />
        <Button leftSection={<IconFileImport size={18} aria-hidden />} onClick={dialog.openNew}>
          {L.importAudience}
        </Button>
      </PageHeader>
      <ListTable
        label={labels.common.audiences}
        query={audiences}
        rowKey={(a) => a._id}
        empty={L.noAudience}
        minWidth={720}
        columns={[
          { label: L.createdAt, render: (a) => formatDateTime(a.created), wrap: 'never' },
          { label: labels.common.name, primary: true, render: (a) => a.name },
          { label: labels.common.contacts, render: (a) => count.format(a.people_count), wrap: 'never' },
          {
            label: messages.variables,
            render: (a) => {
              const variables = a.props.filter((p) => p !== 'telefone');
              return variables.length ? (
                <Group gap={4}>
                  <VariableBadges names={variables} />
                </Group>
              ) : (
                <Text span fz="sm" c="dimmed">
                  —
                </Text>
              );
            },
          },
        ]}
        actions={(a) => (
          <RowActions
            onEdit={() => dialog.openEdit(a)}
            onDelete={() => remove.mutate(a)}
            confirmDelete={{ title: L.deleteAudience, message: L.confirmDeleteAudience(a.name) }}
          />
        )}
      />
      <AudienceDialog dialog={dialog} />
    </>
  );
}
