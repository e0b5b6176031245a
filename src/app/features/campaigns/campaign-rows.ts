// A campaign row's audience text and actions, the same on the regular and the official campaigns screens
// (spec 3 §4: edit while scheduled, duplicate, report, cancel unless canceled or finished, delete).
import { IconBan, IconChartBar, IconCopy, IconPencil, IconTrash } from '@tabler/icons-react';
import { useAudiences, useTags } from '@/app/lib/lists';
import { confirm } from '@/app/ui/confirm';
import type { RowAction } from '@/app/ui/RowActions';
import type { Campaign } from '@/shared/contract/campaigns';
import { labels, messages } from '@/shared/messages';
import { campaignLabels, campaignReportLabels } from '@/shared/messages-campaigns';

const L = campaignLabels.campaigns;

export function useCampaignRows(on: {
  edit(c: Campaign): void;
  duplicate(c: Campaign): void;
  report(c: Campaign): void;
  cancel(c: Campaign): void;
  remove(c: Campaign): void;
}) {
  const audiences = useAudiences();
  const tags = useTags();

  const audienceOf = (c: Campaign) => {
    if (c.audience_type === 'audience')
      return (
        audiences.data?.find((a) => a._id === c.audience)?.name ?? (audiences.data ? L.audienceDeleted : '')
      );
    const names = c.audience_tags.map((id) => tags.data?.find((t) => t._id === id)?.name).filter(Boolean);
    return L.recipientTags(names.join(', '));
  };

  async function askCancel(c: Campaign) {
    if (
      await confirm({
        title: L.cancelCampaign,
        message: L.confirmCancelCampaign(c.name),
        danger: true,
        // 'Cancelar' would read as cancelling the campaign: the buttons say what they do.
        confirmLabel: L.cancelCampaign,
        cancelLabel: messages.back,
      })
    )
      on.cancel(c);
  }
  async function askDelete(c: Campaign) {
    if (await confirm({ title: L.deleteCampaign, message: L.confirmDeleteCampaign(c.name), danger: true }))
      on.remove(c);
  }

  const actionsOf = (c: Campaign): RowAction[] => [
    ...(c.status === 'scheduled'
      ? [{ label: labels.common.edit, icon: IconPencil, run: () => on.edit(c) }]
      : []),
    { label: labels.flows.duplicate, icon: IconCopy, run: () => on.duplicate(c) },
    { label: campaignReportLabels.sheet, icon: IconChartBar, run: () => on.report(c) },
    ...(c.status !== 'canceled' && c.status !== 'finished'
      ? [{ label: L.cancelCampaign, icon: IconBan, color: 'orange', run: () => void askCancel(c) }]
      : []),
    { label: labels.common.delete, icon: IconTrash, color: 'red', run: () => void askDelete(c) },
  ];
  return { audienceOf, actionsOf };
}
