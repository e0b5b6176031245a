// The dashboards (spec 3 §2.1, §2.2, §3 Dashboard data, §7): the attendant dashboard of one account (access
// area dashboard) and the technical dashboard across every account (system role tech_dashboard). Counting
// rules (README, 'Dashboard numbers'): a conversation counts once, on the day it was opened, in the account's
// time zone; it counts as human when it was ever handed to human service, as chatbot otherwise.
import { z } from 'zod';
import { messages } from '../messages';
import { id } from './common';
import { defineCall } from './define';

/** The interval buttons (spec 3 §9): Hoje, 7 dias, 30 dias, 3 meses, 6 meses, 1 ano. Default 7. */
export const DASHBOARD_INTERVALS = [1, 7, 30, 90, 180, 365] as const;
export const DEFAULT_DASHBOARD_INTERVAL = 7;
/** The longest custom range, in days (about 2 years): a longer one is refused with a pt-BR message. */
export const MAX_DASHBOARD_RANGE_DAYS = 731;

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, messages.dateInvalid);

/**
 * The interval: a number of days ending today (one of the buttons), or a custom range of local days, both
 * ends included. A range reaching into the future is clamped to today; a reversed or too long one is refused.
 */
export const dashboardInterval = z.union([z.number().int(), z.object({ start: day, end: day })]);
export type DashboardInterval = z.infer<typeof dashboardInterval>;

/** All chips (-1, the spec's default) or one chip of the account. */
export const selectedChip = z.union([id, z.literal(-1)]).default(-1);

/** The range the server used, after clamping: local days of `time_zone`, both ends included. */
export const resolvedInterval = z.object({
  start: day,
  end: day,
  days: z.number().int(),
  time_zone: z.string(),
});
export type ResolvedInterval = z.infer<typeof resolvedInterval>;

const counts = { all: z.number().int(), chatbot: z.number().int(), manual: z.number().int() };

/** One day of a chart: `_id` is the local day 'YYYY-MM-DD'. */
export const conversationPoint = z.object({ _id: day, ...counts });

/** One day of the department chart: `_id` plus one count per department name (spec 3 §3). */
export const departmentPoint = z.object({ _id: day }).catchall(z.number().int());

export const distributionItem = z.object({
  name: z.string(),
  all: z.number().int(),
  color: z.string().optional(),
});

export const latestContact = z.object({
  _id: id,
  name: z.string(),
  override_name: z.string().nullable(),
  phone: z.string(),
  profile_picture: z.string().nullable(),
  /** When the contact's latest conversation of the interval was opened (ISO). */
  created: z.string(),
});

export const dashboardData = z.object({
  interval: resolvedInterval,
  conversation_cards: z.object(counts),
  conversation_chart: z.array(conversationPoint),
  /** The department names, in the chart's order (the keys of conversation_chart_departments' points). */
  departments: z.array(z.string()),
  conversation_chart_departments: z.array(departmentPoint),
  department_distribution: z.array(distributionItem),
  /** Only with all chips (spec 3 §2.1); empty when one chip is selected. */
  tag_distribution: z.array(distributionItem),
  latest_contacts: z.array(latestContact),
});
export type DashboardData = z.infer<typeof dashboardData>;

/** The real-time cards (spec 3 §2.1): open conversations now, waiting for an answer, with a chatbot, human. */
export const realTimeCards = z.object({
  all: z.number().int(),
  waiting_response: z.number().int(),
  chatbot: z.number().int(),
  manual: z.number().int(),
});
export type RealTimeCards = z.infer<typeof realTimeCards>;

/** The technical dashboard (spec 3 §2.2, §3): every account. */
export const adminDashboardData = z.object({
  interval: resolvedInterval,
  admin_cards: z.object({
    conversations_all: z.number().int(),
    conversations_chatbot: z.number().int(),
    conversations_manual: z.number().int(),
    accounts_active: z.number().int(),
    chips_connected: z.number().int(),
    messages_all: z.number().int(),
    messages_chatbot: z.number().int(),
    messages_manual: z.number().int(),
  }),
  admin_charts: z.object({
    conversations: z.array(
      z.object({
        _id: day,
        human: z.number().int(),
        ai_chatbot: z.number().int(),
        flow_chatbot: z.number().int(),
      }),
    ),
    messages: z.array(
      z.object({ _id: day, user: z.number().int(), chatbot: z.number().int(), customer: z.number().int() }),
    ),
    chip_distribution: z.array(z.object({ _id: z.string(), all: z.number().int() })),
  }),
});
export type AdminDashboardData = z.infer<typeof adminDashboardData>;

const dashboardAccess = { area: 'dashboard' } as const;
const techAccess = { systemRole: 'tech_dashboard' } as const;

export const dashboardCalls = {
  /** The report: cards, charts and latest contacts of the interval (spec 3 §7 /get-dashboard-data). */
  'get-dashboard-data': defineCall({
    access: dashboardAccess,
    payload: z.object({
      interval: dashboardInterval.default(DEFAULT_DASHBOARD_INTERVAL),
      selected_chip: selectedChip,
    }),
    answer: dashboardData,
  }),
  /** The real-time cards (spec 3 §7 /get-dashboard-real-time-data); refreshed on load_realtime events. */
  'get-dashboard-real-time-data': defineCall({
    access: dashboardAccess,
    payload: z.object({ selected_chip: selectedChip }),
    answer: realTimeCards,
  }),
  /** The technical dashboard's cards and charts across every account. */
  'get-admin-dashboard-data': defineCall({
    access: techAccess,
    payload: z.object({ interval: dashboardInterval.default(DEFAULT_DASHBOARD_INTERVAL) }),
    answer: adminDashboardData,
  }),
  /** Users with a live socket now, on every server process (spec 3 §7 'get online users'). */
  'get-online-users': defineCall({
    access: techAccess,
    payload: z.object({}),
    answer: z.object({ count: z.number().int() }),
  }),
};
