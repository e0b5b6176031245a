// The dashboards' interval (src/shared/rules/dashboard-interval.ts): the buttons, custom ranges and their
// refusals, today read in the account's time zone (not UTC).
import { describe, expect, it } from 'vitest';
import { DASHBOARD_INTERVALS, MAX_DASHBOARD_RANGE_DAYS } from '@/shared/contract/dashboard';
import { dashboardMessages as M } from '@/shared/messages-dashboard';
import { dayNumber, daysBetween, localDay, resolveInterval } from '@/shared/rules/dashboard-interval';

const SP = 'America/Sao_Paulo';
// 2026-03-10 02:30 UTC is still 2026-03-09 23:30 in São Paulo (UTC-3).
const lateEvening = new Date('2026-03-10T02:30:00Z');
const noon = new Date('2026-03-10T15:00:00Z');

const ok = (r: ReturnType<typeof resolveInterval>) => {
  if (!r.ok) throw new Error(r.message);
  return r.interval;
};
const refusal = (r: ReturnType<typeof resolveInterval>) => (r.ok ? null : r.message);

describe('localDay and day numbers', () => {
  it('reads the day in the time zone, not UTC', () => {
    expect(localDay(lateEvening, SP)).toBe('2026-03-09');
    expect(localDay(lateEvening, 'UTC')).toBe('2026-03-10');
    expect(localDay(new Date('2026-03-10T03:00:00Z'), SP)).toBe('2026-03-10');
  });
  it('refuses days that do not exist', () => {
    expect(dayNumber('2026-02-29')).toBeNull();
    expect(dayNumber('2024-02-29')).not.toBeNull();
    expect(dayNumber('2026-13-01')).toBeNull();
    expect(dayNumber('2026-1-01')).toBeNull();
    expect(dayNumber('ontem')).toBeNull();
  });
  it('lists every day of a range, across a month and a year', () => {
    expect(daysBetween('2025-12-30', '2026-01-02')).toEqual([
      '2025-12-30',
      '2025-12-31',
      '2026-01-01',
      '2026-01-02',
    ]);
    expect(daysBetween('2026-02-27', '2026-03-01')).toEqual(['2026-02-27', '2026-02-28', '2026-03-01']);
  });
});

describe('resolveInterval', () => {
  it('a button is the N local days ending today, 1 being today only', () => {
    expect(ok(resolveInterval(1, SP, lateEvening))).toEqual({
      start: '2026-03-09',
      end: '2026-03-09',
      days: 1,
      time_zone: SP,
    });
    expect(ok(resolveInterval(7, SP, noon))).toMatchObject({
      start: '2026-03-04',
      end: '2026-03-10',
      days: 7,
    });
    for (const n of DASHBOARD_INTERVALS) expect(ok(resolveInterval(n, SP, noon)).days).toBe(n);
    expect(ok(resolveInterval(365, SP, noon))).toMatchObject({ start: '2025-03-11', end: '2026-03-10' });
  });
  it('refuses any other number', () => {
    for (const n of [0, 2, -7, 366, 7.5])
      expect(refusal(resolveInterval(n, SP, noon))).toBe(M.intervalInvalid);
  });
  it('a range holds both its days', () => {
    expect(ok(resolveInterval({ start: '2026-02-01', end: '2026-02-28' }, SP, noon))).toEqual({
      start: '2026-02-01',
      end: '2026-02-28',
      days: 28,
      time_zone: SP,
    });
    expect(ok(resolveInterval({ start: '2026-03-10', end: '2026-03-10' }, SP, noon)).days).toBe(1);
  });
  it('clamps a range that ends in the future to today (in the time zone)', () => {
    expect(ok(resolveInterval({ start: '2026-03-01', end: '2026-04-30' }, SP, lateEvening))).toMatchObject({
      start: '2026-03-01',
      end: '2026-03-09',
      days: 9,
    });
  });
  it('refuses bad ranges with the catalogue message', () => {
    expect(refusal(resolveInterval({ start: '2026-02-30', end: '2026-03-01' }, SP, noon))).toBe(
      M.dateInvalid,
    );
    expect(refusal(resolveInterval({ start: '2026-03-01', end: 'amanhã' }, SP, noon))).toBe(M.dateInvalid);
    expect(refusal(resolveInterval({ start: '2026-03-05', end: '2026-03-01' }, SP, noon))).toBe(
      M.rangeReversed,
    );
    // Today in São Paulo is still the 9th: the 10th has not started there.
    expect(refusal(resolveInterval({ start: '2026-03-10', end: '2026-03-12' }, SP, lateEvening))).toBe(
      M.rangeInFuture,
    );
  });
  it('accepts up to MAX_DASHBOARD_RANGE_DAYS days and refuses one more', () => {
    const end = '2026-03-10';
    const first = (dayNumber(end) as number) - MAX_DASHBOARD_RANGE_DAYS + 1;
    const start = new Date(first * 86_400_000).toISOString().slice(0, 10);
    expect(ok(resolveInterval({ start, end }, SP, noon)).days).toBe(MAX_DASHBOARD_RANGE_DAYS);
    const before = new Date((first - 1) * 86_400_000).toISOString().slice(0, 10);
    expect(refusal(resolveInterval({ start: before, end }, SP, noon))).toBe(M.rangeTooLong);
  });
  it('an unknown time zone falls back to São Paulo', () => {
    expect(ok(resolveInterval(1, 'Mars/Olympus', lateEvening))).toMatchObject({
      start: '2026-03-09',
      time_zone: SP,
    });
  });
});
