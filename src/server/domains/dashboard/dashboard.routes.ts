import { staffActor } from '../../access';
import type { Handlers } from '../../http/context';
import {
  getAdminDashboardData,
  getDashboardData,
  getOnlineUsers,
  getRealTimeData,
} from './dashboard.service';

export const dashboardHandlers = {
  'get-dashboard-data': (p, ctx) => getDashboardData(ctx.services, ctx.actor, p),
  'get-dashboard-real-time-data': (p, ctx) => getRealTimeData(ctx.services, ctx.actor, p),
  'get-admin-dashboard-data': (p, ctx) => getAdminDashboardData(ctx.services, staffActor(ctx.user), p),
  'get-online-users': (_p, ctx) => getOnlineUsers(ctx.services, ctx.actor),
} satisfies Handlers;
