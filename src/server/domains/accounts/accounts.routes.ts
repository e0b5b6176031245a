import { messages } from '../../../shared/messages';
import { planHasApi } from '../../../shared/rules/access';
import { staffActor } from '../../access';
import type { Handlers } from '../../http/context';
import { AppError } from '../../http/errors';
import { guruSubscription, openCustomerAccount, renewApiKey } from './accounts.service';

export const accountsHandlers = {
  'create-user': (p, ctx) => openCustomerAccount(ctx.services, staffActor(ctx.user), p),
  'get-guru-subscription': (_p, ctx) => guruSubscription(ctx.services, ctx.actor),
  'update-api-key': async (_p, ctx) => {
    // Plan gate (spec 1 §6): the API needs more than one channel, the app's PlanGate 'integrations' rule.
    if (!planHasApi(ctx.user.account)) throw new AppError(messages.planNeedsMoreChannels);
    return renewApiKey(ctx.services, ctx.actor);
  },
} satisfies Handlers;
