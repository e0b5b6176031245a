// /campanhas (spec 3 §2.10, §4): the account's regular campaigns with their schedule, audience, reach, sent
// count and status; Nova campanha opens the dialog, each row edits (while scheduled), duplicates, cancels,
// deletes, follows live (while sending) or shows its report. Behind the plan gate (spec 3 §6).
import { Badge, Button, Tooltip } from '@mantine/core';
import { IconEye, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { SaibaMais } from '@/app/ui/HelpDialog';
import { ListTable } from '@/app/ui/ListTable';
import { PageHeader } from '@/app/ui/PageHeader';
import { RowActions } from '@/app/ui/RowActions';
import { useEditDialog } from '@/app/ui/use-edit-dialog';
import { PlanGate } from '@/app/widgets/PlanGate';
import type { Campaign } from '@/shared/contract/campaigns';
import { formatDateTime } from '@/shared/format';
import { labels } from '@/shared/messages';
import { CAMPAIGN_STATUS_LABELS, campaignLabels } from '@/shared/messages-campaigns';
import { CampaignDialog, type CampaignDialogItem } from './CampaignDialog';
import {
  draftOf,
  duplicateDraft,
  EMPTY_DRAFT,
  useCampaigns,
  useCancelCampaign,
  useDeleteCampaign,
} from './campaign-data';
import { useCampaignRows } from './campaign-rows';
import { FollowDialog } from './FollowDialog';
import { ReportDialog } from './ReportDialog';
import { STATUS_COLORS } from './status';

const L = campaignLabels.campaigns;
const HELP = { id: 'campanhas', title: labels.common.campaigns, text: L.helpText };

export function CampaignsPage() {
  return (
    <PlanGate title={labels.common.campaigns}>
      <Campaigns />
    </PlanGate>
  );
}

function Campaigns() {
  const campaigns = useCampaigns();
  const dialog = useEditDialog<CampaignDialogItem>();
  const cancel = useCancelCampaign();
  const remove = useDeleteCampaign();
  const [following, setFollowing] = useState<Campaign | null>(null);
  const [reporting, setReporting] = useState<Campaign | null>(null);

  const { audienceOf, actionsOf } = useCampaignRows({
    edit: (c) => dialog.openEdit({ editing: c, draft: draftOf(c) }),
    duplicate: (c) => dialog.openEdit({ editing: null, draft: duplicateDraft(c) }),
    report: setReporting,
    cancel: (c) => cancel.mutate(c),
    remove: (c) => remove.mutate(c),
  });

  return (
    <>
      <PageHeader title={labels.common.campaigns}>
        <SaibaMais topic={HELP} />
        <Button
          leftSection={<IconPlus size={18} aria-hidden />}
          onClick={() => dialog.openEdit({ editing: null, draft: EMPTY_DRAFT })}
        >
          {L.newCampaign}
        </Button>
      </PageHeader>
      <ListTable
        label={labels.common.campaigns}
        query={campaigns}
        rowKey={(c) => c._id}
        empty={L.noCampaignRegistered}
        minWidth={900}
        columns={[
          { label: labels.common.name, primary: true, render: (c) => c.name },
          // Dates break between day and time: the row's five actions need the room.
          { label: campaignLabels.audiences.createdAt, render: (c) => formatDateTime(c.created) },
          {
            label: labels.common.schedule,
            render: (c) => (c.scheduledTo ? formatDateTime(c.scheduledTo) : L.immediate),
          },
          { label: L.audience, render: audienceOf },
          { label: L.estimatedReach, render: (c) => c.people_count },
          {
            label: L.sent,
            // While sending, the count is the follow dialog's to show (spec 3 §4).
            render: (c) =>
              c.status === 'started' ? (
                <Button
                  size="compact-xs"
                  variant="light"
                  leftSection={<IconEye size={14} aria-hidden />}
                  onClick={() => setFollowing(c)}
                >
                  {L.follow}
                </Button>
              ) : (
                c.sent_messages
              ),
            wrap: 'never',
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
      <CampaignDialog key={dialog.key} opened={dialog.opened} onClose={dialog.close} item={dialog.item} />
      <FollowDialog campaign={following} onClose={() => setFollowing(null)} />
      <ReportDialog campaign={reporting} onClose={() => setReporting(null)} />
    </>
  );
}
