import { PageHeader } from '@/app/ui/PageHeader';
import { labels } from '@/shared/messages';

/** Placeholder until the dashboard issue builds the screen (spec 3 §2.1). */
export function DashboardPage() {
  return <PageHeader title={labels.common.dashboard} />;
}
