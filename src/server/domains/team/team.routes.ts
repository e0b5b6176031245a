import type { Handlers } from '../../http/context';
import { createTeamUser, listTeam, updateTeamUser } from './team.service';

export const teamHandlers = {
  'get-team-users': (_p, ctx) => listTeam(ctx.services, ctx.actor),
  'create-team-user': (p, ctx) => createTeamUser(ctx.services, ctx.actor, p),
  'update-team-user': async (p, ctx) => {
    const updated = await updateTeamUser(ctx.services, ctx.actor, p);
    const { realtime } = ctx.services;
    // The user's open sockets follow at once: new departments' conversations in, old ones out, and the
    // dashboard's hints as the areas now allow.
    if (updated.filed) await realtime.dropUser(updated._id);
    else {
      await realtime.refreshUser({
        id: updated._id,
        accountId: ctx.actor.accountId,
        userRole: updated.user_role,
        departments: updated.departments,
        accessAreas: updated.access_areas,
      });
    }
    realtime.toAccount(ctx.actor.accountId, { type: 'user_updated', message: { _id: updated._id } });
    return updated;
  },
} satisfies Handlers;
