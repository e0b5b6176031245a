// The built app (dist/) with SPA fallback, and uploaded files under /media.
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { SENDABLE_MEDIA } from '../../shared/constants';
import { messages } from '../../shared/messages';
import { type MediaStore, mediaNameOf, mediaTypeOf } from '../media';

const API_PREFIXES = ['/api/', '/sock/', '/media/'];

/**
 * What a browser only displays, never runs, and the app shows in <img>, <audio> and <video> (which cannot send
 * a bearer token): served inline. SVG is an image that runs scripts when opened: not here.
 */
const INLINE_MEDIA = /^(image\/(jpeg|png|gif|webp)|audio\/[\w.+-]+|video\/[\w.+-]+)$/;
/** Documents keep their type (the browser names the download by it); any other type is plain bytes. */
const DOCUMENT_TYPES: readonly string[] = SENDABLE_MEDIA.document;

/**
 * /media headers, by the type the extension gives: images, audio and video inline; anything else (a PDF, an
 * HTML page or an SVG a customer sent) is a download that never renders as a page of our origin.
 */
export function mediaHeaders(file: string, contentType: string): Record<string, string> {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (INLINE_MEDIA.test(type)) return {};
  // Stored names are generated ([0-9a-z]{28}.ext); the filter only guards the header against anything else.
  const name = path.basename(file).replace(/[^\w.-]/g, '_');
  return {
    'content-disposition': `attachment; filename="${name}"`,
    ...(!DOCUMENT_TYPES.includes(type) && { 'content-type': 'application/octet-stream' }),
  };
}

/**
 * Files are immutable (generated names): cached for a year, by the browser only (private: customers' files are
 * not for shared caches).
 */
const MEDIA_CACHE = 'private, max-age=31536000, immutable';

export async function registerStatic(
  app: FastifyInstance,
  opts: { distDir: string; media: MediaStore['serving'] },
) {
  const { media } = opts;
  await app.register(async (scope) => {
    // Even a file that a browser would render is sandboxed: no scripts, no access to our origin. Runs after
    // the root's onSend hook, which sets the app's own policy.
    scope.addHook('onSend', async (_req, reply) => {
      reply.header(
        'content-security-policy',
        "default-src 'none'; media-src 'self'; img-src 'self'; sandbox",
      );
    });
    if ('dir' in media) {
      // Only our generated names, each sent by name: the static plugin's wildcard route would list the whole
      // media folder on every request (its check of a path's spelling), a cost that grows with every upload.
      await scope.register(fastifyStatic, {
        root: media.dir,
        serve: false,
        index: false,
        cacheControl: false,
        setHeaders(res, file) {
          res.header('cache-control', MEDIA_CACHE);
          res.headers(mediaHeaders(file, String(res.getHeader('content-type') ?? '')));
        },
      });
      scope.get<{ Params: { name: string } }>('/media/:name', (req, reply) => {
        const name = mediaNameOf(`/media/${req.params.name}`);
        return name ? reply.sendFile(name) : reply.callNotFound();
      });
    } else registerStoredMedia(scope, media.open);
  });

  const hasApp = existsSync(path.join(opts.distDir, 'index.html'));
  if (hasApp) {
    await app.register(fastifyStatic, {
      root: opts.distDir,
      prefix: '/',
      // A route per file of the build, listed once at the start (dist/ does not change while the server runs):
      // the wildcard route would read the assets folder on every request (the path spelling check).
      wildcard: false,
      index: 'index.html',
      // The build writes .br and .gz beside each asset: send those to browsers that accept them.
      preCompressed: true,
      setHeaders(res, file) {
        // Hashed assets never change; the shell, the manifest and the service worker always revalidate.
        if (file.includes(`${path.sep}assets${path.sep}`))
          res.header('cache-control', 'public, max-age=31536000, immutable');
        else res.header('cache-control', 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0] ?? '/';
    const wantsPage =
      req.method === 'GET' && !API_PREFIXES.some((p) => url.startsWith(p)) && !path.extname(url);
    if (hasApp && wantsPage) {
      return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html', opts.distDir);
    }
    return reply.code(404).send({ error: true, message: messages.pageNotFound });
  });
}

/**
 * /media from a store that is not a local folder (a bucket): the object streamed through, with the headers the
 * static route gives (type by extension, cache, ranges for audio and video, ETag). Only our generated names are
 * asked of the store; anything else, or a name it does not have, is the usual 404.
 */
function registerStoredMedia(
  scope: FastifyInstance,
  open: Extract<MediaStore['serving'], { open: unknown }>['open'],
) {
  scope.route<{ Params: { name: string } }>({
    method: ['GET', 'HEAD'],
    url: '/media/:name',
    async handler(req, reply) {
      const name = mediaNameOf(`/media/${req.params.name}`);
      if (!name) return reply.callNotFound();
      const header = (h: string | string[] | undefined) => (typeof h === 'string' ? h : undefined);
      const opened = await open(name, {
        // HEAD asks the store for the headers only, not the body.
        head: req.method === 'HEAD',
        range: header(req.headers.range),
        ifNoneMatch: header(req.headers['if-none-match']),
      });
      if (!opened) return reply.callNotFound();
      reply.header('cache-control', MEDIA_CACHE).header('accept-ranges', 'bytes');
      if (opened === 'not-modified') return reply.code(304).send();
      if (opened === 'bad-range') return reply.code(416).header('content-range', 'bytes */*').send();
      const type = mediaTypeOf(name);
      reply.header('content-type', type).headers(mediaHeaders(name, type));
      if (opened.length !== undefined) reply.header('content-length', opened.length);
      if (opened.etag) reply.header('etag', opened.etag);
      if (opened.lastModified) reply.header('last-modified', opened.lastModified.toUTCString());
      if (opened.contentRange) reply.code(206).header('content-range', opened.contentRange);
      return reply.send(opened.body);
    },
  });
}
