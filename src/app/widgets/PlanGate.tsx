// Spec 3 §6: campaigns (and their audiences) need campaigns_enabled; otherwise the screen is an upgrade notice
// for the Solo plan. The server refuses the calls by the same rule (rules/access.ts planAllows).
import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useCurrentUser } from '@/app/lib/user';
import { PageHeader } from '@/app/ui/PageHeader';
import { campaignMessages, campaignLabels as L } from '@/shared/messages-campaigns';
import { planAllows } from '@/shared/rules/access';

/** `title`: the screen's title, kept above the notice (the screen's own header is in `children`). */
export function PlanGate({ children, title }: { children: ReactNode; title?: string }) {
  const user = useCurrentUser();
  const allowed = planAllows({ campaignsEnabled: user.account.campaigns_enabled }, { plan: 'campaigns' });
  if (allowed) return children;
  return (
    <>
      {title && <PageHeader title={title} />}
      <Notice role={user.user_role} />
    </>
  );
}

function Notice({ role }: { role: string }) {
  return (
    <Alert color="yellow" icon={<IconLock aria-hidden />} title={L.planGate.titulo} role="status">
      <Stack gap="sm" align="flex-start">
        <Text fz="sm">{campaignMessages.campaignsNotInPlan}</Text>
        {role === 'owner' && (
          <Button component={Link} to="/minha-conta" size="xs">
            {L.planGate.verPlano}
          </Button>
        )}
      </Stack>
    </Alert>
  );
}
