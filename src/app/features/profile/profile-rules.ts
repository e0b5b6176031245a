// The profile's checks (spec 1 §5, §9), made before anything is sent.
import { MIN_PASSWORD_LENGTH, PROFILE_PICTURE_MAX_BYTES } from '@/shared/constants';
import { messages } from '@/shared/messages';

export interface PasswordChange {
  old: string;
  next: string;
  confirm: string;
}

/** The three validations of the password change: all filled, matching, long enough. */
export function checkPasswordChange({ old, next, confirm }: PasswordChange): string | null {
  if (!old || !next || !confirm) return messages.profileFillAllFields;
  if (next !== confirm) return messages.passwordsDontMatch;
  if (next.length < MIN_PASSWORD_LENGTH) return messages.teamPasswordTooShort;
  return null;
}

export const PROFILE_PICTURE_TYPES = ['image/jpeg', 'image/png'];

/** JPG or PNG, at most 2 MB (the server checks the bytes again). */
export function checkProfilePicture(file: { type: string; size: number }): string | null {
  if (!PROFILE_PICTURE_TYPES.includes(file.type)) return messages.profilePictureType;
  if (file.size > PROFILE_PICTURE_MAX_BYTES) return messages.profilePictureSize;
  return null;
}
