// TEMPORARY while issue 18 is built: replaced by the campaigns screen.
import { PageHeader } from '@/app/ui/PageHeader';
import { PlanGate } from '@/app/widgets/PlanGate';
import { labels } from '@/shared/messages';

export function CampaignsPage() {
  return (
    <>
      <PageHeader title={labels.common.campanhas} />
      <PlanGate>{null}</PlanGate>
    </>
  );
}
