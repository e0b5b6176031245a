// What both dashboards share (spec 3 §2.1, §2.2, §9): the interval buttons with the pt-BR range picker, the
// number cards, the server's error as a toast. No chart here: @mantine/charts loads with the charts' own
// chunk (dashboard-charts.tsx), after the cards.
import {
  Button,
  ComboboxChevron,
  Group,
  Input,
  InputBase,
  Paper,
  SimpleGrid,
  Skeleton,
  Text,
} from '@mantine/core';
import { IconCalendarEvent } from '@tabler/icons-react';
import { type ReactNode, useRef } from 'react';
import { deferredPart } from '@/app/ui/lazy-dialog';
import { useIsMobile } from '@/app/ui/use-is-mobile';
import type {
  DASHBOARD_INTERVALS,
  DashboardInterval,
  DEFAULT_DASHBOARD_INTERVAL,
  ResolvedInterval,
} from '@/shared/contract/dashboard';
import { dashboardLabels as L } from '@/shared/messages-dashboard';
import type { PeriodPickerProps } from './dashboard-pickers';

const pickers = () => import('./dashboard-pickers');

/** The range picker after the first paint; meanwhile its look, a press on which opens it as it arrives. */
const PeriodPicker = deferredPart<PeriodPickerProps>(
  () => pickers().then((m) => m.PeriodPicker),
  ({ width, onIntent, onOpen }) => (
    <InputBase
      component="button"
      type="button"
      size="xs"
      pointer
      aria-label={L.period}
      leftSection={<IconCalendarEvent size={16} aria-hidden />}
      w={width}
      onPointerEnter={onIntent}
      onFocus={onIntent}
      onClick={onOpen}
    >
      <Input.Placeholder>{L.periodPlaceholder}</Input.Placeholder>
    </InputBase>
  ),
);

/** A choice list (the chip) after the first paint; meanwhile its look with the chosen label. */
export const ChoiceSelect = deferredPart<{
  label: string;
  data: { value: string; label: string }[];
  value: string;
  onChange(value: string | null): void;
  leftSection: ReactNode;
  w: Record<string, number | string>;
  allowDeselect?: boolean;
  size?: 'xs';
  comboboxProps?: { withinPortal: boolean };
}>(
  () => pickers().then((m) => m.ChoiceSelect),
  ({ label, data, value, leftSection, w, onIntent, onOpen }) => (
    <InputBase
      component="button"
      type="button"
      size="xs"
      pointer
      label={label}
      leftSection={leftSection}
      rightSection={<ComboboxChevron size="xs" />}
      rightSectionPointerEvents="none"
      w={w}
      onPointerEnter={onIntent}
      onFocus={onIntent}
      onClick={onOpen}
    >
      {data.find((d) => d.value === value)?.label}
    </InputBase>
  ),
);

// The contract's interval buttons and default, checked against it at compile time: importing its values
// would bring zod (its schemas) into this chunk for two constants.
export const INTERVALS = [1, 7, 30, 90, 180, 365] as const satisfies typeof DASHBOARD_INTERVALS;
export const DEFAULT_INTERVAL: typeof DEFAULT_DASHBOARD_INTERVAL = 7;

const numbers = new Intl.NumberFormat('pt-BR');
export const formatCount = (n: number) => numbers.format(n);

/** 'YYYY-MM-DD' as the screen writes it: 'DD/MM/YYYY'. */
export const dayLabel = (day: string) => day.split('-').reverse().join('/');

/**
 * The interval buttons (Hoje … 1 ano; on a phone three a row) and the custom range (pt-BR calendar, up to
 * today). A range with both ends picked replaces the buttons' choice; clearing it goes back to 7 dias.
 */
export function IntervalControl({
  value,
  onChange,
  days = INTERVALS,
}: {
  value: DashboardInterval;
  onChange(next: DashboardInterval): void;
  days?: readonly number[];
}) {
  const mobile = useIsMobile();
  const buttons = days.map((n) => (
    <Button
      key={n}
      size="xs"
      variant={value === n ? 'filled' : 'default'}
      aria-pressed={value === n}
      onClick={() => onChange(n)}
    >
      {L.intervals[n]}
    </Button>
  ));
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      {mobile ? (
        <SimpleGrid cols={3} spacing={6} w="100%" role="group" aria-label={L.intervalGroup}>
          {buttons}
        </SimpleGrid>
      ) : (
        <Group gap={6} role="group" aria-label={L.intervalGroup}>
          {buttons}
        </Group>
      )}
      <PeriodPicker
        value={value}
        onChange={onChange}
        fallback={DEFAULT_INTERVAL}
        width={mobile ? '100%' : 230}
      />
    </Group>
  );
}

/** The range the server used (after clamping), under the buttons. */
export function IntervalShown({ interval }: { interval: ResolvedInterval | undefined }) {
  if (!interval) return null;
  return (
    <Text fz="sm" c="dimmed" role="status">
      {L.periodShown(dayLabel(interval.start), dayLabel(interval.end))}
    </Text>
  );
}

/**
 * One number with its label; a group named by the label (tests and screen readers find it by name). `row`:
 * on a phone, label and number on one line (the groups whose cards stack one under the other).
 */
export function StatCard({
  label,
  value,
  icon,
  color,
  row,
}: {
  label: string;
  value: number | undefined;
  icon?: ReactNode;
  color?: string;
  row?: boolean;
}) {
  const mobile = useIsMobile();
  const number =
    value === undefined ? (
      <Skeleton h={26} w={row && mobile ? 60 : '50%'} mt={row && mobile ? 0 : 6} />
    ) : (
      <Text fz={row && mobile ? 20 : 26} fw={700} lh={1.2} mt={row && mobile ? 0 : 4} c={color}>
        {formatCount(value)}
      </Text>
    );
  const glyph = icon && (
    <Text c={color} lh={0} component="span" aria-hidden>
      {icon}
    </Text>
  );
  if (row && mobile)
    return (
      <Paper withBorder radius="md" px="sm" py={8} role="group" aria-label={label} miw={0}>
        <Group justify="space-between" wrap="nowrap" gap="sm">
          <Group gap={8} wrap="nowrap" miw={0}>
            {glyph}
            <Text fz="sm" c="dimmed" fw={600} lh={1.3}>
              {label}
            </Text>
          </Group>
          {number}
        </Group>
      </Paper>
    );
  return (
    <Paper withBorder radius="md" p="sm" role="group" aria-label={label} miw={0}>
      <Group justify="space-between" wrap="nowrap" gap={6} align="flex-start">
        <Text fz="xs" c="dimmed" fw={600} lh={1.3}>
          {label}
        </Text>
        {glyph}
      </Group>
      {number}
    </Paper>
  );
}

/** A section's title over its cards. */
export function SectionTitle({ children }: { children: ReactNode }) {
  return (
    <Text fz="sm" fw={700} tt="uppercase" c="dimmed">
      {children}
    </Text>
  );
}

export { useErrorToast } from '@/app/ui/use-error-toast';

/**
 * The last answer that came: a refused interval (a toast says why) leaves the last report on the screen,
 * with the range it covers written under the buttons, rather than an empty page.
 */
export function useLastAnswer<T>(data: T | undefined): T | undefined {
  const last = useRef(data);
  if (data !== undefined) last.current = data;
  return data ?? last.current;
}
