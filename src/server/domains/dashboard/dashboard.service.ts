// The dashboards' calls (spec 3 §2.1, §2.2, §3 Dashboard data, §7). Access is the contract's (area dashboard;
// system role tech_dashboard), checked before a handler runs. Here: the interval resolved in the account's
// time zone (rules/dashboard-interval.ts), the chip checked to be the account's, the attendant's departments
// (departmentCondition), and the database's grouped counts shaped into cards and charts with every day of the
// interval present (zeros filled). Counting rules: README 'Dashboard numbers'; who served a conversation: the
// one definition of shared/rules/service-kind.ts, for the live cards, the report and the technical dashboard.
import type { ChipStatus } from '../../../shared/constants';
import type {
  AdminDashboardData,
  DashboardData,
  DashboardInterval,
  RealTimeCards,
  ResolvedInterval,
} from '../../../shared/contract/dashboard';
import { messages } from '../../../shared/messages';
import { DEFAULT_TIME_ZONE, daysBetween, resolveInterval } from '../../../shared/rules/dashboard-interval';
import { countsAsHuman } from '../../../shared/rules/service-kind';
import type { Actor, StaffActor, UserActor } from '../../access';
import type { Db } from '../../db';
import { AppError } from '../../http/errors';
import type { Services } from '../../services';
import { type ConversationScope, dashboardRepo as repo } from './dashboard.repo';

/** The technical dashboard's days are the platform's (every account at once). */
export const PLATFORM_TIME_ZONE = DEFAULT_TIME_ZONE;
export const LATEST_CONTACTS = 10;

function resolved(interval: DashboardInterval, timeZone: string, now: Date): ResolvedInterval {
  const r = resolveInterval(interval, timeZone, now);
  if (!r.ok) throw new AppError(r.message);
  return r.interval;
}

const nowOf = (services: Services) => services.clock?.now() ?? new Date();

/** The chip filter: -1 for every chip, else a chip of the caller's account (any other: 'Chip não encontrado.'). */
async function chipFilter(db: Db, actor: Actor, selected: string | -1): Promise<string | null> {
  if (selected === -1) return null;
  const chip = await repo.chipOfAccount(db, actor, selected);
  if (!chip) throw new AppError(messages.chipNotFound);
  return chip.id;
}

export async function getDashboardData(
  services: Services,
  actor: UserActor,
  p: { interval: DashboardInterval; selected_chip: string | -1 },
): Promise<DashboardData> {
  const { db } = services;
  const interval = resolved(p.interval, actor.user.account.timeZone, nowOf(services));
  const chipId = await chipFilter(db, actor, p.selected_chip);
  const scope: ConversationScope = {
    actor,
    start: interval.start,
    end: interval.end,
    timeZone: interval.time_zone,
    chipId,
  };
  const [counts, names, tagRows, latest] = await Promise.all([
    repo.countsByDayAndDepartment(db, scope),
    repo.departmentNames(db, actor),
    chipId ? Promise.resolve([]) : repo.tagCounts(db, scope, interval.days),
    latestContacts(db, scope),
  ]);
  const nameOf = new Map(names.map((d) => [d.id, d.name]));

  const days = daysBetween(interval.start, interval.end);
  const byDay = new Map(days.map((d) => [d, { _id: d, all: 0, chatbot: 0, manual: 0 }]));
  const cards = { all: 0, chatbot: 0, manual: 0 };
  const departmentTotals = new Map<string, number>();
  const departmentByDay = new Map<string, Map<string, number>>();
  for (const r of counts) {
    const n = Number(r.n);
    const day = days[Number(r.day) - 1] ?? '';
    const point = byDay.get(day);
    const human = countsAsHuman(r.kind);
    cards.all += n;
    if (human) cards.manual += n;
    else cards.chatbot += n;
    if (point) {
      point.all += n;
      if (human) point.manual += n;
      else point.chatbot += n;
    }
    const name = (r.department && nameOf.get(r.department)) || messages.noDepartment;
    departmentTotals.set(name, (departmentTotals.get(name) ?? 0) + n);
    const perDay = departmentByDay.get(name) ?? new Map<string, number>();
    perDay.set(day, (perDay.get(day) ?? 0) + n);
    departmentByDay.set(name, perDay);
  }
  // The departments, most conversations first (then by name); without one last.
  const departmentNames = [...departmentTotals.keys()].sort((a, b) => {
    if (a === messages.noDepartment) return 1;
    if (b === messages.noDepartment) return -1;
    return (departmentTotals.get(b) ?? 0) - (departmentTotals.get(a) ?? 0) || a.localeCompare(b, 'pt-BR');
  });
  const chartDepartments = days.map((d) => {
    const point: { _id: string } & Record<string, number | string> = { _id: d };
    for (const name of departmentNames) point[name] = departmentByDay.get(name)?.get(d) ?? 0;
    return point as DashboardData['conversation_chart_departments'][number];
  });

  return {
    interval,
    conversation_cards: cards,
    conversation_chart: [...byDay.values()],
    departments: departmentNames,
    conversation_chart_departments: chartDepartments,
    department_distribution: departmentNames.map((name) => ({
      name,
      all: departmentTotals.get(name) ?? 0,
    })),
    tag_distribution: tagRows.map((t) => ({ name: t.name, all: Number(t.n), color: t.color })),
    latest_contacts: latest,
  };
}

/**
 * The LATEST_CONTACTS contacts whose latest conversation of the interval is the most recent: the first
 * distinct contacts among the latest conversations (a short read backwards on the index), or, when a few
 * contacts hold all of those, every contact's latest, grouped.
 */
async function latestContacts(db: Db, scope: ConversationScope): Promise<DashboardData['latest_contacts']> {
  const window = LATEST_CONTACTS * 20;
  const recent = await repo.latestConversations(db, scope, window);
  const latest = new Map<string, string>();
  for (const r of recent) if (!latest.has(r.contact_id)) latest.set(r.contact_id, r.created);
  let picked = [...latest].slice(0, LATEST_CONTACTS);
  if (picked.length < LATEST_CONTACTS && recent.length === window)
    picked = (await repo.latestPerContact(db, scope, LATEST_CONTACTS)).map((r) => [r.contact_id, r.created]);
  const rows = await repo.contactsByIds(
    db,
    scope.actor,
    picked.map(([id]) => id),
  );
  const byId = new Map(rows.map((c) => [c.id, c]));
  return picked.flatMap(([id, created]) => {
    const c = byId.get(id);
    return c
      ? [
          {
            _id: c.id,
            name: c.name,
            override_name: c.override_name,
            phone: c.phone,
            profile_picture: c.profile_picture,
            created: new Date(created).toISOString(),
          },
        ]
      : [];
  });
}

export async function getRealTimeData(
  services: Services,
  actor: Actor,
  p: { selected_chip: string | -1 },
): Promise<RealTimeCards> {
  const chipId = await chipFilter(services.db, actor, p.selected_chip);
  const row = await repo.openCounts(services.db, { actor, chipId });
  const all = Number(row.all);
  const manual = Number(row.manual);
  return { all, waiting_response: Number(row.waiting), chatbot: all - manual, manual };
}

export async function getAdminDashboardData(
  services: Services,
  staff: StaffActor,
  p: { interval: DashboardInterval },
): Promise<AdminDashboardData> {
  const interval = resolved(p.interval, PLATFORM_TIME_ZONE, nowOf(services));
  const { db } = services;
  const { start, end, time_zone: tz } = interval;
  const [conversationRows, messageRows, platform] = await Promise.all([
    repo.adminConversations(db, staff, start, end, tz),
    repo.adminMessages(db, staff, start, end, tz),
    repo.platformNow(db, staff),
  ]);
  const days = daysBetween(start, end);
  const conversationsByDay = new Map(
    days.map((d) => [d, { _id: d, human: 0, ai_chatbot: 0, flow_chatbot: 0 }]),
  );
  const messagesByDay = new Map(days.map((d) => [d, { _id: d, user: 0, chatbot: 0, customer: 0 }]));
  const cards = {
    conversations_all: 0,
    conversations_chatbot: 0,
    conversations_manual: 0,
    accounts_active: platform.accountsActive,
    chips_connected: 0,
    messages_all: 0,
    messages_chatbot: 0,
    messages_manual: 0,
  };
  for (const r of conversationRows) {
    const n = Number(r.n);
    cards.conversations_all += n;
    if (countsAsHuman(r.kind)) cards.conversations_manual += n;
    else cards.conversations_chatbot += n;
    const point = conversationsByDay.get(days[Number(r.day) - 1] ?? '');
    if (point) point[r.kind] += n;
  }
  for (const r of messageRows) {
    if (r.origin !== 'user' && r.origin !== 'chatbot' && r.origin !== 'customer') continue;
    const n = Number(r.n);
    cards.messages_all += n;
    if (r.origin === 'user') cards.messages_manual += n;
    if (r.origin === 'chatbot') cards.messages_chatbot += n;
    const point = messagesByDay.get(days[Number(r.day) - 1] ?? '');
    if (point) point[r.origin] += n;
  }
  // Chips by their status as the chips screen names it (Conectado, Desconectado, Conectando, Configurar).
  const byLabel = new Map<string, number>();
  for (const r of platform.chipsByStatus) {
    const n = Number(r.n);
    if (r.status === 'open') cards.chips_connected += n;
    const label = messages.chipStatusLabels[r.status as ChipStatus] ?? r.status;
    byLabel.set(label, (byLabel.get(label) ?? 0) + n);
  }
  return {
    interval,
    admin_cards: cards,
    admin_charts: {
      conversations: [...conversationsByDay.values()],
      messages: [...messagesByDay.values()],
      chip_distribution: [...byLabel.entries()]
        .map(([label, all]) => ({ _id: label, all }))
        .sort((a, b) => b.all - a.all || a._id.localeCompare(b._id, 'pt-BR')),
    },
  };
}

/** Users with a live socket now, on every process (the adapter's fetchSockets); simulator pages aside. */
export async function getOnlineUsers(services: Services, actor: UserActor) {
  const sockets = await services.realtime.io.fetchSockets();
  // The user asking is online, socket or not yet (the page asks before its socket has connected).
  const users = new Set<string>([actor.userId]);
  for (const s of sockets) if (!s.data.simulatorRoom && s.data.userId) users.add(s.data.userId);
  return { count: users.size };
}
