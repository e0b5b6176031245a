// Uploaded files: checked by content (magic bytes), stored under a generated name in DATA_DIR/media and
// served at /media/<name>. S3-compatible storage can implement the same interface later.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import { newId } from '../../shared/ids';

export interface StoredFile {
  name: string;
  url: string;
  mime: string;
}
export interface MediaStore {
  dir: string;
  /** Detects the real type; returns null when it is not one of `accept`. */
  sniff(buffer: Buffer, accept: readonly string[]): Promise<{ mime: string; ext: string } | null>;
  save(buffer: Buffer, ext: string, mime: string): Promise<StoredFile>;
  /** Deletes a stored file by its URL; an unknown or already gone file is not an error. */
  remove(url: string): Promise<void>;
}

export function createMediaStore(dataDir: string): MediaStore {
  const dir = path.join(dataDir, 'media');
  return {
    dir,
    async sniff(buffer, accept) {
      const t = await fileTypeFromBuffer(buffer);
      return t && accept.includes(t.mime) ? { mime: t.mime, ext: t.ext } : null;
    },
    async save(buffer, ext, mime) {
      await mkdir(dir, { recursive: true });
      const name = `${newId().toLowerCase()}.${ext}`;
      await writeFile(path.join(dir, name), buffer, { flag: 'wx' });
      return { name, url: `/media/${name}`, mime };
    },
    async remove(url) {
      const name = url.startsWith('/media/') ? url.slice('/media/'.length) : '';
      // Only our own generated names: never a path that could leave the media folder.
      if (!/^[0-9a-z]{28}\.[a-z0-9]{2,5}$/.test(name)) return;
      await rm(path.join(dir, name), { force: true });
    },
  };
}
