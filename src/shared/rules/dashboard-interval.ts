// The dashboards' interval (spec 3 §2.1, §9; README 'Dashboard numbers'), resolved to local days of a time
// zone: a button (1, 7, 30, 90, 180, 365) means the N local days ending today, 1 being today only; a custom
// range {start, end} holds both local days. A range that ends in the future is clamped to today; a reversed,
// too long, malformed or not yet started one is refused with the catalogue's pt-BR message. Pure: `now` is
// given, and today is read with Intl in the time zone (no date library).
import {
  DASHBOARD_INTERVALS,
  type DashboardInterval,
  MAX_DASHBOARD_RANGE_DAYS,
  type ResolvedInterval,
} from '../contract/dashboard';
import { dashboardMessages } from '../messages-dashboard';

export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo';

export type IntervalResult = { ok: true; interval: ResolvedInterval } | { ok: false; message: string };

const DAY_MS = 86_400_000;

/** Whether Intl knows the IANA zone. */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** The local day 'YYYY-MM-DD' of an instant in a time zone. */
export function localDay(instant: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(instant);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** The day number (days since 1970-01-01) of a valid 'YYYY-MM-DD', or null. */
export function dayNumber(day: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  // 2026-02-30 rolls over to March: not a date.
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return ms / DAY_MS;
}

/** The 'YYYY-MM-DD' of a day number. */
export const dayOfNumber = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);

/** Every local day from start to end, both included (the charts' points). */
export function daysBetween(start: string, end: string): string[] {
  const a = dayNumber(start);
  const b = dayNumber(end);
  if (a === null || b === null) return [];
  const out: string[] = [];
  for (let n = a; n <= b; n++) out.push(dayOfNumber(n));
  return out;
}

/** Resolves the interval in `timeZone` (an unknown zone falls back to São Paulo's) at `now`. */
export function resolveInterval(
  interval: DashboardInterval,
  timeZone: string,
  now: Date = new Date(),
): IntervalResult {
  const tz = isTimeZone(timeZone) ? timeZone : DEFAULT_TIME_ZONE;
  const todayDay = localDay(now, tz);
  const today = dayNumber(todayDay) as number;
  const done = (start: number, end: number): IntervalResult => ({
    ok: true,
    interval: { start: dayOfNumber(start), end: dayOfNumber(end), days: end - start + 1, time_zone: tz },
  });
  if (typeof interval === 'number') {
    if (!(DASHBOARD_INTERVALS as readonly number[]).includes(interval))
      return { ok: false, message: dashboardMessages.intervalInvalid };
    return done(today - interval + 1, today);
  }
  const start = dayNumber(interval.start);
  const end = dayNumber(interval.end);
  if (start === null || end === null) return { ok: false, message: dashboardMessages.dateInvalid };
  if (start > end) return { ok: false, message: dashboardMessages.rangeReversed };
  if (end - start + 1 > MAX_DASHBOARD_RANGE_DAYS)
    return { ok: false, message: dashboardMessages.rangeTooLong };
  if (start > today) return { ok: false, message: dashboardMessages.rangeInFuture };
  return done(start, Math.min(end, today));
}
