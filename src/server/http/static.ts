// The built app (dist/) with SPA fallback, and uploaded files under /media.
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { messages } from '../../shared/messages';

const API_PREFIXES = ['/api/', '/sock/', '/media/'];

export async function registerStatic(app: FastifyInstance, opts: { distDir: string; mediaDir: string }) {
  await app.register(fastifyStatic, {
    root: opts.mediaDir,
    prefix: '/media/',
    decorateReply: false,
    index: false,
    // Files are immutable (generated names): cache them for a year.
    immutable: true,
    maxAge: '365d',
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
