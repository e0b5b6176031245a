// Accounts and their owners. A new account starts with the smallest plan; admins raise limits later.
import { randomBytes } from 'node:crypto';
import type { User } from '../../../shared/contract';
import { newId } from '../../../shared/ids';
import { messages } from '../../../shared/messages';
import { type Actor, type StaffActor, systemActor } from '../../access';
import type { Db } from '../../db';
import { AppError } from '../../http/errors';
import type { Services } from '../../services';
import { hashPassword } from '../auth/passwords';
import { usersRepo } from '../users/users.repo';
import { toUserAnswer } from '../users/users.service';
import { accountsRepo, type NewAccount } from './accounts.repo';

export type { NewAccount } from './accounts.repo';

export const newApiKey = () => randomBytes(24).toString('base64url');

/** Creates account, owner and subscription in one transaction; answers the new ids. */
export async function createAccount(db: Db, input: NewAccount) {
  const opening = systemActor(newId(), 'account-opening');
  const ownerId = newId();
  await accountsRepo.open(db, opening, ownerId, input);
  return { accountId: opening.accountId, ownerId };
}

/** Platform staff (the admin flag, by the call's access) open a customer's account with its owner. */
export async function openCustomerAccount(
  services: Services,
  _staff: StaffActor,
  p: { name: string; email: string; password: string; phone?: string | null; account_name?: string | null },
): Promise<User> {
  const { db, config } = services;
  if (await usersRepo.emailTaken(db, p.email)) throw new AppError(messages.emailInUse);
  const { ownerId } = await createAccount(db, {
    account: { name: p.account_name ?? p.name },
    owner: {
      name: p.name,
      email: p.email,
      phone: p.phone ?? '',
      passwordHash: await hashPassword(p.password),
    },
  }).catch(async (e: unknown) => {
    // Two concurrent creations with one e-mail: the unique index decides, the loser gets the clear message.
    if (await usersRepo.emailTaken(db, p.email)) throw new AppError(messages.emailInUse);
    throw e;
  });
  const created = await usersRepo.findById(db, ownerId);
  if (!created) throw new AppError(messages.notFound);
  return toUserAnswer(created.user, created.account, {
    serverAddress: config.serverAddress,
    actingAdmin: false,
  });
}

/** The account's subscription (billing status and invoices), 'none' before the first one. */
export async function guruSubscription(services: Services, actor: Actor) {
  const s = await accountsRepo.subscription(services.db, actor);
  return { last_status: s?.lastStatus ?? 'none', invoices: s?.invoices ?? [] };
}

/** A new API key for the account; the old one stops working. */
export async function renewApiKey(services: Services, actor: Actor) {
  const apiKey = newApiKey();
  await accountsRepo.update(services.db, actor, { apiKey });
  return { api_key: apiKey };
}
