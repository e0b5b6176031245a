// Uploaded files: checked by content (magic bytes), stored under a generated name in DATA_DIR/media and
// served at /media/<name>. S3-compatible storage can implement the same interface later.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import { SENDABLE_MEDIA } from '../../shared/constants';
import { newId } from '../../shared/ids';

export type MediaKind = keyof typeof SENDABLE_MEDIA;
const OLD_OFFICE: Record<string, string> = {
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
};

/**
 * The content's type as file-type reads it, named as we store and send it: Ogg/Opus (WhatsApp's voice notes)
 * is audio/ogg in a .ogg file, the name providers and browsers know (file-type says 'audio/ogg; codecs=opus').
 */
async function detect(buffer: Buffer) {
  const t = await fileTypeFromBuffer(buffer);
  return t?.ext === 'opus' ? { mime: 'audio/ogg', ext: 'ogg' } : t;
}

export interface StoredFile {
  name: string;
  url: string;
  mime: string;
}
export interface MediaStore {
  dir: string;
  /** Detects the real type; returns null when it is not one of `accept`. */
  sniff(buffer: Buffer, accept: readonly string[]): Promise<{ mime: string; ext: string } | null>;
  /**
   * What a file to send really is, by its content: its kind (image, audio, video, document), type and
   * extension; null when it is none of the formats a conversation accepts (spec 2 §5 Media).
   */
  classify(buffer: Buffer, filename: string): Promise<{ kind: MediaKind; mime: string; ext: string } | null>;
  /** classify() of a stored file. */
  classifyFile(file: string, filename: string): ReturnType<MediaStore['classify']>;
  save(buffer: Buffer, ext: string, mime: string): Promise<StoredFile>;
  /** The file on disk behind one of our /media URLs; null for any other URL. */
  pathOf(url: string): string | null;
  /** Deletes a stored file by its URL; an unknown or already gone file is not an error. */
  remove(url: string): Promise<void>;
}

export function createMediaStore(dataDir: string): MediaStore {
  const dir = path.join(dataDir, 'media');
  const pathOf = (url: string) => {
    const name = url.startsWith('/media/') ? url.slice('/media/'.length) : '';
    return /^[0-9a-z]{28}\.[a-z0-9]{2,5}$/.test(name) ? path.join(dir, name) : null;
  };
  async function classify(buffer: Buffer, filename: string) {
    const ext = /\.([a-z0-9]{1,5})$/i.exec(filename)?.[1]?.toLowerCase() ?? '';
    const t = await detect(buffer);
    if (t) {
      // Old Office files share one container format: the extension tells which it is.
      const mime = t.mime === 'application/x-cfb' ? OLD_OFFICE[ext] : t.mime;
      const kind = (Object.keys(SENDABLE_MEDIA) as MediaKind[]).find((k) =>
        mime ? SENDABLE_MEDIA[k].includes(mime) : false,
      );
      return kind && mime ? { kind, mime, ext: t.mime === 'application/x-cfb' ? ext : t.ext } : null;
    }
    // Plain text has no signature: accept a .txt that decodes as UTF-8 without control bytes.
    const text = buffer.toString('utf8');
    const control = [...text].some((c) => {
      const code = c.charCodeAt(0);
      return code < 9 || (code > 13 && code < 32) || code === 0xfffd;
    });
    const plain = ext === 'txt' && !control;
    return plain ? { kind: 'document' as const, mime: 'text/plain', ext: 'txt' } : null;
  }
  return {
    dir,
    async sniff(buffer, accept) {
      const t = await detect(buffer);
      return t && accept.includes(t.mime) ? { mime: t.mime, ext: t.ext } : null;
    },
    classify,
    async classifyFile(file, filename) {
      const buffer = await readFile(file).catch(() => null);
      return buffer ? classify(buffer, filename) : null;
    },
    pathOf,
    async save(buffer, ext, mime) {
      await mkdir(dir, { recursive: true });
      const name = `${newId().toLowerCase()}.${ext}`;
      await writeFile(path.join(dir, name), buffer, { flag: 'wx' });
      return { name, url: `/media/${name}`, mime };
    },
    async remove(url) {
      // Only our own generated names: never a path that could leave the media folder.
      const file = pathOf(url);
      if (file) await rm(file, { force: true });
    },
  };
}
