// Uploaded and received files: checked by content (magic bytes), stored under a generated name and served at
// /media/<name>. On local disk (DATA_DIR/media) by default; in an S3-compatible bucket when MEDIA_S3_BUCKET is
// set (s3.ts, imported only then: the SDK costs a default start nothing).
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config';
import { contentChecks, type MediaStore, mediaNameOf, newMediaName, storeFailed } from './store';

export type { MediaKind, MediaObject, MediaOpened, MediaStore, StoredFile } from './store';
export { mediaNameOf, mediaTypeOf } from './store';

/** Files in DATA_DIR/media, served by the static route. */
export function createLocalMediaStore(dataDir: string): MediaStore {
  const dir = path.join(dataDir, 'media');
  // Only our own generated names: never a path that could leave the media folder.
  const pathOf = (url: string) => {
    const name = mediaNameOf(url);
    return name ? path.join(dir, name) : null;
  };
  const read = async (url: string) => {
    const file = pathOf(url);
    return file ? readFile(file).catch(() => null) : null;
  };
  return {
    ...contentChecks(read),
    owns: (url) => pathOf(url) !== null,
    read,
    async size(url) {
      const file = pathOf(url);
      const found = file ? await stat(file).catch(() => null) : null;
      return found ? found.size : null;
    },
    async save(buffer, ext, mime) {
      const name = newMediaName(ext);
      const file = path.join(dir, name);
      try {
        await mkdir(dir, { recursive: true });
        await writeFile(file, buffer, { flag: 'wx' });
      } catch (err) {
        // A full disk (ENOSPC) leaves the file half-written: nothing of it stays.
        await rm(file, { force: true }).catch(() => undefined);
        throw storeFailed(err);
      }
      return { name, url: `/media/${name}`, mime };
    },
    async remove(url) {
      const file = pathOf(url);
      if (file) await rm(file, { force: true });
    },
    serving: { dir },
  };
}

/** The store the configuration names: the bucket when MEDIA_S3_BUCKET is set, else the local folder. */
export async function createMediaStore(config: Config): Promise<MediaStore> {
  if (!config.mediaS3) return createLocalMediaStore(config.dataDir);
  const { createS3MediaStore } = await import('./s3');
  return createS3MediaStore(config.mediaS3);
}
