import { describe, expect, it } from 'vitest';
import { checkPasswordChange, checkProfilePicture } from '@/app/features/profile/profile-rules';
import { messages } from '@/shared/messages';

describe('profile checks (spec 1 §5)', () => {
  it('password change: all three fields, matching, at least 6 characters', () => {
    expect(checkPasswordChange({ old: '', next: 'abcdef', confirm: 'abcdef' })).toBe(
      messages.profileFillAllFields,
    );
    expect(checkPasswordChange({ old: 'x', next: '', confirm: '' })).toBe(messages.profileFillAllFields);
    expect(checkPasswordChange({ old: 'x', next: 'abcdef', confirm: 'abcdeg' })).toBe(
      messages.passwordsDontMatch,
    );
    expect(checkPasswordChange({ old: 'x', next: 'abc', confirm: 'abc' })).toBe(
      messages.teamPasswordTooShort,
    );
    expect(checkPasswordChange({ old: 'x', next: 'abcdef', confirm: 'abcdef' })).toBeNull();
  });

  it('photo: JPG or PNG, at most 2 MB', () => {
    const MB = 1024 * 1024;
    expect(checkProfilePicture({ type: 'image/png', size: 2 * MB })).toBeNull();
    expect(checkProfilePicture({ type: 'image/jpeg', size: 10 })).toBeNull();
    expect(checkProfilePicture({ type: 'image/png', size: 2 * MB + 1 })).toBe(messages.profilePictureSize);
    expect(checkProfilePicture({ type: 'image/gif', size: 10 })).toBe(messages.profilePictureType);
    expect(checkProfilePicture({ type: 'image/svg+xml', size: 10 })).toBe(messages.profilePictureType);
  });
});
