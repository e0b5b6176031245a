// Sign-in: sessions with opaque bearer tokens, admin login, failed-login limits, password recovery.
import {
  PASSWORD_RESET_TTL_MS,
  SESSION_TTL_REMEMBER_MS,
  SESSION_TTL_SHORT_MS,
} from '../../../shared/constants';
import type { Payload } from '../../../shared/contract';
import { newId } from '../../../shared/ids';
import { messages } from '../../../shared/messages';
import type { AuthUser } from '../../access';
import type { Db } from '../../db';
import type { AccountRow, UserRow } from '../../db/rows';
import { AppError } from '../../http/errors';
import { queueMail } from '../../jobs/mail';
import type { Services } from '../../services';
import { usersRepo } from '../users/users.repo';
import { toUserAnswer } from '../users/users.service';
import { authRepo } from './auth.repo';
import { burnVerify, hashPassword, verifyPassword } from './passwords';
import { hashToken, newToken } from './tokens';

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

/**
 * Takes the attempt's place in the IP's and the e-mail's counters before the password is checked, or
 * refuses with 429 while either is full: a burst of concurrent guesses gets at most the limit checked.
 */
async function reserveAttempt({ db, config }: Services, ipKey: string, emailKey: string) {
  const window = config.LOGIN_FAILURE_WINDOW_MINUTES;
  const fullUntil = await authRepo.reserve(
    db,
    [
      { key: ipKey, max: config.LOGIN_MAX_FAILURES_PER_IP },
      { key: emailKey, max: config.LOGIN_MAX_FAILURES_PER_EMAIL },
    ],
    window,
  );
  if (fullUntil) {
    const minutes = Math.max(1, Math.ceil((fullUntil.getTime() - Date.now()) / 60_000));
    throw new AppError(messages.tooManyLoginAttempts(minutes), 429);
  }
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
  const { db } = services;
  if (p.admin_login && !p.customer_email) throw new AppError(messages.fillAllFields);
  const ipKey = `ip:${ctx.ip}`;
  const emailKey = `email:${p.email}`;
  await reserveAttempt(services, ipKey, emailKey);
  // The place taken stays as a failure. The right password forgives the e-mail's failures and gives the
  // IP its place back (the IP counts failures only).
  const forgive = async () => {
    await authRepo.clearFailures(db, emailKey);
    await authRepo.giveBack(db, ipKey);
  };

  // Admin login: the admin's own e-mail and password open a session on the customer's account.
  if (p.admin_login && p.customer_email) {
    const admin = await usersRepo.findActiveByEmail(db, p.email);
    const valid = await checkPassword(admin?.user.passwordHash, p.password);
    if (!admin?.user.admin || !valid) throw new AppError(messages.adminInvalidCredentials);
    await forgive();
    const customer = await usersRepo.findActiveByEmail(db, p.customer_email);
    if (!customer) throw new AppError(messages.customerNotFound);
    return startSession(services, customer, {
      remember: false,
      actingAdminId: admin.user.id,
      userAgent: ctx.userAgent,
    });
  }

  const found = await usersRepo.findActiveByEmail(db, p.email);
  if (!found || !(await checkPassword(found.user.passwordHash, p.password))) {
    throw new AppError(messages.invalidCredentials);
  }
  await forgive();
  return startSession(services, found, { remember: p.remember ?? false, userAgent: ctx.userAgent });
}

/** Ends this session; its open sockets close at once, on every process. */
export async function logout({ db, realtime }: Services, sessionId: string) {
  await authRepo.revokeSession(db, sessionId);
  realtime.dropSession(sessionId);
}

/**
 * A new password ends the user's other sessions, and closes their open sockets. The hash and the revocation
 * are one transaction: a new password never leaves the old sessions open.
 */
export async function changePassword(
  { db, realtime }: Services,
  user: AuthUser,
  sessionId: string,
  oldPassword: string,
  password: string,
) {
  if (!(await verifyPassword(user.passwordHash, oldPassword))) throw new AppError(messages.wrongOldPassword);
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    await usersRepo.update(tx, user.id, { passwordHash });
    await authRepo.revokeUserSessions(tx, user.id, sessionId);
  });
  await realtime.dropUser(user.id, { keepSessionId: sessionId });
}

/**
 * Mails a one-time link valid for 1 hour. Answers the same whether or not the e-mail exists, and whether
 * or not a limit held the mail back: each request first takes a place per e-mail and per IP (atomically,
 * as logins do), so a burst cannot flood a mailbox.
 */
export async function sendPasswordRecovery(services: Services, email: string, ip: string) {
  const { config } = services;
  const fullUntil = await authRepo.reserve(
    services.db,
    [
      { key: `recovery:ip:${ip}`, max: config.PASSWORD_RECOVERY_MAX_PER_IP },
      { key: `recovery:email:${email}`, max: config.PASSWORD_RECOVERY_MAX_PER_EMAIL },
    ],
    config.PASSWORD_RECOVERY_WINDOW_MINUTES,
  );
  if (fullUntil) {
    services.log.warn({ email, ip }, 'password recovery over its limit: no mail sent');
    return;
  }
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
  await queueMail(services, {
    to: found.user.email,
    subject: messages.recoveryMailSubject,
    text: messages.recoveryMailText(found.user.name, link),
  });
}

/**
 * A reset ends every session of the user, and closes their open sockets. The link is used up in the same
 * transaction as the new password and the revocation: a reset that fails leaves the link usable. The hash is
 * made before (it takes a while), once the link is known to be valid.
 */
export async function resetPassword({ db, realtime }: Services, token: string, password: string) {
  const tokenHash = hashToken(token);
  if (!(await authRepo.findPasswordReset(db, tokenHash))) throw new AppError(messages.resetLinkInvalid);
  const passwordHash = await hashPassword(password);
  const userId = await db.transaction(async (tx) => {
    const id = await authRepo.consumePasswordReset(tx, tokenHash);
    // Used by a concurrent reset meanwhile.
    if (!id) throw new AppError(messages.resetLinkInvalid);
    await usersRepo.update(tx, id, { passwordHash });
    await authRepo.revokeUserSessions(tx, id);
    return id;
  });
  await realtime.dropUser(userId);
}
