// The dashboards' pickers (the pt-BR range calendar, the chip list): @mantine/dates, dayjs, the combobox and
// @floating-ui, some 45 KiB gzipped that the first paint of a dashboard does without. They load after it
// (dashboard-parts.tsx draws their look meanwhile).
import '@mantine/dates/styles.css';
import { Select, type SelectProps } from '@mantine/core';
import { DatePickerInput, type DatesRangeValue } from '@mantine/dates';
import { IconCalendarEvent } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useEffect, useRef, useState } from 'react';
import { PtBrDates } from '@/app/ui/PtBrDates';
import type { DashboardInterval } from '@/shared/contract/dashboard';
import { messages } from '@/shared/messages';
import { dashboardLabels as L } from '@/shared/messages-dashboard';

export interface PeriodPickerProps {
  value: DashboardInterval;
  onChange(next: DashboardInterval): void;
  /** The interval the buttons fall back to when the range is cleared. */
  fallback: DashboardInterval;
  width: string | number;
}

/** The custom range (pt-BR calendar, up to today): both ends picked replace the buttons' choice. */
export function PeriodPicker({
  value,
  onChange,
  fallback,
  width,
  defaultOpened,
}: PeriodPickerProps & { defaultOpened?: boolean }) {
  // The range being picked (its first day alone, until the second is clicked); a button's choice empties it.
  const [range, setRange] = useState<DatesRangeValue<string>>([null, null]);
  useEffect(() => {
    if (typeof value === 'number') setRange([null, null]);
  }, [value]);
  // Pressed before it loaded: it opens as it arrives (the picker has no prop for that).
  const input = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (defaultOpened) input.current?.click();
  }, [defaultOpened]);
  const pick = (next: DatesRangeValue<string>) => {
    setRange(next);
    const [start, end] = next;
    if (start && end)
      onChange({ start: dayjs(start).format('YYYY-MM-DD'), end: dayjs(end).format('YYYY-MM-DD') });
    else if (!start && !end) onChange(fallback);
  };
  return (
    <PtBrDates>
      <DatePickerInput
        ref={input}
        type="range"
        size="xs"
        aria-label={L.period}
        placeholder={L.periodPlaceholder}
        leftSection={<IconCalendarEvent size={16} aria-hidden />}
        valueFormat="DD/MM/YYYY"
        value={range}
        onChange={pick}
        maxDate={dayjs().format('YYYY-MM-DD')}
        clearable
        allowSingleDateInRange
        getDayAriaLabel={(date) => dayjs(date).format('DD/MM/YYYY')}
        ariaLabels={messages.dateAriaLabels}
        w={width}
      />
    </PtBrDates>
  );
}

/** A dashboard's choice list (the chip): Mantine's Select, opened at once if pressed before it loaded. */
export function ChoiceSelect({ defaultOpened, ...props }: SelectProps & { defaultOpened?: boolean }) {
  return <Select {...props} defaultDropdownOpened={defaultOpened} />;
}
