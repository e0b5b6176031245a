// Billing (spec 3 §2.3, §2.5, §3 Guru offer and Dashboard data: financial, §5 Offer, §7, §9): the Guru offers
// (system role customer_admin) and the financial dashboard (system role financial_dashboard). Money is integer
// cents of BRL everywhere; the arithmetic is src/server/domains/billing/financial.ts (README, 'Billing').
import { z } from 'zod';
import { id } from './common';
import { defineCall } from './define';

// The payload is only typed here; prepareOffer (../rules/offer.ts) gives the messages, on both sides.
const limit = z.number();

/** The plan fields of a Guru offer (spec 3 §3). */
export const offerFields = {
  name: z.string().max(120).default(''),
  /** Guru's offer id (product.offer.id in its webhooks); empty: not tied to a Guru offer yet. */
  offer_id: z.string().max(120).default(''),
  max_channels: limit,
  max_official_channels: limit,
  max_users: limit,
  max_flows: limit,
  max_summaries: limit,
  max_follow_ups: limit,
  campaigns_enabled: z.boolean(),
};

export const guruOffer = z.object({
  _id: id,
  name: z.string(),
  offer_id: z.string(),
  max_channels: z.number().int(),
  max_official_channels: z.number().int(),
  max_users: z.number().int(),
  max_flows: z.number().int(),
  max_summaries: z.number().int(),
  max_follow_ups: z.number().int(),
  campaigns_enabled: z.boolean(),
  created: z.string(),
});
export type GuruOffer = z.infer<typeof guruOffer>;

const day = z.string();
const cents = z.number();
const periodIncome = z.object({
  new_clients: cents,
  old_clients: cents,
  total: cents,
  /** total minus the period's refunds. */
  net: cents,
});
const projection = z.object({
  /** The two-week daily average × the period's days (7 or 30), in cents. */
  value: cents,
  /** 100 − (the period just past ÷ the projection) in percent, one decimal: green at 0 or more (spec 3 §9). */
  difference: z.number(),
});
const referencePoint = z.object({ reference_date: day, value: z.number() });

/** get-financial-dashboard-data's answer (spec 3 §3 Dashboard data: financial); days in America/Sao_Paulo. */
export const financialDashboardData = z.object({
  real_time: z.object({ active: z.number().int(), pastdue: z.number().int(), canceled: z.number().int() }),
  sell_status: z.object({ today: z.number().int(), week: z.number().int(), month: z.number().int() }),
  sell_income: z.object({
    today: periodIncome,
    week: periodIncome,
    month: periodIncome,
    two_weeks: z.object({ total: cents }),
  }),
  refunds: z.object({
    today: z.object({ total: cents }),
    week: z.object({ total: cents }),
    month: z.object({ total: cents }),
  }),
  /** Daily averages (spec 3 §9): two weeks ÷ 14, week ÷ 7, month ÷ 30, in cents (rounded). */
  averages: z.object({ two_weeks: cents, week: cents, month: cents }),
  projections: z.object({ week: projection, month: projection }),
  charts: z.object({
    sell_type_chart: z.array(z.object({ _id: day, new: z.number().int(), old: z.number().int() })),
    month_incomes: z.array(z.object({ _id: z.string(), total: cents })),
    month_refunds: z.array(z.object({ _id: z.string(), total: cents })),
    sell_income_chart: z.array(z.object({ _id: day, income: cents })),
    average_revenue_chart: z.array(referencePoint),
    /** The current month, day by day: cumulative income to today, then projected at the 14-day average. */
    month_projection_chart: z.array(
      z.object({ _id: day, realized: cents.nullable(), projected: cents.nullable() }),
    ),
    cycle_chart: z.array(z.object({ _id: z.string(), all: z.number().int() })),
    active_accounts_chart: z.array(referencePoint),
    canceled_chart: z.array(z.object({ _id: day, canceled: z.number().int() })),
  }),
  /** The local day the figures end on ('YYYY-MM-DD'). */
  today: day,
});
export type FinancialDashboardData = z.infer<typeof financialDashboardData>;

const manageOffers = { systemRole: 'customer_admin' } as const;

export const billingCalls = {
  /** The offers by name; `query` matches the name ignoring accents and case (spec 3 §2.5). */
  'get-guru-offers': defineCall({
    access: manageOffers,
    payload: z.object({ query: z.string().max(120).default('') }),
    answer: z.array(guruOffer),
  }),
  /** 'Oferta salva com sucesso'. */
  'create-guru-offer': defineCall({
    access: manageOffers,
    payload: z.object(offerFields),
    answer: guruOffer,
  }),
  'update-guru-offer': defineCall({
    access: manageOffers,
    payload: z.object({ _id: id, ...offerFields }),
    answer: guruOffer,
  }),
  'get-financial-dashboard-data': defineCall({
    access: { systemRole: 'financial_dashboard' },
    payload: z.object({}),
    answer: financialDashboardData,
  }),
};
