// The account's team: managers and agents. The owner row is shown but never changed through these calls.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { TeamUser } from '../../../shared/contract/configuration';
import { newId } from '../../../shared/ids';
import { messages } from '../../../shared/messages';
import { areasHeldBy } from '../../../shared/rules/access';
import { fieldError } from '../../../shared/rules/field-error';
import { prepareTeamUser, type TeamUserInput } from '../../../shared/rules/team-user';
import type { Db } from '../../db';
import { accounts, departments, users } from '../../db/schema';
import { AppError, fieldFailure } from '../../http/errors';
import { authRepo } from '../auth/auth.repo';
import { hashPassword } from '../auth/passwords';
import { usersRepo } from '../users/users.repo';

const toTeamUser = (u: typeof users.$inferSelect): TeamUser => ({
  _id: u.id,
  name: u.name,
  email: u.email,
  user_role: u.userRole,
  departments: u.departments,
  access_areas: areasHeldBy(u.userRole, u.accessAreas),
  filed: u.filed,
});

export async function listTeam(db: Db, accountId: string) {
  const rows = await db
    .select()
    .from(users)
    .where(and(eq(users.accountId, accountId), eq(users.filed, false)))
    .orderBy(sql`${users.userRole} = 'owner' desc`, users.createdAt, users.id);
  return rows.map(toTeamUser);
}

async function checkDepartments(db: Db, accountId: string, ids: string[]) {
  if (ids.length === 0) return;
  const found = await db
    .select({ id: departments.id })
    .from(departments)
    .where(
      and(eq(departments.accountId, accountId), eq(departments.filed, false), inArray(departments.id, ids)),
    );
  if (found.length !== ids.length) throw new AppError(messages.notFound);
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

export async function createTeamUser(db: Db, accountId: string, input: TeamUserInput & { _id?: string }) {
  const user = prepared(input, 'create');
  if (input._id) {
    // A repeated creation answers the user it made the first time.
    const existing = await usersRepo.findById(db, input._id);
    if (existing && existing.user.accountId === accountId && !existing.user.filed)
      return toTeamUser(existing.user);
    if (existing) throw new AppError(messages.notFound);
  }
  await checkDepartments(db, accountId, user.departments);
  if (await usersRepo.emailTaken(db, user.email))
    throw fieldFailure(fieldError('email', messages.emailInUse));
  const passwordHash = await hashPassword(input.password ?? '');
  const id = input._id ?? newId();
  await uniqueEmail(db, user.email, () =>
    db.transaction(async (tx) => {
      // The account row lock makes the plan's user limit hold under concurrent creations.
      const [account] = await tx
        .select({ maxUsers: accounts.maxUsers })
        .from(accounts)
        .where(eq(accounts.id, accountId))
        .for('update');
      // The same creation arriving twice at once: the first one made it; this one answers it.
      const [made] = await tx.select({ id: users.id }).from(users).where(eq(users.id, id));
      if (made) return;
      const [count] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(users)
        .where(and(eq(users.accountId, accountId), eq(users.filed, false)));
      const max = account?.maxUsers ?? 0;
      if ((count?.n ?? 0) >= max) throw new AppError(messages.userLimitReached(max));
      await tx.insert(users).values({
        id,
        accountId,
        name: user.name,
        email: user.email,
        passwordHash,
        userRole: user.user_role,
        departments: user.departments,
        accessAreas: user.access_areas,
      });
    }),
  );
  const found = await usersRepo.findById(db, id);
  if (!found || found.user.accountId !== accountId) throw new AppError(messages.notFound);
  return toTeamUser(found.user);
}

export async function updateTeamUser(
  db: Db,
  accountId: string,
  input: TeamUserInput & { _id: string; filed?: boolean },
) {
  const found = await usersRepo.findById(db, input._id);
  if (!found || found.user.accountId !== accountId || found.user.filed) throw new AppError(messages.notFound);
  if (found.user.userRole === 'owner') throw new AppError(messages.ownerProtected);

  if (input.filed) {
    // Filed and signed out together: never a deleted user with a live session.
    await db.transaction(async (tx) => {
      await usersRepo.update(tx, input._id, { filed: true });
      await authRepo.revokeUserSessions(tx, input._id);
    });
    return { ...toTeamUser(found.user), filed: true };
  }
  const user = prepared(input, 'update');
  await checkDepartments(db, accountId, user.departments);
  if (user.email !== found.user.email.toLowerCase() && (await usersRepo.emailTaken(db, user.email))) {
    throw fieldFailure(fieldError('email', messages.emailInUse));
  }
  await uniqueEmail(db, user.email, () =>
    usersRepo.update(db, input._id, {
      name: user.name,
      email: user.email,
      userRole: user.user_role,
      departments: user.departments,
      accessAreas: user.access_areas,
    }),
  );
  const updated = await usersRepo.findById(db, input._id);
  return toTeamUser((updated as NonNullable<typeof updated>).user);
}
