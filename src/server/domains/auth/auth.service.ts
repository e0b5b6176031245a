// Sign-in: sessions with opaque bearer tokens, admin login, failed-login limits, password recovery.
import {
  PASSWORD_RESET_TTL_MS,
  SESSION_TTL_REMEMBER_MS,
  SESSION_TTL_SHORT_MS,
} from '../../../shared/constants';
import type { Payload } from '../../../shared/contract';
import { newId } from '../../../shared/ids';
import { messages } from '../../../shared/messages';
import type { Db } from '../../db';
import { AppError } from '../../http/errors';
import type { Services } from '../../services';
import type { AccountRow, UserRow } from '../users/users.repo';
import { usersRepo } from '../users/users.repo';
import { toUserAnswer } from '../users/users.service';
import { authRepo } from './auth.repo';
import { burnVerify, hashPassword, verifyPassword } from './passwords';
import { hashToken, newToken } from './tokens';

export type AuthUser = UserRow & { account: AccountRow; actingAdminId: string | null };

export async function authenticate(
  db: Db,
  token: string,
): Promise<{ user: AuthUser; sessionId: string } | null> {
  if (token.length > 200) return null;
  const row = await authRepo.findSessionByTokenHash(db, hashToken(token));
  if (!row) return null;
  return {
    sessionId: row.session.id,
    user: { ...row.user, account: row.account, actingAdminId: row.session.actingAdminId },
  };
}

/** Opens a session for `who` and answers what `auth` answers: the token, its expiry and the user. */
async function startSession(
  { db, config }: Services,
  who: { user: UserRow; account: AccountRow },
  opts: { remember: boolean; actingAdminId?: string; userAgent: string },
) {
  const token = newToken();
  const expiresAt = new Date(Date.now() + (opts.remember ? SESSION_TTL_REMEMBER_MS : SESSION_TTL_SHORT_MS));
  await authRepo.insertSession(db, {
    id: newId(),
    tokenHash: hashToken(token),
    userId: who.user.id,
    actingAdminId: opts.actingAdminId ?? null,
    expiresAt,
    userAgent: opts.userAgent,
  });
  return {
    token,
    expires_at: expiresAt.toISOString(),
    user: toUserAnswer(who.user, who.account, {
      serverAddress: config.serverAddress,
      actingAdmin: Boolean(opts.actingAdminId),
    }),
  };
}

/** Refuses with 429 while the IP or the e-mail is over its limit; answers whether the e-mail has failures. */
async function guardAttempts(services: Services, ipKey: string, emailKey: string) {
  const { db, config } = services;
  const window = config.LOGIN_FAILURE_WINDOW_MINUTES;
  const rows = await authRepo.currentFailures(db, [ipKey, emailKey], window);
  const blocked = rows.filter(
    (r) =>
      r.count >= (r.key === ipKey ? config.LOGIN_MAX_FAILURES_PER_IP : config.LOGIN_MAX_FAILURES_PER_EMAIL),
  );
  if (blocked.length > 0) {
    const until = Math.max(...blocked.map((b) => b.windowStart.getTime() + window * 60_000));
    throw new AppError(
      messages.tooManyLoginAttempts(Math.max(1, Math.ceil((until - Date.now()) / 60_000))),
      429,
    );
  }
  return rows.some((r) => r.key === emailKey);
}

/** Verifies, or spends the same time when there is no such user (no user enumeration by timing). */
async function checkPassword(passwordHash: string | undefined, password: string) {
  if (passwordHash === undefined) {
    await burnVerify(password);
    return false;
  }
  return verifyPassword(passwordHash, password);
}

export async function login(
  services: Services,
  p: Payload<'auth'> & { email: string; password: string },
  ctx: { ip: string; userAgent: string },
) {
  const { db, config } = services;
  const ipKey = `ip:${ctx.ip}`;
  const emailKey = `email:${p.email}`;
  const keys = [ipKey, emailKey];
  const emailHasFailures = await guardAttempts(services, ipKey, emailKey);
  // A success forgives the e-mail's failures (not the IP's).
  const forgive = () => (emailHasFailures ? authRepo.clearFailures(db, emailKey) : undefined);

  const failed = async (message: string): Promise<never> => {
    await authRepo.recordFailure(db, keys, config.LOGIN_FAILURE_WINDOW_MINUTES);
    throw new AppError(message);
  };

  // Admin login: the admin's own e-mail and password open a session on the customer's account.
  if (p.admin_login) {
    if (!p.customer_email) throw new AppError(messages.fillAllFields);
    const admin = await usersRepo.findActiveByEmail(db, p.email);
    const valid = await checkPassword(admin?.user.passwordHash, p.password);
    if (!admin?.user.admin || !valid) return failed(messages.adminInvalidCredentials);
    const customer = await usersRepo.findActiveByEmail(db, p.customer_email);
    if (!customer) throw new AppError(messages.customerNotFound);
    await forgive();
    return startSession(services, customer, {
      remember: false,
      actingAdminId: admin.user.id,
      userAgent: ctx.userAgent,
    });
  }

  const found = await usersRepo.findActiveByEmail(db, p.email);
  if (!found || !(await checkPassword(found.user.passwordHash, p.password))) {
    return failed(messages.invalidCredentials);
  }
  await forgive();
  return startSession(services, found, { remember: p.remember ?? false, userAgent: ctx.userAgent });
}

export const logout = (db: Db, sessionId: string) => authRepo.revokeSession(db, sessionId);

export async function changePassword(
  db: Db,
  user: AuthUser,
  sessionId: string,
  oldPassword: string,
  password: string,
) {
  if (!(await verifyPassword(user.passwordHash, oldPassword))) throw new AppError(messages.wrongOldPassword);
  await usersRepo.update(db, user.id, { passwordHash: await hashPassword(password) });
  await authRepo.revokeUserSessions(db, user.id, sessionId);
}

/** Mails a one-time link valid for 1 hour. Answers the same whether or not the e-mail exists. */
export async function sendPasswordRecovery(services: Services, email: string) {
  const found = await usersRepo.findActiveByEmail(services.db, email);
  if (!found) return;
  const token = newToken();
  await authRepo.insertPasswordReset(services.db, {
    id: newId(),
    tokenHash: hashToken(token),
    userId: found.user.id,
    expiresAt: new Date(Date.now() + PASSWORD_RESET_TTL_MS),
  });
  const link = `${services.config.publicUrl}/redefinir-senha?token=${token}`;
  await services.mail.send({
    to: found.user.email,
    subject: 'Redefinição de senha',
    text: [
      `Olá, ${found.user.name}!`,
      '',
      'Recebemos um pedido para redefinir a sua senha. Para criar uma nova senha, abra o link abaixo:',
      link,
      '',
      'O link vale por 1 hora e só pode ser usado uma vez. Se você não pediu a redefinição, ignore este e-mail.',
    ].join('\n'),
  });
}

export async function resetPassword(db: Db, token: string, password: string) {
  const userId = await authRepo.consumePasswordReset(db, hashToken(token));
  if (!userId) throw new AppError(messages.resetLinkInvalid);
  await usersRepo.update(db, userId, { passwordHash: await hashPassword(password) });
  await authRepo.revokeUserSessions(db, userId);
}
