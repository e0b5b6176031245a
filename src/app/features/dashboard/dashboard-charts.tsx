// The dashboards' charts (spec 3 §2.1, §2.2, §9) with @mantine/charts (recharts): a chunk of its own that the
// pages load after their cards, so neither the shell nor /login nor /atendimento ever carries it.
import '@mantine/charts/styles.css';
import { AreaChart, BarChart, DonutChart } from '@mantine/charts';
import { ColorSwatch, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import type { AdminDashboardData, DashboardData } from '@/shared/contract/dashboard';
import { labels, messages } from '@/shared/messages';
import { dashboardLabels as L } from '@/shared/messages-dashboard';
import { formatCount } from './dashboard-parts';

const PALETTE = [
  'blue.6',
  'teal.6',
  'orange.6',
  'grape.6',
  'cyan.6',
  'red.6',
  'lime.7',
  'indigo.6',
  'pink.6',
];
/** A donut shows this many slices; the rest are summed in 'Outros'. */
const MAX_SLICES = PALETTE.length;

/** 'YYYY-MM-DD' on an axis: 'DD/MM'. */
const tick = (day: string) => {
  const [, m, d] = String(day).split('-');
  return d && m ? `${d}/${m}` : String(day);
};
const xAxisProps = { tickFormatter: tick, minTickGap: 12 };
/** Counts: whole numbers on the axis. */
const yAxisProps = { allowDecimals: false };
const CHART_H = 240;

function ChartCard({ title, children, wide }: { title: string; children: ReactNode; wide?: boolean }) {
  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      component="section"
      aria-label={title}
      style={wide ? { gridColumn: '1 / -1' } : undefined}
      miw={0}
    >
      <Title order={2} fz="md" mb="sm">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

function NoData() {
  return (
    <Text c="dimmed" fz="sm" py="xl" ta="center">
      {messages.noDataInPeriod}
    </Text>
  );
}

/** A Mantine colour ('teal.6') or a hex one (a tag's) as CSS. */
const swatchColor = (color: string) =>
  color.startsWith('#') ? color : `var(--mantine-color-${color.replace('.', '-')})`;

interface Slice {
  name: string;
  value: number;
  color: string;
}

/** Items by count, the largest first; above MAX_SLICES the rest become 'Outros'. */
function slices(items: { name: string; all: number; color?: string }[]): Slice[] {
  const sorted = items.filter((i) => i.all > 0).sort((a, b) => b.all - a.all);
  const kept = sorted.length > MAX_SLICES ? sorted.slice(0, MAX_SLICES - 1) : sorted;
  const out = kept.map((i, n) => ({
    name: i.name,
    value: i.all,
    color: i.color || (PALETTE[n % PALETTE.length] as string),
  }));
  const rest = sorted.slice(kept.length).reduce((sum, i) => sum + i.all, 0);
  if (rest > 0) out.push({ name: L.others, value: rest, color: 'gray.5' });
  return out;
}

/**
 * A donut without labels on the ring (unreadable on a phone) and, beside it or under it, the legend: colour,
 * name, count and share of each slice.
 */
function Donut({ items, title }: { items: { name: string; all: number; color?: string }[]; title: string }) {
  const data = slices(items);
  if (data.length === 0) return <NoData />;
  const total = data.reduce((sum, s) => sum + s.value, 0);
  return (
    <Group gap="lg" align="center" justify="center" wrap="wrap">
      <DonutChart
        data={data}
        size={160}
        thickness={26}
        chartLabel={formatCount(total)}
        valueFormatter={formatCount}
        tooltipDataSource="segment"
        aria-label={L.chartOf(title)}
      />
      <Stack gap={4} component="ul" m={0} p={0} style={{ listStyle: 'none', flex: '1 1 180px' }} miw={0}>
        {data.map((s) => (
          <Group key={s.name} component="li" gap={8} wrap="nowrap" justify="space-between">
            <Group gap={8} wrap="nowrap" miw={0}>
              <ColorSwatch color={swatchColor(s.color)} size={12} />
              <Text fz="sm" truncate="end" title={s.name}>
                {s.name}
              </Text>
            </Group>
            <Text fz="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
              {formatCount(s.value)} · {Math.round((s.value / total) * 100)}%
            </Text>
          </Group>
        ))}
      </Stack>
    </Group>
  );
}

/** The attendant dashboard's charts (spec 3 §2.1). */
export function AttendantCharts({ data, allChips }: { data: DashboardData; allChips: boolean }) {
  const bars = data.interval.days <= 7;
  const evolutionSeries = [
    { name: 'chatbot', label: labels.common.chatbot, color: 'blue.6' },
    { name: 'manual', label: messages.human, color: 'teal.6' },
  ];
  const departmentSeries = data.departments.map((name, n) => ({
    name,
    color: PALETTE[n % PALETTE.length] as string,
  }));
  // A department has the same colour in the donut as in the area chart.
  const departmentItems = data.department_distribution.map((d) => {
    const n = data.departments.indexOf(d.name);
    return n < 0 || d.color ? d : { ...d, color: PALETTE[n % PALETTE.length] };
  });
  const hasDepartments = data.conversation_chart_departments.some((p) =>
    data.departments.some((d) => Number(p[d] ?? 0) > 0),
  );
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
      <ChartCard title={L.evolution} wide>
        {bars ? (
          <BarChart
            h={CHART_H}
            data={data.conversation_chart}
            dataKey="_id"
            type="stacked"
            series={evolutionSeries}
            withLegend
            xAxisProps={xAxisProps}
            yAxisProps={yAxisProps}
            valueFormatter={formatCount}
            maxBarWidth={48}
            aria-label={L.chartOf(L.evolution)}
          />
        ) : (
          <AreaChart
            h={CHART_H}
            data={data.conversation_chart}
            dataKey="_id"
            type="stacked"
            series={evolutionSeries}
            withLegend
            withDots={false}
            xAxisProps={xAxisProps}
            yAxisProps={yAxisProps}
            valueFormatter={formatCount}
            aria-label={L.chartOf(L.evolution)}
          />
        )}
      </ChartCard>
      <ChartCard title={L.evolutionByDepartment} wide>
        {hasDepartments && bars ? (
          // A week or less (one day for 'Hoje'): bars, as the evolution above; an area of one day is one dot.
          <BarChart
            h={CHART_H}
            data={data.conversation_chart_departments}
            dataKey="_id"
            series={departmentSeries}
            withLegend
            xAxisProps={xAxisProps}
            yAxisProps={yAxisProps}
            valueFormatter={formatCount}
            maxBarWidth={48}
            aria-label={L.chartOf(L.evolutionByDepartment)}
          />
        ) : hasDepartments ? (
          <AreaChart
            h={CHART_H}
            data={data.conversation_chart_departments}
            dataKey="_id"
            series={departmentSeries}
            withLegend
            withDots={false}
            xAxisProps={xAxisProps}
            yAxisProps={yAxisProps}
            valueFormatter={formatCount}
            aria-label={L.chartOf(L.evolutionByDepartment)}
          />
        ) : (
          <NoData />
        )}
      </ChartCard>
      <ChartCard title={L.departmentDistribution}>
        <Donut items={departmentItems} title={L.departmentDistribution} />
      </ChartCard>
      <ChartCard title={L.tagDistribution}>
        {allChips ? (
          <Donut items={data.tag_distribution} title={L.tagDistribution} />
        ) : (
          <Text c="dimmed" fz="sm" py="xl" ta="center">
            {L.tagsOnlyAllChips}
          </Text>
        )}
      </ChartCard>
    </SimpleGrid>
  );
}

/** The technical dashboard's charts (spec 3 §2.2): area above 30 days, bars otherwise. */
export function TechCharts({ data }: { data: AdminDashboardData }) {
  const area = data.interval.days > 30;
  const conversationSeries = [
    { name: 'human', label: messages.human, color: 'teal.6' },
    { name: 'ai_chatbot', label: messages.aiChatbot, color: 'blue.6' },
    { name: 'flow_chatbot', label: labels.chips.flowChatbot, color: 'grape.6' },
  ];
  const messageSeries = [
    { name: 'user', label: L.humanMessages, color: 'teal.6' },
    { name: 'chatbot', label: L.chatbotMessages, color: 'blue.6' },
    { name: 'customer', label: L.contactMessages, color: 'orange.6' },
  ];
  const { conversations: allDays, messages: messageDays, chip_distribution } = data.admin_charts;
  // Shares of a day with no conversation are 0/0: such a day was drawn as the top series at 100% ('Chatbot de
  // fluxo' over all-human data). Only the days with conversations are shares.
  const conversations = allDays.filter((d) => d.human + d.ai_chatbot + d.flow_chatbot > 0);
  const common = { h: CHART_H, dataKey: '_id', withLegend: true, xAxisProps, yAxisProps };
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
      <ChartCard title={L.conversationDistribution} wide>
        {area ? (
          <AreaChart
            {...common}
            data={conversations}
            type="percent"
            yAxisProps={{}}
            series={conversationSeries}
            withDots={false}
            // No lines: in a percent stack the top series' line sits at 100% even when it is 0 (all human
            // read as 'Chatbot de fluxo' at 100%); the filled bands alone show the shares.
            strokeWidth={0}
            fillOpacity={0.6}
            withGradient={false}
            aria-label={L.chartOf(L.conversationDistribution)}
          />
        ) : (
          <BarChart
            {...common}
            data={conversations}
            type="percent"
            yAxisProps={{}}
            series={conversationSeries}
            maxBarWidth={48}
            aria-label={L.chartOf(L.conversationDistribution)}
          />
        )}
      </ChartCard>
      <ChartCard title={L.messageDistribution} wide>
        {area ? (
          <AreaChart
            {...common}
            data={messageDays}
            type="stacked"
            series={messageSeries}
            withDots={false}
            valueFormatter={formatCount}
            aria-label={L.chartOf(L.messageDistribution)}
          />
        ) : (
          <BarChart
            {...common}
            data={messageDays}
            type="stacked"
            series={messageSeries}
            valueFormatter={formatCount}
            maxBarWidth={48}
            aria-label={L.chartOf(L.messageDistribution)}
          />
        )}
      </ChartCard>
      <ChartCard title={L.chipDistribution}>
        <Donut
          items={chip_distribution.map((c) => ({ name: c._id, all: c.all }))}
          title={L.chipDistribution}
        />
      </ChartCard>
    </SimpleGrid>
  );
}
