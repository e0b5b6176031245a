import type { Handlers } from '../../http/context';
import { createTeamUser, listTeam, updateTeamUser } from './team.service';

export const teamHandlers = {
  'get-team-users': (_p, ctx) => listTeam(ctx.services, ctx.actor),
  'create-team-user': (p, ctx) => createTeamUser(ctx.services, ctx.actor, p),
  'update-team-user': (p, ctx) => updateTeamUser(ctx.services, ctx.actor, p),
} satisfies Handlers;
