import { describe, expect, it } from 'vitest';
import { clock } from '@/app/widgets/media/audio/AudioRecorderDialog';
import { libraryFileError, microphoneError } from '@/app/widgets/media/media-rules';
import { messages } from '@/shared/messages';

describe('libraryFileError', () => {
  const file = (bytes: number) => new File([new Uint8Array(bytes)], 'a.png', { type: 'image/png' });
  it('asks for a file, then a name, then a size within the limit', () => {
    expect(libraryFileError(null, 'Logo', 16)).toBe(messages.fileRequired);
    expect(libraryFileError(file(10), '  ', 16)).toBe(messages.mediaNameRequired);
    expect(libraryFileError(file(1024 * 1024 + 1), 'Logo', 1)).toBe('O arquivo pode ter no máximo 1 MB.');
    expect(libraryFileError(file(1024 * 1024), 'Logo', 1)).toBeNull();
  });
});

describe('microphoneError', () => {
  it('tells a denied permission from a missing or busy microphone', () => {
    expect(microphoneError(new DOMException('x', 'NotAllowedError'))).toBe(messages.microphoneDenied);
    expect(microphoneError(new DOMException('x', 'NotFoundError'))).toBe(messages.microphoneMissing);
    expect(microphoneError(new DOMException('x', 'NotReadableError'))).toBe(messages.microphoneUnavailable);
    expect(microphoneError('??')).toBe(messages.microphoneUnavailable);
  });
});

describe('clock', () => {
  it('shows minutes and seconds', () => {
    expect(clock(0)).toBe('00:00');
    expect(clock(2.9)).toBe('00:02');
    expect(clock(75)).toBe('01:15');
  });
});
