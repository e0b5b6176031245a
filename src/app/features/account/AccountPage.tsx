import { Alert, Button, Paper, Stack, Text } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useAppConfig } from '@/app/lib/app-config';
import { PageHeader } from '@/app/ui/PageHeader';
import { labels, messages } from '@/shared/messages';

/** /minha-conta (owner only, spec 1 §2): a link to the external plan management, set by the deployment. */
export function AccountPage() {
  const config = useAppConfig();
  const url = config?.plan_management_url ?? null;
  return (
    <>
      <PageHeader title={labels.common.mySignature} />
      <Paper withBorder p="lg" maw={560}>
        <Stack align="flex-start">
          <Text>{messages.planManagementHint}</Text>
          {url ? (
            <Button
              component="a"
              href={url}
              target="_blank"
              rel="noopener noreferrer"
              rightSection={<IconExternalLink size={16} aria-hidden />}
            >
              {labels.account.manageMyPlan}
            </Button>
          ) : (
            config && <Alert color="yellow">{messages.planLinkMissing}</Alert>
          )}
        </Stack>
      </Paper>
    </>
  );
}
