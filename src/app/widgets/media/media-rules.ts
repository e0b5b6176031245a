// The media dialogs' checks before anything is sent (spec 2 §5 Media); the server checks again.
import { MEDIA_MAX_BYTES } from '@/shared/constants';
import { messages } from '@/shared/messages';

/** The server's default MEDIA_MAX_MB, until get-app-config answers. */
export const DEFAULT_MEDIA_MAX_MB = MEDIA_MAX_BYTES / 1024 / 1024;

/** The library upload's first problem, or null: a file, a name, and no more than the limit. */
export function libraryFileError(file: File | null, name: string, maxMb: number): string | null {
  if (!file) return messages.fileRequired;
  if (!name.trim()) return messages.mediaNameRequired;
  if (file.size > maxMb * 1024 * 1024) return messages.mediaTooLarge(maxMb);
  return null;
}

/** A clear pt-BR reason for a getUserMedia failure. */
export function microphoneError(err: unknown): string {
  const name = err instanceof DOMException || err instanceof Error ? err.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') return messages.microphoneDenied;
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return messages.microphoneMissing;
  return messages.microphoneUnavailable;
}

/** The query key of every get-medias-by-user list: invalidated after an upload or a delete. */
export const mediaListKey = ['get-medias-by-user'] as const;
