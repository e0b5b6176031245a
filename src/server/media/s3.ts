// Media in an S3-compatible bucket (MEDIA_S3_*): one object per stored file, its key the generated name, so
// the app's /media URLs are the same on disk and in a bucket; the server streams them (static.ts). Imported
// only when a bucket is configured.
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { MediaS3Config } from '../config';
import {
  contentChecks,
  type MediaOpened,
  type MediaStore,
  mediaNameOf,
  mediaTypeOf,
  newMediaName,
  storeFailed,
} from './store';

const statusOf = (err: unknown) =>
  (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
/** A missing object: GetObject says NoSuchKey, HeadObject (no body) only its 404. */
const isMissing = (err: unknown) => statusOf(err) === 404 || (err as { name?: string }).name === 'NoSuchKey';

/** One byte range as browsers ask for audio and video (`bytes=a-b`, `bytes=a-`, `bytes=-n`); others: the whole file. */
const SINGLE_RANGE = /^bytes=(\d+-\d*|-\d+)$/;

export function createS3MediaStore(c: MediaS3Config): MediaStore {
  const client = new S3Client({
    region: c.region,
    ...(c.endpoint && { endpoint: c.endpoint }),
    forcePathStyle: c.forcePathStyle,
    credentials: { accessKeyId: c.accessKeyId, secretAccessKey: c.secretAccessKey },
    // The SDK's default CRC checksums on every request are not accepted by every S3-compatible store; S3 itself
    // needs them only where its API requires one.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // A store that does not answer fails the request (a send, a page's image) instead of holding it.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
  });
  const Bucket = c.bucket;

  async function read(url: string) {
    const Key = mediaNameOf(url);
    if (!Key) return null;
    try {
      const out = await client.send(new GetObjectCommand({ Bucket, Key }));
      return out.Body ? Buffer.from(await out.Body.transformToByteArray()) : null;
    } catch (err) {
      // Gone is an answer; a store that cannot be reached is an error.
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async function open(
    Key: string,
    opts: { head: boolean; range?: string; ifNoneMatch?: string },
  ): Promise<MediaOpened> {
    const Range = opts.range && SINGLE_RANGE.test(opts.range) ? opts.range : undefined;
    try {
      if (opts.head) {
        const out = await client.send(new HeadObjectCommand({ Bucket, Key, IfNoneMatch: opts.ifNoneMatch }));
        return { length: out.ContentLength, etag: out.ETag, lastModified: out.LastModified };
      }
      const out = await client.send(
        new GetObjectCommand({ Bucket, Key, Range, IfNoneMatch: opts.ifNoneMatch }),
      );
      return {
        body: out.Body as Readable,
        length: out.ContentLength,
        contentRange: Range ? out.ContentRange : undefined,
        etag: out.ETag,
        lastModified: out.LastModified,
      };
    } catch (err) {
      const status = statusOf(err);
      if (status === 304) return 'not-modified';
      if (status === 416) return 'bad-range';
      if (isMissing(err)) return null;
      throw err;
    }
  }

  return {
    ...contentChecks(read),
    owns: (url) => mediaNameOf(url) !== null,
    read,
    async size(url) {
      const Key = mediaNameOf(url);
      if (!Key) return null;
      try {
        return (await client.send(new HeadObjectCommand({ Bucket, Key }))).ContentLength ?? null;
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    async save(buffer, ext, mime) {
      const name = newMediaName(ext);
      // Stored with the type /media answers, so the bucket's own view of it agrees.
      // A bucket that refuses (full, out of reach) keeps nothing: a PUT is whole or not at all.
      await client
        .send(new PutObjectCommand({ Bucket, Key: name, Body: buffer, ContentType: mediaTypeOf(name) }))
        .catch((err: unknown) => {
          throw storeFailed(err);
        });
      return { name, url: `/media/${name}`, mime };
    },
    async remove(url) {
      const Key = mediaNameOf(url);
      // S3 answers a delete of a missing key with success too.
      if (Key) await client.send(new DeleteObjectCommand({ Bucket, Key }));
    },
    serving: { open },
  };
}
