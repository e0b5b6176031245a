import type { Handlers } from '../../http/context';
import { createTeamUser, listTeam, updateTeamUser } from './team.service';

export const teamHandlers = {
  'get-team-users': (_p, ctx) => listTeam(ctx.services.db, ctx.user.accountId),
  'create-team-user': (p, ctx) => createTeamUser(ctx.services.db, ctx.user.accountId, p),
  'update-team-user': (p, ctx) => updateTeamUser(ctx.services.db, ctx.user.accountId, p),
} satisfies Handlers;
