import type { Handlers } from '../../http/context';
import { listFollowUps, updateFollowUp } from './follow-ups.service';

export const followUpsHandlers = {
  'get-follow-ups': (_p, ctx) => listFollowUps(ctx.services, ctx.actor),
  'update-follow-up': (p, ctx) => updateFollowUp(ctx.services, ctx.actor, p),
} satisfies Handlers;
