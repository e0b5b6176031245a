// The signed-in user's own profile: read, edited, and its picture.
import type { User } from '../../../shared/contract';
import { messages } from '../../../shared/messages';
import type { UserActor } from '../../access';
import { AppError } from '../../http/errors';
import type { Services } from '../../services';
import { profileRepo } from './profile.repo';
import { toUserAnswer } from './users.service';

/** The signed-in user as the contract answers it (read again: the session's copy may be older). */
export async function currentUser(services: Services, actor: UserActor): Promise<User> {
  const found = await profileRepo.find(services.db, actor);
  if (!found) throw new AppError(messages.notFound);
  return toUserAnswer(found.user, found.account, {
    serverAddress: services.config.serverAddress,
    actingAdmin: actor.user.actingAdminId !== null,
  });
}

/** The user's own profile and preferences; fields left out stay as they are. */
export async function updateProfile(
  services: Services,
  actor: UserActor,
  p: { name?: string; phone?: string; disable_notification_sound?: boolean; user_signature?: boolean },
): Promise<User> {
  await profileRepo.update(services.db, actor, {
    ...(p.name !== undefined && { name: p.name }),
    ...(p.phone !== undefined && { phone: p.phone }),
    ...(p.disable_notification_sound !== undefined && {
      disableNotificationSound: p.disable_notification_sound,
    }),
    ...(p.user_signature !== undefined && { userSignature: p.user_signature }),
  });
  return currentUser(services, actor);
}

const PICTURE_TYPES = ['image/jpeg', 'image/png'] as const;

/** Stores a JPEG or PNG as the user's picture; the replaced picture is no one's any more. */
export async function setProfilePicture(
  services: Services,
  actor: UserActor,
  file: { buffer: Buffer } | null,
) {
  if (!file || file.buffer.length === 0) throw new AppError(messages.fileRequired);
  const type = await services.media.sniff(file.buffer, PICTURE_TYPES);
  if (!type) throw new AppError(messages.profilePictureType);
  const stored = await services.media.save(file.buffer, type.ext, type.mime);
  await profileRepo.update(services.db, actor, { profilePicture: stored.url });
  if (actor.user.profilePicture) await services.media.remove(actor.user.profilePicture);
  return { url: stored.url };
}
