// / (spec 3 §2.1): the attendant dashboard. The interval (buttons or a pt-BR range) and the chip filter; the
// real-time cards, loaded with the report and asked again when the dashboard room's hints arrive
// (load_realtime, load_open_conversations; no polling); the report's cards, its charts (their own chunk,
// after the cards) and the latest contacts.
import {
  Alert,
  Avatar,
  Button,
  Center,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import {
  IconClockPause,
  IconDeviceMobileMessage,
  IconInboxOff,
  IconMessageCircle,
  IconRobotFace,
  IconUserCheck,
} from '@tabler/icons-react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import dayjs from 'dayjs';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { canOpen } from '@/app/lib/access';
import { onAccountEvent } from '@/app/lib/account-events';
import { useChips } from '@/app/lib/lists';
import { callQuery } from '@/app/lib/query';
import { useCurrentUser } from '@/app/lib/user';
import { PageHeader } from '@/app/ui/PageHeader';
import { useIsMobile } from '@/app/ui/use-is-mobile';
import type { DashboardData, DashboardInterval } from '@/shared/contract/dashboard';
import { formatDateTime, formatPhone, withoutBidiControls } from '@/shared/format';
import { labels, messages } from '@/shared/messages';
import { dashboardLabels as L } from '@/shared/messages-dashboard';
import {
  ChoiceSelect,
  DEFAULT_INTERVAL,
  IntervalControl,
  IntervalShown,
  SectionTitle,
  StatCard,
  useErrorToast,
  useLastAnswer,
} from './dashboard-parts';

const AttendantCharts = lazy(() =>
  import('./dashboard-charts').then((m) => ({ default: m.AttendantCharts })),
);

const ALL = -1;
const realTimeKey = ['get-dashboard-real-time-data'] as const;
const reportKey = ['get-dashboard-data'] as const;
/** How long the report waits for more hints before it is asked again. */
const REPORT_REFRESH_MS = 3000;

export function DashboardPage() {
  const client = useQueryClient();
  const [interval, setPeriod] = useState<DashboardInterval>(DEFAULT_INTERVAL);
  const [chip, setChip] = useState<string>(String(ALL));
  const chips = useChips();
  const chipList = useMemo(() => (chips.data ?? []).filter((c) => !c.filed), [chips.data]);
  // A chip filed meanwhile: back to all chips.
  const selected = chip === String(ALL) || chipList.some((c) => c._id === chip) ? chip : String(ALL);
  const selectedChip = selected === String(ALL) ? ALL : selected;

  const report = useQuery({
    ...callQuery('get-dashboard-data', { interval, selected_chip: selectedChip }),
    placeholderData: keepPreviousData,
  });
  const realTime = useQuery({
    ...callQuery('get-dashboard-real-time-data', { selected_chip: selectedChip }),
    staleTime: 0,
  });
  useErrorToast(report.error);
  const data = useLastAnswer(report.data);
  useErrorToast(realTime.error);

  // The live cards: the hints of the dashboard room, which the server puts this user's socket in (after a
  // reconnect the shell asks the cards again: what changed meanwhile is caught up). A hint of another chip is not ours. A
  // hint also moves the report when its range reaches today: asked again once the hints of a few seconds are
  // gathered (a busy account does not reload a year's report on every message).
  const reachesToday = typeof interval === 'number' || interval.end >= dayjs().format('YYYY-MM-DD');
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = () => void client.invalidateQueries({ queryKey: realTimeKey });
    const refreshReport = () => {
      timer ??= setTimeout(() => {
        timer = undefined;
        void client.invalidateQueries({ queryKey: reportKey });
      }, REPORT_REFRESH_MS);
    };
    const stop = onAccountEvent((event) => {
      if (event.type !== 'load_realtime' && event.type !== 'load_open_conversations') return;
      const from = event.message.chip_id;
      if (selectedChip !== ALL && from && from !== selectedChip) return;
      refresh();
      // Either hint may change today's report ('Novas conversas', 'Últimos contatos': a conversation resumed
      // comes as load_realtime), gathered over a few seconds as above.
      if (reachesToday) refreshReport();
    });
    return () => {
      stop();
      clearTimeout(timer);
    };
  }, [client, selectedChip, reachesToday]);

  const chipOptions = [
    { value: String(ALL), label: L.allChips },
    ...chipList.map((c) => ({ value: c._id, label: c.name })),
  ];
  const rt = realTime.data;
  const cards = data?.conversation_cards;

  return (
    <Stack gap="md">
      <PageHeader title={labels.common.dashboard} />
      <Stack gap={6}>
        <Group gap="sm" align="flex-end" wrap="wrap" justify="space-between">
          <IntervalControl value={interval} onChange={setPeriod} />
          <ChoiceSelect
            size="xs"
            label={messages.chip}
            data={chipOptions}
            value={selected}
            onChange={(v) => setChip(v ?? String(ALL))}
            allowDeselect={false}
            leftSection={<IconDeviceMobileMessage size={16} aria-hidden />}
            w={{ base: '100%', xs: 240 }}
            comboboxProps={{ withinPortal: true }}
          />
        </Group>
        <IntervalShown interval={data?.interval} />
      </Stack>

      <SectionTitle>{L.now}</SectionTitle>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
        <StatCard label={L.open} value={rt?.all} icon={<IconMessageCircle size={20} />} color="green.8" />
        <StatCard
          label={messages.listWaitingResponse}
          value={rt?.waiting_response}
          icon={<IconClockPause size={20} />}
          color="orange.8"
        />
        <StatCard
          label={labels.common.chatbot}
          value={rt?.chatbot}
          icon={<IconRobotFace size={20} />}
          color="blue.8"
        />
        <StatCard
          label={messages.human}
          value={rt?.manual}
          icon={<IconUserCheck size={20} />}
          color="teal.8"
        />
      </SimpleGrid>

      <SectionTitle>{L.inPeriod}</SectionTitle>
      <SimpleGrid cols={{ base: 1, xs: 3 }} spacing={8}>
        <StatCard row label={L.newConversations} value={cards?.all} />
        <StatCard row label={L.byChatbot} value={cards?.chatbot} />
        <StatCard row label={L.byHuman} value={cards?.manual} />
      </SimpleGrid>

      {data ? (
        <Report
          data={data}
          allChips={selectedChip === ALL}
          connected={chipList.some((c) => c.status === 'open')}
        />
      ) : report.isError ? (
        <Alert color="red" title={L.loadFailed}>
          <Button size="xs" variant="light" color="red" onClick={() => void report.refetch()}>
            {labels.common.tryAgain}
          </Button>
        </Alert>
      ) : (
        <Center py="xl">
          <Loader aria-label={labels.common.loading} />
        </Center>
      )}
    </Stack>
  );
}

function Report({
  data,
  allChips,
  connected,
}: {
  data: DashboardData;
  allChips: boolean;
  connected: boolean;
}) {
  const user = useCurrentUser();
  // A quiet period (spec 3 §2.1): the hint on top, and every chart and the latest contacts with its own empty state.
  const quiet = data.conversation_cards.all === 0 && (
    <Paper withBorder radius="md" p="lg">
      <Stack align="center" gap="xs" ta="center">
        <IconInboxOff size={36} aria-hidden color="var(--mantine-color-dimmed)" />
        <Title order={2} fz="md">
          {L.noConversations}
        </Title>
        <Text c="dimmed" fz="sm" maw={480}>
          {connected ? L.noConversationsWait : L.noConversationsHint}
        </Text>
        {!connected && canOpen(user, '/chips') && (
          <Button component={Link} to="/chips" size="xs" variant="light">
            {L.goToChips}
          </Button>
        )}
      </Stack>
    </Paper>
  );
  return (
    <>
      {quiet}
      <Suspense
        fallback={
          <Center py="xl">
            <Loader aria-label={labels.common.loading} />
          </Center>
        }
      >
        <AttendantCharts data={data} allChips={allChips} />
      </Suspense>
      <LatestContacts contacts={data.latest_contacts} />
    </>
  );
}

const contactName = (c: DashboardData['latest_contacts'][number]) =>
  withoutBidiControls(c.override_name ?? '').trim() ||
  withoutBidiControls(c.name).trim() ||
  formatPhone(c.phone);

function LatestContacts({ contacts }: { contacts: DashboardData['latest_contacts'] }) {
  const mobile = useIsMobile();
  return (
    <Paper withBorder radius="md" p="sm" component="section" aria-label={L.latestContacts}>
      <Title order={2} fz="md" mb="sm">
        {L.latestContacts}
      </Title>
      {contacts.length === 0 ? (
        <Text c="dimmed" fz="sm">
          {L.noContacts}
        </Text>
      ) : (
        <Stack gap={0} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
          {contacts.map((c) => {
            const name = contactName(c);
            return (
              <Group
                key={c._id}
                component="li"
                gap="sm"
                wrap="nowrap"
                py={8}
                style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
              >
                <Avatar src={c.profile_picture} name={name} color="initials" size={36} />
                <Stack gap={0} miw={0} style={{ flex: 1 }}>
                  <Text fz="sm" fw={600} truncate="end">
                    {name}
                  </Text>
                  <Text fz="xs" c="dimmed">
                    {formatPhone(c.phone)}
                    {mobile && ` · ${formatDateTime(c.created)}`}
                  </Text>
                </Stack>
                {!mobile && (
                  <Text fz="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                    {formatDateTime(c.created)}
                  </Text>
                )}
              </Group>
            );
          })}
        </Stack>
      )}
    </Paper>
  );
}
