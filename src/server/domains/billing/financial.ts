// The financial dashboard (spec 3 §2.3, §3 Dashboard data: financial, §9), computed from the ledger
// (billing_events, with its running day totals billing_days kept in each event's transaction) and the Guru
// subscriptions: the day totals give days and months, the ledger the 30 days' cycles; the arithmetic is
// `financialFigures`, a pure function (README, 'Billing: the arithmetic'):
// - days are local days of America/Sao_Paulo; today is 1 day, week 7, two weeks 14, month 30 (today included);
// - a sale is an approved transaction: 'new' on its first charge, 'old' (a recurrence) after; refunds count
//   on the day they came; net = new + recurrences − refunds; money is integer cents of BRL;
// - averages: two weeks ÷ 14, week ÷ 7, month ÷ 30; projections: the two-week average × 7 and × 30; each
//   projection's difference is 100 − (the period just past ÷ the projection) in percent (green at 0 or more).
import type { FinancialDashboardData } from '../../../shared/contract/billing';
import { platformJob, type StaffActor } from '../../access';
import type { Db } from '../../db';
import type { Services } from '../../services';
import { billingRepo } from './billing.repo';

export const FINANCE_TIME_ZONE = 'America/Sao_Paulo';
/** The longest daily window (the daily revenue chart). */
const DAILY_WINDOW = 60;
const MONTHS = 12;

export interface DayBucket {
  day: string;
  newCount: number;
  newCents: number;
  oldCount: number;
  oldCents: number;
  refundCents: number;
  cancelCount: number;
}

export interface FinancialInput {
  today: string;
  days: DayBucket[];
  months: { month: string; incomeCents: number; refundCents: number }[];
  cycles: { cycle: number; count: number }[];
  realTime: { active: number; pastdue: number; canceled: number };
  /** Subscriptions active when the 30-day window opened, and the starts and cancellations of each day in it. */
  activeBefore: number;
  activeDays: { day: string; started: number; canceled: number }[];
}

/** 'YYYY-MM-DD' of `date` in the time zone. */
export const localDay = (date: Date, timeZone = FINANCE_TIME_ZONE) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    date,
  );

export function addDays(day: string, n: number) {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

const addMonths = (month: string, n: number) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m - 1 + n, 1)).toISOString().slice(0, 7);
};

/** The `count` days ending on `last`, oldest first. */
const daysEnding = (last: string, count: number) =>
  Array.from({ length: count }, (_, i) => addDays(last, i - count + 1));

const round1 = (n: number) => Math.round(n * 10) / 10;

/** 100 − reference ÷ projection, in percent (spec 3 §9). No projection: 0 when nothing either, else −100. */
export function projectionDifference(reference: number, projection: number) {
  if (projection === 0) return reference === 0 ? 0 : -100;
  return round1(100 - (reference / projection) * 100);
}

export function financialFigures(input: FinancialInput): FinancialDashboardData {
  const { today } = input;
  const byDay = new Map(input.days.map((b) => [b.day, b]));
  const empty: DayBucket = {
    day: '',
    newCount: 0,
    newCents: 0,
    oldCount: 0,
    oldCents: 0,
    refundCents: 0,
    cancelCount: 0,
  };
  const at = (day: string) => byDay.get(day) ?? empty;
  const sum = (count: number, pick: (b: DayBucket) => number) =>
    daysEnding(today, count).reduce((s, d) => s + pick(at(d)), 0);
  const income = (count: number) => {
    const newCents = sum(count, (b) => b.newCents);
    const oldCents = sum(count, (b) => b.oldCents);
    const refunds = sum(count, (b) => b.refundCents);
    return {
      new_clients: newCents,
      old_clients: oldCents,
      total: newCents + oldCents,
      net: newCents + oldCents - refunds,
    };
  };
  const week = income(7);
  const month = income(30);
  const twoWeeks = income(14).total;
  const pace = twoWeeks / 14;

  const incomeOf = (d: string) => at(d).newCents + at(d).oldCents;
  const thisMonth = today.slice(0, 7);
  const monthDays: string[] = [];
  for (let d = `${thisMonth}-01`; d.startsWith(thisMonth); d = addDays(d, 1)) monthDays.push(d);
  let realized = 0;
  const projection = monthDays.map((d) => {
    if (d <= today) {
      realized += incomeOf(d);
      return { _id: d, realized, projected: d === today ? realized : null };
    }
    const ahead = Math.round(realized + pace * (Number(d.slice(8)) - Number(today.slice(8))));
    return { _id: d, realized: null, projected: ahead };
  });

  const monthsList = Array.from({ length: MONTHS }, (_, i) => addMonths(thisMonth, i - MONTHS + 1));
  const byMonth = new Map(input.months.map((m) => [m.month, m]));
  const activeByDay = new Map(input.activeDays.map((a) => [a.day, a]));
  let active = input.activeBefore;

  return {
    real_time: input.realTime,
    sell_status: {
      today: sum(1, (b) => b.newCount),
      week: sum(7, (b) => b.newCount),
      month: sum(30, (b) => b.newCount),
    },
    sell_income: { today: income(1), week, month, two_weeks: { total: twoWeeks } },
    refunds: {
      today: { total: sum(1, (b) => b.refundCents) },
      week: { total: sum(7, (b) => b.refundCents) },
      month: { total: sum(30, (b) => b.refundCents) },
    },
    averages: {
      two_weeks: Math.round(pace),
      week: Math.round(week.total / 7),
      month: Math.round(month.total / 30),
    },
    projections: {
      week: { value: Math.round(pace * 7), difference: projectionDifference(week.total, pace * 7) },
      month: { value: Math.round(pace * 30), difference: projectionDifference(month.total, pace * 30) },
    },
    charts: {
      sell_type_chart: daysEnding(today, 30).map((d) => ({
        _id: d,
        new: at(d).newCount,
        old: at(d).oldCount,
      })),
      month_incomes: monthsList.map((m) => ({ _id: m, total: byMonth.get(m)?.incomeCents ?? 0 })),
      month_refunds: monthsList.map((m) => ({ _id: m, total: byMonth.get(m)?.refundCents ?? 0 })),
      sell_income_chart: daysEnding(today, DAILY_WINDOW).map((d) => ({ _id: d, income: incomeOf(d) })),
      average_revenue_chart: daysEnding(today, 30).map((d) => ({
        reference_date: d,
        value: Math.round(daysEnding(d, 14).reduce((s, x) => s + incomeOf(x), 0) / 14),
      })),
      month_projection_chart: projection,
      cycle_chart: [...input.cycles]
        .sort((a, b) => a.cycle - b.cycle)
        .map((c) => ({ _id: String(c.cycle), all: c.count })),
      active_accounts_chart: daysEnding(today, 30).map((d) => {
        const a = activeByDay.get(d);
        active += (a?.started ?? 0) - (a?.canceled ?? 0);
        return { reference_date: d, value: active };
      }),
      canceled_chart: daysEnding(today, 30).map((d) => ({ _id: d, canceled: at(d).cancelCount })),
    },
    today,
  };
}

/** Reads the buckets for `now` and computes the answer. Platform staff (the financial_dashboard role). */
export async function financialDashboard(
  services: Services,
  staff: StaffActor,
  now: Date,
): Promise<FinancialDashboardData> {
  const today = localDay(now);
  const data = await billingRepo.dashboardData(services.db, staff, {
    timeZone: FINANCE_TIME_ZONE,
    today,
    tomorrow: addDays(today, 1),
    firstDay: addDays(today, -(DAILY_WINDOW - 1)),
    firstMonthDay: `${addMonths(today.slice(0, 7), -(MONTHS - 1))}-01`,
    windowStartDay: addDays(today, -29),
  });
  const count = (status: string) => data.realTime.find((r) => r.status === status)?.count ?? 0;
  return financialFigures({
    today,
    days: data.days,
    months: data.months.map((m) => ({
      ...m,
      incomeCents: Number(m.incomeCents),
      refundCents: Number(m.refundCents),
    })),
    cycles: data.cycles.map((c) => ({ cycle: Number(c.cycle), count: c.count })),
    realTime: { active: count('active'), pastdue: count('pastdue'), canceled: count('canceled') },
    activeBefore: data.activeBefore,
    activeDays: data.activeDays.map((r) => ({
      day: r.day,
      started: Number(r.started),
      canceled: Number(r.canceled),
    })),
  });
}

/**
 * Recomputes billing_days from the ledger (after an import, or to check the running totals), in one
 * transaction: the platform's own upkeep.
 */
export const rebuildBillingDays = (db: Db) =>
  billingRepo.rebuildDays(db, platformJob('rebuild-billing-days'), FINANCE_TIME_ZONE);
