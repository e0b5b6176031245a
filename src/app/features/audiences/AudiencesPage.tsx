// TEMPORARY while issue 18 is built: replaced by the audiences screen.
import { PageHeader } from '@/app/ui/PageHeader';
import { PlanGate } from '@/app/widgets/PlanGate';
import { labels } from '@/shared/messages';

export function AudiencesPage() {
  return (
    <>
      <PageHeader title={labels.common.audiencias} />
      <PlanGate>{null}</PlanGate>
    </>
  );
}
