import type { Handlers } from '../../http/context';
import {
  getAdminDashboardData,
  getDashboardData,
  getOnlineUsers,
  getRealTimeData,
} from './dashboard.service';

export const dashboardHandlers = {
  'get-dashboard-data': (p, ctx) => getDashboardData(ctx, p),
  'get-dashboard-real-time-data': (p, ctx) => getRealTimeData(ctx, p),
  'get-admin-dashboard-data': (p, ctx) => getAdminDashboardData(ctx, p),
  'get-online-users': (_p, ctx) => getOnlineUsers(ctx),
} satisfies Handlers;
