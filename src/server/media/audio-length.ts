// An audio's length in whole seconds, for the conversation list's preview ('Áudio (0:12)'). music-metadata
// reads it from the file's own headers (MP3 frames, Ogg pages, MP4 boxes), without decoding it. A file it
// cannot read has no known length (null): the preview then says 'Áudio' as before.
import { parseBuffer } from 'music-metadata';

/** Longer is not a voice message (WhatsApp's limit is 16 MB): a wrong reading. */
const MAX_SECONDS = 24 * 3600;

export async function audioSeconds(bytes: Buffer, mime?: string): Promise<number | null> {
  try {
    const { format } = await parseBuffer(bytes, mime ? { mimeType: mime } : undefined, {
      duration: true,
      skipCovers: true,
    });
    const seconds = format.duration;
    return seconds && Number.isFinite(seconds) && seconds > 0 && seconds < MAX_SECONDS
      ? Math.max(1, Math.round(seconds))
      : null;
  } catch {
    return null;
  }
}
