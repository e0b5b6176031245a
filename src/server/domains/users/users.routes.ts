import { messages } from '../../../shared/messages';
import type { Handlers, SignedInContext } from '../../http/context';
import { AppError } from '../../http/errors';
import { usersRepo } from './users.repo';
import { toUserAnswer } from './users.service';

async function currentUser(ctx: SignedInContext) {
  const found = await usersRepo.findById(ctx.services.db, ctx.user.id);
  if (!found) throw new AppError(messages.notFound);
  return toUserAnswer(found.user, found.account, {
    serverAddress: ctx.services.config.serverAddress,
    actingAdmin: ctx.user.actingAdminId !== null,
  });
}

const PICTURE_TYPES = ['image/jpeg', 'image/png'] as const;

export const usersHandlers = {
  'get-user': (_p, ctx) => currentUser(ctx),
  'update-user': async (p, ctx) => {
    await usersRepo.update(ctx.services.db, ctx.user.id, {
      ...(p.name !== undefined && { name: p.name }),
      ...(p.phone !== undefined && { phone: p.phone }),
    });
    return currentUser(ctx);
  },
  'update-user-config': async (p, ctx) => {
    await usersRepo.update(ctx.services.db, ctx.user.id, {
      ...(p.disable_notification_sound !== undefined && {
        disableNotificationSound: p.disable_notification_sound,
      }),
      ...(p.user_signature !== undefined && { userSignature: p.user_signature }),
    });
    return currentUser(ctx);
  },
  'upload-profile-picture': async (_p, ctx) => {
    const file = ctx.file;
    if (!file || file.buffer.length === 0) throw new AppError(messages.fileRequired);
    const type = await ctx.services.media.sniff(file.buffer, PICTURE_TYPES);
    if (!type) throw new AppError(messages.profilePictureType);
    const stored = await ctx.services.media.save(file.buffer, type.ext, type.mime);
    await usersRepo.update(ctx.services.db, ctx.user.id, { profilePicture: stored.url });
    // The replaced picture is no one's any more.
    if (ctx.user.profilePicture) await ctx.services.media.remove(ctx.user.profilePicture);
    return { url: stored.url };
  },
} satisfies Handlers;
