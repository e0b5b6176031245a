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

export const adminHandlers = {
  'get-customers': (p, ctx) => getCustomers(ctx.services.db, p),
  'change-customer-password': (p, ctx) => changeCustomerPassword(ctx, p),
  'get-account-usage': (p, ctx) => getAccountUsage(ctx.services.db, p.account),
  'update-account': (p, ctx) => updateAccount(ctx.services.db, p),
  'get-official-chips-of-account': (p, ctx) => officialChipsOf(ctx.services.db, p.account),
  'add-account-waba': (p, ctx) => addAccountWaba(ctx.services, p),
  'get-waba-phone-numbers': (p, ctx) => wabaPhoneNumbers(ctx.services, p),
  'admin-create-chip': (p, ctx) => adminCreateChip(ctx.services, p),
  'admin-register-phone-number': (p, ctx) => adminRegisterPhoneNumber(ctx.services, p),
  'admin-set-chip-status': (p, ctx) => adminSetChipStatus(ctx.services, p),
  'admin-delete-chip': (p, ctx) => adminDeleteChip(ctx.services, p._id),
  'get-meta-signup-config': async (_p, ctx) => {
    const { config } = ctx.services;
    return {
      app_id: config.WHATSAPP_APP_ID ?? null,
      config_id: config.WHATSAPP_SIGNUP_CONFIG_ID ?? null,
      graph_version: config.WHATSAPP_GRAPH_VERSION,
    };
  },
} satisfies Handlers;
