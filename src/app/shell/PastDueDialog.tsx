import { Button, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { callQuery } from '@/app/lib/query';
import { Dialog } from '@/app/ui/Dialog';
import { SUBSCRIPTION_CHECK_MS } from '@/shared/constants';
import type { User } from '@/shared/contract';
import { labels, messages } from '@/shared/messages';

const subscriptionQuery = {
  ...callQuery('get-guru-subscription'),
  staleTime: SUBSCRIPTION_CHECK_MS,
  refetchInterval: SUBSCRIPTION_CHECK_MS,
  refetchIntervalInBackground: true,
};

/** The past-due warning (spec 1 §4): checked every 3 hours; each check that finds 'pastdue' shows it again. */
export function PastDueDialog({ user }: { user: User }) {
  const { data, dataUpdatedAt } = useQuery(subscriptionQuery);
  const [dismissedAt, setDismissedAt] = useState(0);
  const opened = data?.last_status === 'pastdue' && dataUpdatedAt > dismissedAt;
  const close = () => setDismissedAt(dataUpdatedAt);
  const paymentUrl = data?.invoices.find((i) => i.payment_url)?.payment_url ?? null;
  const owner = user.user_role === 'owner';

  return (
    <Dialog opened={opened} onClose={close} title={messages.pastDueTitle}>
      <Stack>
        <Text>{messages.pastDueText}</Text>
        {!owner && <Text>{messages.pastDueAskOwner}</Text>}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {labels.common.gotIt}
          </Button>
          {owner && paymentUrl && (
            <Button component="a" href={paymentUrl} target="_blank" rel="noopener noreferrer">
              {labels.shell.payInvoice}
            </Button>
          )}
          {owner && !paymentUrl && (
            <Button component={Link} to="/minha-conta" onClick={close}>
              {labels.common.mySignature}
            </Button>
          )}
        </Group>
      </Stack>
    </Dialog>
  );
}
