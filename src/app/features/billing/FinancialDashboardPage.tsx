import { Alert, Badge, Button, Group, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense } from 'react';
import { errorMessage } from '@/app/lib/api';
import { callQuery } from '@/app/lib/query';
import { PageHeader } from '@/app/ui/PageHeader';
import { useErrorToast } from '@/app/ui/use-error-toast';
import type { FinancialDashboardData } from '@/shared/contract/billing';
import { labels, messages } from '@/shared/messages';
import { financialLabels as L } from '@/shared/messages-billing';
import { formatBRL } from './money';

// The charts (@mantine/charts, recharts) load after the cards, in a chunk of their own.
const FinancialCharts = lazy(() => import('./FinancialCharts'));

const financialQuery = callQuery('get-financial-dashboard-data', {});

/** /dash-financeiro (spec 3 §2.3): the base, new sales, revenue, projections and the charts. */
export function FinancialDashboardPage() {
  const data = useQuery(financialQuery);
  useErrorToast(data.error);
  return (
    <>
      <PageHeader title={L.title} />
      {data.isPending ? (
        <Group justify="center" p="xl">
          <Loader aria-label={labels.common.loading} />
        </Group>
      ) : data.error ? (
        <Alert color="red" title={errorMessage(data.error)}>
          <Button variant="light" color="red" onClick={() => void data.refetch()}>
            {labels.common.tryAgain}
          </Button>
        </Alert>
      ) : (
        <Stack gap="lg">
          <Cards d={data.data} />
          <Suspense
            fallback={
              <Group justify="center" p="xl">
                <Loader aria-label={L.loadingCharts} />
              </Group>
            }
          >
            <FinancialCharts d={data.data} />
          </Suspense>
        </Stack>
      )}
    </>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs" component="section" aria-label={title}>
      <Title order={2} fz="h4">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

function Stat({ label, value, children }: { label: string; value: string; children?: ReactNode }) {
  return (
    <Paper withBorder p="md" radius="md" role="group" aria-label={label}>
      <Text fz="sm" c="dimmed">
        {label}
      </Text>
      <Text fz="xl" fw={700}>
        {value}
      </Text>
      {children}
    </Paper>
  );
}

function Line({ label, value }: { label: string; value: string }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text fz="sm" c="dimmed">
        {label}
      </Text>
      <Text fz="sm" fw={500}>
        {value}
      </Text>
    </Group>
  );
}

function Cards({ d }: { d: FinancialDashboardData }) {
  const periods = [
    { key: 'today', label: messages.today },
    { key: 'week', label: messages.last7Days },
    { key: 'month', label: messages.last30Days },
  ] as const;
  const projections = [
    {
      key: 'week',
      label: L.projectionWeek,
      hint: L.projectionWeekHint,
      period: messages.last7Days,
      average: d.averages.week,
    },
    {
      key: 'month',
      label: L.projectionMonth,
      hint: L.projectionMonthHint,
      period: messages.last30Days,
      average: d.averages.month,
    },
  ] as const;
  return (
    <>
      <Section title={L.base}>
        <SimpleGrid cols={{ base: 3 }} spacing="xs">
          <Stat label={L.active} value={String(d.real_time.active)} />
          <Stat label={messages.statusPastDue} value={String(d.real_time.pastdue)} />
          <Stat label={L.canceled} value={String(d.real_time.canceled)} />
        </SimpleGrid>
      </Section>
      <Section title={L.newSales}>
        <SimpleGrid cols={{ base: 3 }} spacing="xs">
          {periods.map((p) => (
            <Stat key={p.key} label={p.label} value={String(d.sell_status[p.key])} />
          ))}
        </SimpleGrid>
      </Section>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {periods.map((p) => {
          const income = d.sell_income[p.key];
          return (
            <Section key={p.key} title={L.revenue(p.label)}>
              <Paper withBorder p="md" radius="md">
                <Stack gap={4}>
                  <Line label={L.newClients} value={formatBRL(income.new_clients)} />
                  <Line label={L.recurrences} value={formatBRL(income.old_clients)} />
                  <Line label={L.refunds} value={formatBRL(d.refunds[p.key].total)} />
                  <Group justify="space-between" gap="xs" wrap="nowrap" pt={4}>
                    <Text fw={600}>{L.net}</Text>
                    <Text fw={700}>{formatBRL(income.net)}</Text>
                  </Group>
                </Stack>
              </Paper>
            </Section>
          );
        })}
      </SimpleGrid>
      <Section title={L.projections}>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {projections.map((p) => {
            const diff = d.projections[p.key].difference;
            return (
              <Stat key={p.key} label={p.label} value={formatBRL(d.projections[p.key].value)}>
                <Group gap="xs" mt={4}>
                  <Badge color={diff >= 0 ? 'green' : 'red'} variant="filled">
                    {L.percent(diff)}
                  </Badge>
                  <Text fz="xs" c="dimmed">
                    {L.dailyAverage(p.period, formatBRL(p.average))}
                  </Text>
                </Group>
                <Text fz="xs" c="dimmed" mt={4}>
                  {p.hint}
                </Text>
              </Stat>
            );
          })}
        </SimpleGrid>
      </Section>
    </>
  );
}
