import { staffActor } from '../../access';
import type { Handlers } from '../../http/context';
import { financialDashboard } from './financial';
import { createOffer, listOffers, updateOffer } from './offers.service';

// Offers and the financial dashboard are platform staff's, over every account.
export const billingHandlers = {
  'get-guru-offers': (p, ctx) => listOffers(ctx.services, staffActor(ctx.user), p.query),
  'create-guru-offer': (p, ctx) => createOffer(ctx.services, staffActor(ctx.user), p),
  'update-guru-offer': (p, ctx) => updateOffer(ctx.services, staffActor(ctx.user), p),
  'get-financial-dashboard-data': (_p, ctx) =>
    financialDashboard(ctx.services, staffActor(ctx.user), ctx.services.clock?.now() ?? new Date()),
} satisfies Handlers;
