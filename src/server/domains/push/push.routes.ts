import type { Handlers } from '../../http/context';
import { subscribe, unsubscribe, vapidKeys } from './push.service';

export const pushHandlers = {
  'get-push-key': async (_p, ctx) => ({ public_key: (await vapidKeys(ctx.services.db)).publicKey }),
  'subscribe-push': async (p, ctx) => {
    await subscribe(ctx.services, ctx.actor, p, ctx.userAgent || null);
    return { subscribed: true };
  },
  'unsubscribe-push': async (p, ctx) => {
    await unsubscribe(ctx.services, ctx.actor, p.endpoint);
    return { subscribed: false };
  },
} satisfies Handlers;
