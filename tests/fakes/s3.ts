// A fake S3-compatible store, the subset the media store uses, path-style (http://host/<bucket>/<key>):
// PutObject, GetObject (one byte range, If-None-Match), HeadObject and DeleteObject, answered with S3's headers
// and XML errors. Every request must be signed with AWS Signature V4 by the configured key pair: the signature
// is checked as S3 checks it (a wrong secret or region is a 403), so the real SDK talks to it as to a bucket.
// It records every request and can make the next ones fail with an S3 error (the store having a bad moment).
import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeObject {
  body: Buffer;
  contentType: string;
  etag: string;
  lastModified: Date;
}

export interface S3Request {
  method: string;
  bucket: string;
  key: string;
  headers: IncomingHttpHeaders;
}

export interface FakeS3 {
  url: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The MEDIA_S3_* settings that point a server at this store. */
  env: Record<string, string>;
  /** The bucket's objects by key. */
  objects: Map<string, FakeObject>;
  requests: S3Request[];
  /** The next request (each retry counts) answers this HTTP status with an S3 error. */
  failNext(status: number, times?: number): void;
  close(): Promise<void>;
}

const xmlError = (code: string, message: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;

const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** S3's URI encoding of a query component (RFC 3986 unreserved kept). */
const encode = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * Whether the request carries a valid SigV4 signature of `accessKeyId`/`secret` for `region` (S3: the path is
 * signed as sent, not encoded again). Answers the S3 error code when not.
 */
function checkSignature(
  req: { method: string; path: string; query: URLSearchParams; headers: IncomingHttpHeaders },
  body: Buffer,
  keys: { accessKeyId: string; secret: string; region: string },
): string | null {
  const auth = String(req.headers.authorization ?? '');
  const m =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
      auth,
    );
  if (!m) return 'AccessDenied';
  const [, keyId, day, region, signedHeaders, signature] = m as unknown as string[];
  if (keyId !== keys.accessKeyId) return 'InvalidAccessKeyId';
  if (region !== keys.region) return 'AuthorizationHeaderMalformed';
  const payloadHash = String(req.headers['x-amz-content-sha256'] ?? '');
  if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== sha256(body)) return 'XAmzContentSHA256Mismatch';
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  const names = (signedHeaders ?? '').split(';');
  const canonicalHeaders = names
    .map(
      (n) =>
        `${n}:${String(req.headers[n] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const query = [...req.query.entries()]
    .map(([k, v]) => [encode(k), encode(v)] as const)
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonical = [req.method, req.path, query, canonicalHeaders, signedHeaders, payloadHash].join('\n');
  const scope = `${day}/${region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  const kDate = hmac(`AWS4${keys.secret}`, day ?? '');
  const kSigning = hmac(hmac(hmac(kDate, region ?? ''), 's3'), 'aws4_request');
  return hmac(kSigning, toSign).toString('hex') === signature ? null : 'SignatureDoesNotMatch';
}

/** One satisfiable `bytes=` range of a `size`-byte object: [start, end] inclusive; 'bad' when unsatisfiable. */
function rangeOf(header: string | undefined, size: number): [number, number] | 'bad' | null {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header ?? '');
  if (!m || (!m[1] && !m[2])) return null;
  const [start, end] = m[1]
    ? [Number(m[1]), m[2] ? Math.min(Number(m[2]), size - 1) : size - 1]
    : [Math.max(size - Number(m[2]), 0), size - 1];
  return start > end || start >= size ? 'bad' : [start, end];
}

export async function startFakeS3(
  opts: { bucket?: string; region?: string; accessKeyId?: string; secretAccessKey?: string } = {},
): Promise<FakeS3> {
  const bucket = opts.bucket ?? 'painel-media';
  const region = opts.region ?? 'us-east-1';
  const accessKeyId = opts.accessKeyId ?? 'AKIAFAKEMEDIA';
  const secretAccessKey = opts.secretAccessKey ?? 'fake-secret-key';
  const objects = new Map<string, FakeObject>();
  const requests: S3Request[] = [];
  const failures: number[] = [];

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', 'http://fake');
      const [, bucketName = '', ...rest] = url.pathname.split('/');
      const key = decodeURIComponent(rest.join('/'));
      const method = req.method ?? 'GET';
      requests.push({ method, bucket: bucketName, key, headers: req.headers });
      const fail = (status: number, code: string, message = code) => {
        res.writeHead(status, { 'content-type': 'application/xml' });
        // HEAD answers carry no body: the SDK reads the status alone.
        res.end(method === 'HEAD' ? undefined : xmlError(code, message));
      };

      const failure = failures.shift();
      if (failure) return fail(failure, failure >= 500 ? 'InternalError' : 'AccessDenied');
      const signing = checkSignature(
        { method, path: url.pathname, query: url.searchParams, headers: req.headers },
        body,
        { accessKeyId, secret: secretAccessKey, region },
      );
      if (signing) return fail(403, signing);
      if (String(req.headers['content-encoding'] ?? '').includes('aws-chunked'))
        return fail(501, 'NotImplemented', 'aws-chunked uploads are not faked');
      if (bucketName !== bucket) return fail(404, 'NoSuchBucket');
      // The SDK names the operation in ?x-id=; any other parameter is a call this fake does not know.
      const subresource = [...url.searchParams.keys()].some((k) => k !== 'x-id');
      if (!key || subresource) return fail(501, 'NotImplemented', 'only object calls are faked');

      if (method === 'PUT') {
        const etag = `"${createHash('md5').update(body).digest('hex')}"`;
        objects.set(key, {
          body,
          contentType: String(req.headers['content-type'] ?? 'binary/octet-stream'),
          etag,
          lastModified: new Date(Math.floor(Date.now() / 1000) * 1000),
        });
        res.writeHead(200, { etag });
        return res.end();
      }
      if (method === 'DELETE') {
        objects.delete(key);
        res.writeHead(204);
        return res.end();
      }
      if (method !== 'GET' && method !== 'HEAD') return fail(405, 'MethodNotAllowed');
      const object = objects.get(key);
      if (!object) return fail(404, 'NoSuchKey', 'The specified key does not exist.');
      const headers: Record<string, string | number> = {
        'content-type': object.contentType,
        etag: object.etag,
        'last-modified': object.lastModified.toUTCString(),
        'accept-ranges': 'bytes',
      };
      if (req.headers['if-none-match'] === object.etag) {
        res.writeHead(304, headers);
        return res.end();
      }
      const size = object.body.length;
      const range = method === 'GET' ? rangeOf(req.headers.range, size) : null;
      if (range === 'bad') return fail(416, 'InvalidRange', 'The requested range is not satisfiable');
      const bytes = range ? object.body.subarray(range[0], range[1] + 1) : object.body;
      res.writeHead(range ? 206 : 200, {
        ...headers,
        'content-length': bytes.length,
        ...(range && { 'content-range': `bytes ${range[0]}-${range[1]}/${size}` }),
      });
      res.end(method === 'HEAD' ? undefined : bytes);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    bucket,
    region,
    accessKeyId,
    secretAccessKey,
    env: {
      MEDIA_S3_BUCKET: bucket,
      MEDIA_S3_ENDPOINT: url,
      MEDIA_S3_REGION: region,
      MEDIA_S3_ACCESS_KEY_ID: accessKeyId,
      MEDIA_S3_SECRET_ACCESS_KEY: secretAccessKey,
      MEDIA_S3_FORCE_PATH_STYLE: 'true',
    },
    objects,
    requests,
    failNext(status, times = 1) {
      for (let i = 0; i < times; i++) failures.push(status);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
