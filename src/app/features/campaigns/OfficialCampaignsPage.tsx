// /campanhas-api-oficial (spec 3 §2.11, §4): the official campaigns, as the regular list with a chip column;
// while one sends its sent count reads 'Enviando...' and the delivery counts (from the status webhooks) move
// live on official_campaign_updated. A button to Templates; the dialog picks an approved template. Behind the
// plan gate 'official-campaigns' (spec 3 §6: a contact-support button).
import { Badge, Button, Text, Tooltip } from '@mantine/core';
import { IconPlus, IconTemplate } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { ROUTE_NAMES } from '@/app/lib/access';
import { useChips } from '@/app/lib/lists';
import { SaibaMais } from '@/app/ui/HelpDialog';
import { ListTable } from '@/app/ui/ListTable';
import { PageHeader } from '@/app/ui/PageHeader';
import { RowActions } from '@/app/ui/RowActions';
import { useEditDialog } from '@/app/ui/use-edit-dialog';
import { PlanGate } from '@/app/widgets/PlanGate';
import type { Campaign } from '@/shared/contract/campaigns';
import { formatDateTime } from '@/shared/format';
import { labels, messages } from '@/shared/messages';
import {
  CAMPAIGN_STATUS_LABELS,
  campaignLabels,
  officialCampaignLabels,
  templateLabels,
} from '@/shared/messages-campaigns';
import { useCampaignRows } from './campaign-rows';
import { OfficialCampaignDialog, type OfficialDialogItem } from './OfficialCampaignDialog';
import {
  duplicateOfficialDraft,
  EMPTY_OFFICIAL_DRAFT,
  officialDraftOf,
  sentLabel,
  useCancelOfficialCampaign,
  useDeleteOfficialCampaign,
  useOfficialCampaigns,
} from './official-data';
import { ReportDialog } from './ReportDialog';
import { STATUS_COLORS } from './status';

const L = campaignLabels.campaigns;
const O = officialCampaignLabels;
const HELP = { id: 'campanhas-api-oficial', title: O.helpTitle, text: O.helpText };

export function OfficialCampaignsPage() {
  return (
    <PlanGate title={labels.common.officialApiCampaigns} plan="official-campaigns">
      <OfficialCampaigns />
    </PlanGate>
  );
}

function OfficialCampaigns() {
  const campaigns = useOfficialCampaigns();
  const chips = useChips();
  const dialog = useEditDialog<OfficialDialogItem>();
  const cancel = useCancelOfficialCampaign();
  const remove = useDeleteOfficialCampaign();
  const [reporting, setReporting] = useState<Campaign | null>(null);

  const chipOf = (c: Campaign) => chips.data?.find((x) => x._id === c.chip)?.name ?? '';
  const { audienceOf, actionsOf } = useCampaignRows({
    edit: (c) => dialog.openEdit({ editing: c, draft: officialDraftOf(c) }),
    duplicate: (c) => dialog.openEdit({ editing: null, draft: duplicateOfficialDraft(c) }),
    report: setReporting,
    cancel: (c) => cancel.mutate(c),
    remove: (c) => remove.mutate(c),
  });

  return (
    <>
      <PageHeader title={labels.common.officialApiCampaigns}>
        <SaibaMais topic={HELP} />
        <Button
          component={Link}
          to={ROUTE_NAMES.Templates}
          variant="default"
          leftSection={<IconTemplate size={18} aria-hidden />}
        >
          {templateLabels.templates}
        </Button>
        <Button
          leftSection={<IconPlus size={18} aria-hidden />}
          onClick={() => dialog.openEdit({ editing: null, draft: EMPTY_OFFICIAL_DRAFT })}
        >
          {L.newCampaign}
        </Button>
      </PageHeader>
      <ListTable
        label={labels.common.officialApiCampaigns}
        query={campaigns}
        rowKey={(c) => c._id}
        empty={O.noCampaignRegistered}
        minWidth={900}
        columns={[
          { label: labels.common.name, primary: true, render: (c) => c.name },
          { label: messages.chip, render: chipOf, wrap: 'never' },
          { label: campaignLabels.audiences.createdAt, render: (c) => formatDateTime(c.created) },
          {
            label: labels.common.schedule,
            render: (c) => (c.scheduledTo ? formatDateTime(c.scheduledTo) : L.immediate),
          },
          { label: L.audience, render: audienceOf },
          { label: L.estimatedReach, render: (c) => c.people_count },
          {
            label: L.sent,
            // 'Enviando...' while it sends (spec 3 §4); under the count, how many were delivered and read.
            render: (c) => (
              <>
                {c.status === 'started' ? (
                  <Text span fz="sm" c="yellow.8" fw={500}>
                    {sentLabel(c)}
                  </Text>
                ) : (
                  sentLabel(c)
                )}
                {c.delivery_data && (
                  <Text fz="xs" c="dimmed">
                    {O.deliveredRead(c.delivery_data.delivered, c.delivery_data.read)}
                  </Text>
                )}
              </>
            ),
          },
          {
            label: labels.common.status,
            render: (c) => {
              const badge = (
                <Badge color={STATUS_COLORS[c.status]} variant="light" miw="max-content">
                  {CAMPAIGN_STATUS_LABELS[c.status]}
                </Badge>
              );
              return c.failure ? (
                <Tooltip label={c.failure}>
                  <span>{badge}</span>
                </Tooltip>
              ) : (
                badge
              );
            },
            wrap: 'never',
          },
        ]}
        actions={(c) => <RowActions actions={actionsOf(c)} />}
      />
      <OfficialCampaignDialog
        key={dialog.key}
        opened={dialog.opened}
        onClose={dialog.close}
        item={dialog.item}
      />
      <ReportDialog campaign={reporting} onClose={() => setReporting(null)} />
    </>
  );
}
