// The financial dashboard's charts (spec 3 §2.3): their own chunk, with @mantine/charts and recharts, loaded
// after the cards.
import '@mantine/charts/styles.css';
import { AreaChart, BarChart, LineChart } from '@mantine/charts';
import { Paper, SimpleGrid, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import type { FinancialDashboardData } from '@/shared/contract/billing';
import { financialLabels as L } from '@/shared/messages-billing';
import { formatBRL, formatBRLShort, shortDay } from './money';

const H = 240;

function Chart({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md" radius="md" component="figure" m={0} aria-label={title}>
      <Stack gap="xs">
        <Title order={3} fz="md">
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

const money = {
  valueFormatter: formatBRL,
  yAxisProps: { tickFormatter: formatBRLShort, width: 80 },
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
  return (
    <section aria-label={L.charts}>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Chart title={L.sellTypeChart}>
          <BarChart
            h={H}
            data={days(c.sell_type_chart)}
            dataKey="day"
            type="stacked"
            withLegend
            series={[
              { name: 'new', label: L.newSale, color: 'green.6' },
              { name: 'old', label: L.oldSale, color: 'blue.6' },
            ]}
          />
        </Chart>
        <Chart title={L.monthChart}>
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
        <Chart title={L.dailyIncomeChart}>
          <AreaChart
            h={H}
            data={days(c.sell_income_chart)}
            dataKey="day"
            {...money}
            series={[{ name: 'income', label: L.income, color: 'green.6' }]}
          />
        </Chart>
        <Chart title={L.averageChart}>
          <LineChart
            h={H}
            data={refDays(c.average_revenue_chart)}
            dataKey="day"
            {...money}
            series={[{ name: 'value', label: L.average, color: 'teal.6' }]}
          />
        </Chart>
        <Chart title={L.projectionChart}>
          <LineChart
            h={H}
            data={days(c.month_projection_chart)}
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
        <Chart title={L.cycleChart}>
          <BarChart
            h={H}
            data={c.cycle_chart.map((r) => ({ ...r, cycle: L.cycle(r._id) }))}
            dataKey="cycle"
            series={[{ name: 'all', label: L.sales, color: 'violet.6' }]}
          />
        </Chart>
        <Chart title={L.activeChart}>
          <AreaChart
            h={H}
            data={refDays(c.active_accounts_chart)}
            dataKey="day"
            series={[{ name: 'value', label: L.activeAccounts, color: 'green.6' }]}
          />
        </Chart>
        <Chart title={L.canceledChart}>
          <BarChart
            h={H}
            data={days(c.canceled_chart)}
            dataKey="day"
            series={[{ name: 'canceled', label: L.cancellations, color: 'red.6' }]}
          />
        </Chart>
      </SimpleGrid>
    </section>
  );
}
