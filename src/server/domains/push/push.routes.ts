import type { Handlers } from '../../http/context';
import { subscribe, unsubscribe, vapidKeys } from './push.service';

export const pushHandlers = {
  'get-push-key': async (_p, ctx) => ({ public_key: (await vapidKeys(ctx.services.db)).publicKey }),
  'subscribe-push': async (p, ctx) => {
    await subscribe(ctx.services.db, ctx.user, p, ctx.userAgent || null);
    return { subscribed: true };
  },
  'unsubscribe-push': async (p, ctx) => {
    await unsubscribe(ctx.services.db, ctx.user.id, p.endpoint);
    return { subscribed: false };
  },
} satisfies Handlers;
