// /dash-tecnico (spec 3 §2.2, system role tech_dashboard): every account's conversations, messages, active
// accounts and connected chips over the interval, the users online now (live sockets on every server
// process), and the charts (their own chunk, after the cards): area above 30 days, bars otherwise.
import { Alert, Button, Center, Loader, SimpleGrid, Stack } from '@mantine/core';
import {
  IconBuilding,
  IconDeviceMobileMessage,
  IconMessage2,
  IconMessageCircle,
  IconRobotFace,
  IconUserCheck,
  IconWorld,
} from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { callQuery } from '@/app/lib/query';
import { PageHeader } from '@/app/ui/PageHeader';
import type { DashboardInterval } from '@/shared/contract/dashboard';
import { labels, messages } from '@/shared/messages';
import { dashboardLabels as L } from '@/shared/messages-dashboard';
import {
  DEFAULT_INTERVAL,
  IntervalControl,
  IntervalShown,
  SectionTitle,
  StatCard,
  useErrorToast,
  useLastAnswer,
} from './dashboard-parts';

const TechCharts = lazy(() => import('./dashboard-charts').then((m) => ({ default: m.TechCharts })));

export function TechDashboardPage() {
  const [interval, setPeriod] = useState<DashboardInterval>(DEFAULT_INTERVAL);
  const report = useQuery({
    ...callQuery('get-admin-dashboard-data', { interval }),
    placeholderData: keepPreviousData,
  });
  const online = useQuery({ ...callQuery('get-online-users', {}), staleTime: 0 });
  useErrorToast(report.error);
  const data = useLastAnswer(report.data);
  useErrorToast(online.error);
  const cards = data?.admin_cards;

  return (
    <Stack gap="md">
      <PageHeader title={labels.common.technicalDashboard} />
      <Stack gap={6}>
        <IntervalControl value={interval} onChange={setPeriod} />
        <IntervalShown interval={data?.interval} />
      </Stack>

      <SectionTitle>{labels.common.conversations}</SectionTitle>
      <SimpleGrid cols={{ base: 1, xs: 3 }} spacing={8}>
        <StatCard
          row
          label={L.conversationsTotal}
          value={cards?.conversations_all}
          icon={<IconMessageCircle size={20} />}
          color="green.8"
        />
        <StatCard
          row
          label={L.conversationsChatbot}
          value={cards?.conversations_chatbot}
          icon={<IconRobotFace size={20} />}
          color="blue.8"
        />
        <StatCard
          row
          label={L.conversationsHuman}
          value={cards?.conversations_manual}
          icon={<IconUserCheck size={20} />}
          color="teal.8"
        />
      </SimpleGrid>

      <SectionTitle>{L.platform}</SectionTitle>
      <SimpleGrid cols={{ base: 1, xs: 3 }} spacing={8}>
        <StatCard
          row
          label={messages.activeAccounts}
          value={cards?.accounts_active}
          icon={<IconBuilding size={20} />}
        />
        <StatCard
          row
          label={L.connectedChips}
          value={cards?.chips_connected}
          icon={<IconDeviceMobileMessage size={20} />}
        />
        <StatCard row label={L.onlineUsers} value={online.data?.count} icon={<IconWorld size={20} />} />
      </SimpleGrid>

      <SectionTitle>{messages.messagesTitle}</SectionTitle>
      <SimpleGrid cols={{ base: 1, xs: 3 }} spacing={8}>
        <StatCard
          row
          label={L.messagesTotal}
          value={cards?.messages_all}
          icon={<IconMessage2 size={20} />}
          color="green.8"
        />
        <StatCard
          row
          label={L.chatbotMessages}
          value={cards?.messages_chatbot}
          icon={<IconRobotFace size={20} />}
          color="blue.8"
        />
        <StatCard
          row
          label={L.humanMessages}
          value={cards?.messages_manual}
          icon={<IconUserCheck size={20} />}
          color="teal.8"
        />
      </SimpleGrid>

      {data ? (
        <Suspense
          fallback={
            <Center py="xl">
              <Loader aria-label={labels.common.loading} />
            </Center>
          }
        >
          <TechCharts data={data} />
        </Suspense>
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
