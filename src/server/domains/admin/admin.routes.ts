import { staffActor } from '../../access';
import type { Handlers } from '../../http/context';
import {
  addAccountWaba,
  adminCreateChip,
  adminDeleteChip,
  adminRegisterPhoneNumber,
  adminSetChipStatus,
  changeCustomerPassword,
  getAccountUsage,
  getCustomers,
  officialChipsOf,
  updateAccount,
  wabaPhoneNumbers,
} from './admin.service';

// Platform staff act over every account: each call acts as the StaffActor (refused to anyone else).
export const adminHandlers = {
  'get-customers': (p, ctx) => getCustomers(ctx.services, staffActor(ctx.user), p),
  'change-customer-password': (p, ctx) =>
    changeCustomerPassword(ctx.services, staffActor(ctx.user), { ...p, currentSessionId: ctx.sessionId }),
  'get-account-usage': (p, ctx) => getAccountUsage(ctx.services, staffActor(ctx.user), p.account),
  'update-account': (p, ctx) => updateAccount(ctx.services, staffActor(ctx.user), p),
  'get-official-chips-of-account': (p, ctx) => officialChipsOf(ctx.services, staffActor(ctx.user), p.account),
  'add-account-waba': (p, ctx) => addAccountWaba(ctx.services, staffActor(ctx.user), p),
  'get-waba-phone-numbers': (p, ctx) => wabaPhoneNumbers(ctx.services, staffActor(ctx.user), p),
  'admin-create-chip': (p, ctx) => adminCreateChip(ctx.services, staffActor(ctx.user), p),
  'admin-register-phone-number': (p, ctx) => adminRegisterPhoneNumber(ctx.services, staffActor(ctx.user), p),
  'admin-set-chip-status': (p, ctx) => adminSetChipStatus(ctx.services, staffActor(ctx.user), p),
  'admin-delete-chip': (p, ctx) => adminDeleteChip(ctx.services, staffActor(ctx.user), p._id),
  'get-meta-signup-config': async (_p, ctx) => {
    const { config } = ctx.services;
    return {
      app_id: config.WHATSAPP_APP_ID ?? null,
      config_id: config.WHATSAPP_SIGNUP_CONFIG_ID ?? null,
      graph_version: config.WHATSAPP_GRAPH_VERSION,
    };
  },
} satisfies Handlers;
