import { PageHeader } from '@/app/ui/PageHeader';

/** Placeholder until the dashboard issue builds the screen (spec 3 §2.1). */
export function DashboardPage() {
  return <PageHeader title="Dashboard" />;
}
