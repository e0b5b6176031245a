// The built app (dist/) with SPA fallback, and uploaded files under /media.
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { SENDABLE_MEDIA } from '../../shared/constants';
import { messages } from '../../shared/messages';

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

export async function registerStatic(app: FastifyInstance, opts: { distDir: string; mediaDir: string }) {
  await app.register(async (scope) => {
    // Even a file that a browser would render is sandboxed: no scripts, no access to our origin. Runs after
    // the root's onSend hook, which sets the app's own policy.
    scope.addHook('onSend', async (_req, reply) => {
      reply.header(
        'content-security-policy',
        "default-src 'none'; media-src 'self'; img-src 'self'; sandbox",
      );
    });
    await scope.register(fastifyStatic, {
      root: opts.mediaDir,
      prefix: '/media/',
      decorateReply: false,
      index: false,
      // Files are immutable (generated names): cached for a year, by the browser only (private: customers'
      // files are not for shared caches).
      cacheControl: false,
      setHeaders(res, file) {
        res.header('cache-control', 'private, max-age=31536000, immutable');
        res.headers(mediaHeaders(file, String(res.getHeader('content-type') ?? '')));
      },
    });
  });

  const hasApp = existsSync(path.join(opts.distDir, 'index.html'));
  if (hasApp) {
    await app.register(fastifyStatic, {
      root: opts.distDir,
      prefix: '/',
      wildcard: true,
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
