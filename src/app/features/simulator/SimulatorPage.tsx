// /simulador/$token: the built-in channel's "phone". Opening the QR code's link (with ?pair=) connects the
// chip; then one plays a customer of one's choice and chats with the business as on WhatsApp.
import { Button, Center, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconDeviceMobileOff } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { useCallback, useEffect, useState } from 'react';
import { ApiError, errorMessage } from '@/app/lib/api';
import { labels, messages } from '@/shared/messages';
import { IdentityForm } from './IdentityForm';
import { type CustomerIdentity, loadIdentity, saveIdentity } from './identity';
import { SimulatorChat } from './SimulatorChat';
import classes from './simulator.module.css';
import { isSimulatorToken, simulatorOpenQuery } from './simulator-open';

/** The page's message when the link does not open a chat: the whole screen, no phone. */
function FullPageMessage({ text, onRetry }: { text: string; onRetry?(): void }) {
  return (
    <div className={classes.stage}>
      <Center p="md">
        <Stack className={classes.card} align="center" ta="center" maw={420} gap="sm">
          <ThemeIcon size={64} radius="xl" color="gray" variant="light" aria-hidden>
            <IconDeviceMobileOff size={36} />
          </ThemeIcon>
          <Title order={1} fz="h3">
            {labels.simulator.whatsappSimulator}
          </Title>
          <Text role="alert">{text}</Text>
          {onRetry && <Button onClick={onRetry}>{labels.common.tryAgain}</Button>}
        </Stack>
      </Center>
    </div>
  );
}

export function SimulatorPage() {
  const { token = '' }: { token?: string } = useParams({ strict: false });
  const { pair }: { pair?: string } = useSearch({ strict: false });
  const navigate = useNavigate();
  const client = useQueryClient();
  const valid = isSimulatorToken(token);
  const open = useQuery({ ...simulatorOpenQuery(token, pair), enabled: valid });
  const [identity, setIdentity] = useState<CustomerIdentity | null>(() =>
    valid ? loadIdentity(token) : null,
  );
  const [choosing, setChoosing] = useState(false);

  // Paired: the code leaves the address, so a reload does not pair again.
  const opened = open.isSuccess;
  useEffect(() => {
    if (opened && pair)
      void navigate({ to: '/simulador/$token', params: { token }, search: {}, replace: true });
  }, [opened, pair, token, navigate]);

  const { queryKey } = simulatorOpenQuery(token, undefined);
  const onChip = useCallback(
    (connected: boolean | null) => {
      if (connected === null) void client.invalidateQueries({ queryKey });
      else client.setQueryData(queryKey, (old) => old && { ...old, connected });
    },
    [client, queryKey],
  );

  if (!valid) return <FullPageMessage text={messages.simulatorLinkInvalid} />;
  if (!open.data) {
    if (open.error) {
      const final = open.error instanceof ApiError && open.error.status !== 0;
      return (
        <FullPageMessage
          text={errorMessage(open.error)}
          onRetry={final ? undefined : () => void open.refetch()}
        />
      );
    }
    return (
      <div className={classes.stage}>
        <Loader color="teal" aria-label={labels.common.loading} />
      </div>
    );
  }

  const { chip_name: chipName, connected, numbered_menus: numberedMenus } = open.data;
  return (
    <div className={classes.stage}>
      <main className={classes.phone}>
        {identity && !choosing ? (
          <SimulatorChat
            key={identity.phone}
            token={token}
            chipName={chipName}
            connected={connected}
            numberedMenus={numberedMenus}
            onNumberedMenus={(numbered) =>
              client.setQueryData(queryKey, (old) => old && { ...old, numbered_menus: numbered })
            }
            identity={identity}
            onSwitchCustomer={() => setChoosing(true)}
            onChip={onChip}
          />
        ) : (
          <IdentityForm
            chipName={chipName}
            previous={identity}
            onCancel={() => setChoosing(false)}
            onDone={(chosen) => {
              saveIdentity(token, chosen);
              setIdentity(chosen);
              setChoosing(false);
            }}
          />
        )}
      </main>
    </div>
  );
}
