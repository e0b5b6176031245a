// Spec 3 §6: campaigns (and their audiences) need campaigns_enabled, otherwise the screen is an upgrade notice
// for the Solo plan; official campaigns (and templates) also need max_official_channels ≥ 1, otherwise a
// contact-support button; follow-ups, the API and webhooks need max_channels above 1 (Profissional or higher). The
// server refuses the calls by the same rule (rules/access.ts planAllows).
import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconExternalLink, IconHeadset, IconLock } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import { useAppConfig } from '@/app/lib/app-config';
import { useCurrentUser } from '@/app/lib/user';
import { PageHeader } from '@/app/ui/PageHeader';
import { SupportDialog } from '@/app/ui/SupportDialog';
import {
  campaignMessages,
  campaignLabels as L,
  officialCampaignLabels as O,
} from '@/shared/messages-campaigns';
import { planAllows, planOfAnswer } from '@/shared/rules/access';

type GatedPlan = 'campaigns' | 'official-campaigns' | 'integrations';

/** `title`: the screen's title, kept above the notice (the screen's own header is in `children`). */
export function PlanGate({
  children,
  title,
  plan = 'campaigns',
}: {
  children: ReactNode;
  title?: string;
  plan?: GatedPlan;
}) {
  const user = useCurrentUser();
  const allowed = planAllows(planOfAnswer(user.account), { plan });
  if (allowed) return children;
  return (
    <>
      {title && <PageHeader title={title} />}
      {plan === 'official-campaigns' ? (
        <SupportNotice />
      ) : (
        <UpgradeNotice role={user.user_role} integrations={plan === 'integrations'} />
      )}
    </>
  );
}

/** Campaigns: the Solo plan lacks them; integrations (follow-ups, API, webhooks): Profissional or higher. */
function UpgradeNotice({ role, integrations }: { role: string; integrations: boolean }) {
  return (
    <Alert
      color="yellow"
      icon={<IconLock aria-hidden />}
      title={integrations ? L.planGate.titleIntegrations : L.planGate.title}
      role="status"
    >
      <Stack gap="sm" align="flex-start">
        <Text fz="sm">
          {integrations ? campaignMessages.integrationsNotInPlan : campaignMessages.campaignsNotInPlan}
        </Text>
        {role === 'owner' && (
          <Button component={Link} to="/minha-conta" size="xs">
            {L.planGate.viewPlan}
          </Button>
        )}
      </Stack>
    </Alert>
  );
}

/** Official numbers are contracted with support: its link when the deployment has one, else how it goes. */
function SupportNotice() {
  const url = useAppConfig()?.support_url ?? null;
  const [opened, setOpened] = useState(false);
  return (
    <Alert color="yellow" icon={<IconLock aria-hidden />} title={O.planGateTitle} role="status">
      <Stack gap="sm" align="flex-start">
        <Text fz="sm">{campaignMessages.officialNotInPlan}</Text>
        {url ? (
          <Button
            component="a"
            href={url}
            target="_blank"
            rel="noopener noreferrer"
            size="xs"
            leftSection={<IconHeadset size={16} aria-hidden />}
            rightSection={<IconExternalLink size={14} aria-hidden />}
          >
            {O.talkWithSupport}
          </Button>
        ) : (
          <Button
            size="xs"
            leftSection={<IconHeadset size={16} aria-hidden />}
            onClick={() => setOpened(true)}
          >
            {O.talkWithSupport}
          </Button>
        )}
      </Stack>
      <SupportDialog opened={opened} onClose={() => setOpened(false)} title={O.talkWithSupport} />
    </Alert>
  );
}
