import type { Handlers } from '../../http/context';
import { currentUser, setProfilePicture, updateProfile } from './profile.service';

// The signed-in user's own row: each call acts as that user.
export const usersHandlers = {
  'get-user': (_p, ctx) => currentUser(ctx.services, ctx.actor),
  'update-user': (p, ctx) => updateProfile(ctx.services, ctx.actor, p),
  'update-user-config': (p, ctx) => updateProfile(ctx.services, ctx.actor, p),
  'upload-profile-picture': (_p, ctx) => setProfilePicture(ctx.services, ctx.actor, ctx.file),
} satisfies Handlers;
