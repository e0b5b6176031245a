// What every media store shares: the MediaStore interface, our generated names, the type /media serves, and
// the checks of a file's content (magic bytes).
import type { Readable } from 'node:stream';
import { isUtf8MimeType, mime } from '@fastify/send';
import { fileTypeFromBuffer } from 'file-type';
import { SENDABLE_MEDIA } from '../../shared/constants';
import { newId } from '../../shared/ids';
import { messages } from '../../shared/messages';
import { AppError } from '../http/errors';

export type MediaKind = keyof typeof SENDABLE_MEDIA;
const OLD_OFFICE: Record<string, string> = {
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
};

/** Our generated names: a fresh lowercase id and an extension. Nothing else is ever read, served or deleted. */
const MEDIA_NAME = /^[0-9a-z]{28}\.[a-z0-9]{2,5}$/;

/** The stored name behind one of our /media URLs; null for any other URL. */
export function mediaNameOf(url: string): string | null {
  const name = url.startsWith('/media/') ? url.slice('/media/'.length) : '';
  return MEDIA_NAME.test(name) ? name : null;
}

/**
 * A save the store refused (a full disk, a bucket out of reach), as the caller answers it: the pt-BR text, with
 * the cause kept for the log. A job that saves (a customer's media) fails and is retried.
 */
export function storeFailed(cause: unknown): AppError {
  const err = new AppError(messages.mediaStoreFailed);
  err.cause = cause;
  return err;
}

export const newMediaName = (ext: string) => `${newId().toLowerCase()}.${ext}`;

/**
 * The Content-Type /media answers for a name: by its extension, with the lookup the local static route
 * (@fastify/send) uses, so both stores serve a file alike.
 */
export function mediaTypeOf(name: string): string {
  const type = mime.getType(name) ?? 'application/octet-stream';
  return isUtf8MimeType(type) ? `${type}; charset=utf-8` : type;
}

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

/** A stored file opened for /media: its bytes (or a range of them) as a stream, and what caches need. */
export interface MediaObject {
  /** Absent for HEAD. */
  body?: Readable;
  /** Bytes of this answer (the range's when one was served). */
  length?: number;
  /** `bytes a-b/total` when a range was served. */
  contentRange?: string;
  etag?: string;
  lastModified?: Date;
}

export type MediaOpened = MediaObject | 'not-modified' | 'bad-range' | null;

export interface MediaStore {
  /** Detects the real type; returns null when it is not one of `accept`. */
  sniff(buffer: Buffer, accept: readonly string[]): Promise<{ mime: string; ext: string } | null>;
  /**
   * What a file to send really is, by its content: its kind (image, audio, video, document), type and
   * extension; null when it is none of the formats a conversation accepts (spec 2 §5 Media).
   */
  classify(buffer: Buffer, filename: string): Promise<{ kind: MediaKind; mime: string; ext: string } | null>;
  /** classify() of a stored file, by its URL (the name's extension tells old Office files apart). */
  classifyFile(url: string): ReturnType<MediaStore['classify']>;
  save(buffer: Buffer, ext: string, mime: string): Promise<StoredFile>;
  /** One of our /media URLs, by its form only (the file may since have been deleted). */
  owns(url: string): boolean;
  /** A stored file's bytes; null for a URL not ours or a file that is gone. */
  read(url: string): Promise<Buffer | null>;
  /** A stored file's size in bytes, without reading it; null as for read(). */
  size(url: string): Promise<number | null>;
  /** Deletes a stored file by its URL; an unknown or already gone file is not an error. */
  remove(url: string): Promise<void>;
  /**
   * How /media is served: the local folder (the static route, with its ranges and validators), or the store
   * opening a stored name itself (a bucket streamed through the server).
   */
  readonly serving:
    | { dir: string }
    | {
        open(
          name: string,
          opts: { head: boolean; range?: string; ifNoneMatch?: string },
        ): Promise<MediaOpened>;
      };
}

/** What every store shares: reading content. `read` gives classifyFile its bytes. */
export function contentChecks(read: (url: string) => Promise<Buffer | null>) {
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
    async sniff(buffer: Buffer, accept: readonly string[]) {
      const t = await detect(buffer);
      return t && accept.includes(t.mime) ? { mime: t.mime, ext: t.ext } : null;
    },
    classify,
    async classifyFile(url: string) {
      const buffer = await read(url);
      return buffer ? classify(buffer, url) : null;
    },
  };
}
