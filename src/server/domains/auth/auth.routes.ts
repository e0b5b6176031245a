import type { Handlers } from '../../http/context';
import { changePassword, login, logout, resetPassword, sendPasswordRecovery } from './auth.service';

export const authHandlers = {
  auth: (p, ctx) => login(ctx.services, p, ctx),
  logout: async (_p, ctx) => {
    await logout(ctx.services, ctx.sessionId);
    return { ok: true };
  },
  'send-password-recovery': async (p, ctx) => {
    await sendPasswordRecovery(ctx.services, p.email, ctx.ip);
    return { ok: true };
  },
  'reset-password': async (p, ctx) => {
    await resetPassword(ctx.services, p.token, p.password);
    return { ok: true };
  },
  'change-user-password': async (p, ctx) => {
    await changePassword(ctx.services, ctx.user, ctx.sessionId, p.old_password, p.password);
    return { ok: true };
  },
} satisfies Handlers;
