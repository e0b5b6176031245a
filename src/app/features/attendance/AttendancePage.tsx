import { SaibaMais } from '../../ui/HelpDialog';
import { PageHeader } from '../../ui/PageHeader';

/** Placeholder until the service-screen issue builds Atendimento (spec 2 §2.3). */
export function AttendancePage() {
  return (
    <PageHeader title="Atendimento">
      <SaibaMais topic="atendimento" />
    </PageHeader>
  );
}
