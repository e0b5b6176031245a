// The account's team: managers and agents. The owner row is shown but never changed through these calls.
import type { TeamUser } from '../../../shared/contract/configuration';
import { newId } from '../../../shared/ids';
import { messages } from '../../../shared/messages';
import { areasHeldBy } from '../../../shared/rules/access';
import { fieldError } from '../../../shared/rules/field-error';
import { prepareTeamUser, type TeamUserInput } from '../../../shared/rules/team-user';
import type { Actor } from '../../access';
import type { Db } from '../../db';
import { AppError, fieldFailure } from '../../http/errors';
import type { Services } from '../../services';
import { authRepo } from '../auth/auth.repo';
import { hashPassword } from '../auth/passwords';
import { allDepartmentsActive } from '../departments/departments.repo';
import { usersRepo } from '../users/users.repo';
import { type TeamUserRow, teamRepo } from './team.repo';

const toTeamUser = (u: TeamUserRow): TeamUser => ({
  _id: u.id,
  name: u.name,
  email: u.email,
  user_role: u.userRole,
  departments: u.departments,
  access_areas: areasHeldBy(u.userRole, u.accessAreas),
  filed: u.filed,
});

export async function listTeam(services: Services, actor: Actor) {
  return (await teamRepo.list(services.db, actor)).map(toTeamUser);
}

async function checkDepartments(db: Db, actor: Actor, ids: string[]) {
  if (!(await allDepartmentsActive(db, actor, ids))) throw new AppError(messages.notFound);
}

function prepared(input: TeamUserInput, mode: 'create' | 'update') {
  const r = prepareTeamUser(input, mode);
  if (!r.ok) throw fieldFailure(r.error);
  return r.user;
}

/** Two requests with one e-mail at once: the unique index decides, the loser gets the clear message. */
async function uniqueEmail<T>(db: Db, email: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (await usersRepo.emailTaken(db, email)) throw fieldFailure(fieldError('email', messages.emailInUse));
    throw e;
  }
}

export async function createTeamUser(
  services: Services,
  actor: Actor,
  input: TeamUserInput & { _id?: string },
) {
  const { db } = services;
  const user = prepared(input, 'create');
  if (input._id) {
    // A repeated creation answers the user it made the first time.
    const existing = await teamRepo.find(db, actor, input._id);
    if (existing && !existing.filed) return toTeamUser(existing);
    if (existing) throw new AppError(messages.notFound);
  }
  await checkDepartments(db, actor, user.departments);
  if (await usersRepo.emailTaken(db, user.email))
    throw fieldFailure(fieldError('email', messages.emailInUse));
  const passwordHash = await hashPassword(input.password ?? '');
  const id = input._id ?? newId();
  const refused = await uniqueEmail(db, user.email, () =>
    teamRepo.createWithinPlan(db, actor, id, {
      name: user.name,
      email: user.email,
      passwordHash,
      userRole: user.user_role,
      departments: user.departments,
      accessAreas: user.access_areas,
    }),
  );
  if (refused) throw new AppError(messages.userLimitReached(refused.max));
  // An id taken in another account is not found here.
  const found = await teamRepo.find(db, actor, id);
  if (!found) throw new AppError(messages.notFound);
  return toTeamUser(found);
}

async function saveTeamUser(
  services: Services,
  actor: Actor,
  input: TeamUserInput & { _id: string; filed?: boolean },
) {
  const { db } = services;
  const found = await teamRepo.find(db, actor, input._id);
  if (!found || found.filed) throw new AppError(messages.notFound);
  if (found.userRole === 'owner') throw new AppError(messages.ownerProtected);

  if (input.filed) {
    // Filed and signed out together: never a deleted user with a live session.
    await db.transaction(async (tx) => {
      await teamRepo.update(tx, actor, input._id, { filed: true });
      await authRepo.revokeUserSessions(tx, input._id);
    });
    return { ...toTeamUser(found), filed: true };
  }
  const user = prepared(input, 'update');
  await checkDepartments(db, actor, user.departments);
  if (user.email !== found.email.toLowerCase() && (await usersRepo.emailTaken(db, user.email))) {
    throw fieldFailure(fieldError('email', messages.emailInUse));
  }
  await uniqueEmail(db, user.email, () =>
    teamRepo.update(db, actor, input._id, {
      name: user.name,
      email: user.email,
      userRole: user.user_role,
      departments: user.departments,
      accessAreas: user.access_areas,
    }),
  );
  const updated = await teamRepo.find(db, actor, input._id);
  if (!updated) throw new AppError(messages.notFound);
  return toTeamUser(updated);
}

/**
 * Changes or deletes a team user; the user's open sockets follow at once: new departments' conversations in,
 * old ones out, and the dashboard's hints as the areas now allow (a deleted user's are closed).
 */
export async function updateTeamUser(
  services: Services,
  actor: Actor,
  input: TeamUserInput & { _id: string; filed?: boolean },
) {
  const updated = await saveTeamUser(services, actor, input);
  const { realtime } = services;
  if (updated.filed) await realtime.dropUser(updated._id);
  else {
    await realtime.refreshUser({
      id: updated._id,
      accountId: actor.accountId,
      userRole: updated.user_role,
      departments: updated.departments,
      accessAreas: updated.access_areas,
    });
  }
  realtime.toAccount(actor.accountId, { type: 'user_updated', message: { _id: updated._id } });
  return updated;
}
