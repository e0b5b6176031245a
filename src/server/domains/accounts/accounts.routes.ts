import { messages } from '../../../shared/messages';
import type { Handlers } from '../../http/context';
import { AppError } from '../../http/errors';
import { hashPassword } from '../auth/passwords';
import { usersRepo } from '../users/users.repo';
import { toUserAnswer } from '../users/users.service';
import { createAccount, newApiKey, subscriptionOf } from './accounts.service';

export const accountsHandlers = {
  'create-user': async (p, ctx) => {
    const { db, config } = ctx.services;
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
  },
  'get-guru-subscription': async (_p, ctx) => {
    const s = await subscriptionOf(ctx.services.db, ctx.actor);
    return { last_status: s?.lastStatus ?? 'none', invoices: s?.invoices ?? [] };
  },
  'update-api-key': async (_p, ctx) => {
    // Plan gate (spec 1 §6): the API needs more than one channel.
    if (ctx.user.account.maxChannels <= 1) throw new AppError(messages.planNeedsMoreChannels);
    const apiKey = newApiKey();
    await usersRepo.updateAccount(ctx.services.db, ctx.actor.accountId, { apiKey });
    return { api_key: apiKey };
  },
} satisfies Handlers;
