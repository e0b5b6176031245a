// The financial dashboard's charts (spec 3 §2.3): their own chunk, with @mantine/charts and recharts, loaded
// after the cards.
import '@mantine/charts/styles.css';
import { AreaChart, BarChart, LineChart } from '@mantine/charts';
import { Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import type { FinancialDashboardData } from '@/shared/contract/billing';
import { messages } from '@/shared/messages';
import { financialLabels as L } from '@/shared/messages-billing';
import { formatBRL, formatBRLShort, shortDay } from './money';

const H = 240;

/** A chart's card; with nothing but zeros (`rows` and the `keys` it plots), 'Sem dados' instead of a flat axis. */
function Chart<R extends object>({
  title,
  rows,
  keys,
  children,
}: {
  title: string;
  rows: readonly R[];
  keys: readonly (keyof R)[];
  children: ReactNode;
}) {
  const empty = !rows.some((r) => keys.some((k) => Number(r[k] ?? 0) !== 0));
  return (
    <Paper withBorder p="md" radius="md" component="figure" m={0} aria-label={title}>
      <Stack gap="xs">
        <Title order={3} fz="md">
          {title}
        </Title>
        {empty ? (
          <Text c="dimmed" fz="sm" py="xl" ta="center" h={H}>
            {messages.noDataInPeriod}
          </Text>
        ) : (
          children
        )}
      </Stack>
    </Paper>
  );
}

const money = {
  valueFormatter: formatBRL,
  // Whole reais only: small amounts gave a column of 'R$ 0' ticks.
  yAxisProps: { tickFormatter: formatBRLShort, width: 80, allowDecimals: false },
} as const;
const days = <T extends { _id: string }>(rows: T[]) => rows.map((r) => ({ ...r, day: shortDay(r._id) }));
const refDays = (rows: { reference_date: string; value: number }[]) =>
  rows.map((r) => ({ ...r, day: shortDay(r.reference_date) }));

export default function FinancialCharts({ d }: { d: FinancialDashboardData }) {
  const c = d.charts;
  const months = c.month_incomes.map((m, i) => {
    const refund = c.month_refunds[i]?.total ?? 0;
    return { month: shortDay(m._id), total: m.total - refund, sale: m.total, refund };
  });
  const sellTypes = days(c.sell_type_chart);
  const income = days(c.sell_income_chart);
  const average = refDays(c.average_revenue_chart);
  const projection = days(c.month_projection_chart);
  const cycles = c.cycle_chart.map((r) => ({ ...r, cycle: L.cycle(r._id) }));
  const active = refDays(c.active_accounts_chart);
  const canceled = days(c.canceled_chart);
  return (
    <section aria-label={L.charts}>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Chart title={L.sellTypeChart} rows={sellTypes} keys={['new', 'old']}>
          <BarChart
            h={H}
            data={sellTypes}
            dataKey="day"
            type="stacked"
            withLegend
            series={[
              { name: 'new', label: L.newSale, color: 'green.6' },
              { name: 'old', label: L.oldSale, color: 'blue.6' },
            ]}
          />
        </Chart>
        <Chart title={L.monthChart} rows={months} keys={['sale', 'refund']}>
          <BarChart
            h={H}
            data={months}
            dataKey="month"
            withLegend
            {...money}
            series={[
              { name: 'total', label: L.monthTotal, color: 'green.7' },
              { name: 'sale', label: L.monthSale, color: 'blue.5' },
              { name: 'refund', label: L.monthRefund, color: 'red.5' },
            ]}
          />
        </Chart>
        <Chart title={L.dailyIncomeChart} rows={income} keys={['income']}>
          <AreaChart
            h={H}
            data={income}
            dataKey="day"
            {...money}
            series={[{ name: 'income', label: L.income, color: 'green.6' }]}
          />
        </Chart>
        <Chart title={L.averageChart} rows={average} keys={['value']}>
          <LineChart
            h={H}
            data={average}
            dataKey="day"
            {...money}
            series={[{ name: 'value', label: L.average, color: 'teal.6' }]}
          />
        </Chart>
        <Chart title={L.projectionChart} rows={projection} keys={['realized', 'projected']}>
          <LineChart
            h={H}
            data={projection}
            dataKey="day"
            withLegend
            connectNulls={false}
            {...money}
            series={[
              { name: 'realized', label: L.realized, color: 'green.7' },
              { name: 'projected', label: L.projected, color: 'gray.6', strokeDasharray: '5 5' },
            ]}
          />
        </Chart>
        <Chart title={L.cycleChart} rows={cycles} keys={['all']}>
          <BarChart
            h={H}
            data={cycles}
            dataKey="cycle"
            series={[{ name: 'all', label: L.sales, color: 'violet.6' }]}
          />
        </Chart>
        <Chart title={L.activeChart} rows={active} keys={['value']}>
          <AreaChart
            h={H}
            data={active}
            dataKey="day"
            series={[{ name: 'value', label: messages.activeAccounts, color: 'green.6' }]}
          />
        </Chart>
        <Chart title={L.canceledChart} rows={canceled} keys={['canceled']}>
          <BarChart
            h={H}
            data={canceled}
            dataKey="day"
            series={[{ name: 'canceled', label: L.cancellations, color: 'red.6' }]}
          />
        </Chart>
      </SimpleGrid>
    </section>
  );
}
