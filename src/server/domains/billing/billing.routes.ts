import type { Handlers } from '../../http/context';
import { financialDashboard } from './financial';
import { createOffer, listOffers, updateOffer } from './offers.service';

export const billingHandlers = {
  'get-guru-offers': (p, ctx) => listOffers(ctx.services.db, p.query),
  'create-guru-offer': (p, ctx) => createOffer(ctx.services.db, p),
  'update-guru-offer': (p, ctx) => updateOffer(ctx.services.db, p),
  'get-financial-dashboard-data': (_p, ctx) =>
    financialDashboard(ctx.services.db, ctx.services.clock?.now() ?? new Date()),
} satisfies Handlers;
