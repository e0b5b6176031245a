// Builds the whole server: database, HTTP (Fastify) and socket.io on one port. Used by main.ts and tests.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { calls, isCallName } from '../shared/contract';
import { messages } from '../shared/messages';
import { createChannels } from './channels';
import type { Config } from './config';
import { type Database, openDatabase } from './db';
import { handlers } from './domains';
import { vapidKeys } from './domains/push/push.service';
import { registerApi } from './http/api';
import { AppError } from './http/errors';
import { registerStatic } from './http/static';
import { defineJobs } from './jobs';
import { createJobRunner } from './jobs/runner';
import { createMailer } from './mail';
import { createMediaStore } from './media';
import { createRealtime } from './realtime';
import { firstStart } from './seed/demo';
import type { Services } from './services';

export interface Server {
  app: FastifyInstance;
  services: Services;
  database: Database;
  /** Lines the first start printed (demo logins), or null. */
  firstStartLines: string[] | null;
  close(): Promise<void>;
}

/**
 * The CSP allows this origin only, and the origin of the configured help video (HELP_VIDEO_URL), whose
 * player page or file plays inside the 'Saiba mais' dialog.
 */
export function securityHeaders(config: Pick<Config, 'HELP_VIDEO_URL'>) {
  const video = config.HELP_VIDEO_URL ? new URL(config.HELP_VIDEO_URL).origin : null;
  const helpVideo = video && video !== 'null' ? ` ${video}` : '';
  return {
    'content-security-policy': [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      `media-src 'self' blob:${helpVideo}`,
      `frame-src 'self'${helpVideo}`,
      "connect-src 'self' ws: wss:",
      "worker-src 'self' blob:",
      "font-src 'self' data:",
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
      "form-action 'self'",
    ].join('; '),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-frame-options': 'DENY',
  };
}

const CLOSE_GRACE_MS = 5000;

export async function createServer(config: Config, opts: { database?: Database } = {}): Promise<Server> {
  const app = Fastify({
    logger: { level: config.LOG_LEVEL },
    trustProxy: config.TRUST_PROXY === 'true',
    bodyLimit: 2 * 1024 * 1024,
  });
  const database =
    opts.database ?? (await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir }));
  const mediaDir = path.join(config.dataDir, 'media');
  mkdirSync(mediaDir, { recursive: true });

  const channels = createChannels(() => services);
  const services: Services = {
    config,
    db: database.db,
    mail: createMailer({
      smtpUrl: config.SMTP_URL,
      from: config.MAIL_FROM,
      dataDir: config.dataDir,
      log: app.log,
    }),
    media: createMediaStore(config.dataDir),
    realtime: createRealtime(app.server, database.db),
    channels,
    jobs: createJobRunner({ executeSql: database.executeSql, log: app.log, services: () => services }),
    log: app.log,
  };
  services.realtime.setSimulatorAuth(channels.simulator.authorize);

  const headers = securityHeaders(config);
  app.addHook('onSend', async (_req, reply) => {
    reply.headers(headers);
  });

  // Every failure is an envelope with a pt-BR message; only a real bug is a 500, and it shows no stack.
  app.setErrorHandler((err: FastifyError | AppError, req, reply) => {
    if (err instanceof AppError) {
      return reply.code(err.status).send({
        error: true,
        message: err.message,
        ...(err.field && { field: err.field }),
        ...(err.logout && { logout: true }),
      });
    }
    const code = (err as FastifyError).code;
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE' || code === 'FST_REQ_FILE_TOO_LARGE') {
      const upload = code === 'FST_REQ_FILE_TOO_LARGE';
      const call = req.url.startsWith('/api/') ? req.url.slice('/api/'.length).split('?')[0] : '';
      const media = upload && call && isCallName(call) && calls[call].upload?.maxBytes === 'media';
      return reply.code(413).send({
        error: true,
        message: media
          ? messages.mediaTooLarge(config.MEDIA_MAX_MB)
          : upload && call === 'upload-profile-picture'
            ? messages.profilePictureSize
            : call === 'import-flow'
              ? messages.flowFileTooLarge
              : messages.bodyTooLarge,
      });
    }
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.code(415).send({ error: true, message: messages.unsupportedContentType });
    }
    // A PostgreSQL data exception (class 22: a value out of range, a bad date, an invalid byte) is bad
    // input that got past validation: answer it as such, never as a 500.
    if (typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code)) {
      req.log.warn({ err }, 'data exception from the database');
      return reply.code(400).send({ error: true, message: messages.invalidPayload });
    }
    const status = (err as FastifyError).statusCode;
    if (status && status >= 400 && status < 500) {
      req.log.info({ err }, 'bad request');
      return reply.code(status).send({ error: true, message: messages.invalidPayload });
    }
    req.log.error({ err }, 'unexpected error');
    return reply.code(500).send({ error: true, message: messages.internalError });
  });

  await registerApi(app, services, handlers);
  await channels.cloudApi.registerRoutes(app);
  await registerStatic(app, { distDir: config.distDir, mediaDir });

  // Web Push: the VAPID key pair is made at the first start and kept in the database.
  void vapidKeys(database.db).catch((err: unknown) => app.log.warn({ err }, 'VAPID keys failed'));

  app.addHook('preClose', async () => {
    // First: no job starts while the channels and the database go away (a running one gets a bounded wait).
    await services.jobs.stop();
    await channels.stop();
    services.realtime.close();
  });

  const firstStartLines = await firstStart(database.db, {
    production: config.NODE_ENV === 'production',
    seedDemo: config.SEED_DEMO === 'true',
    adminEmail: config.ADMIN_EMAIL,
  });

  // Every background job (scheduled messages, the send sweep, housekeeping, media downloads) runs in the
  // durable runner, started once the migrations ran and before the channels replay what they left.
  await defineJobs(services.jobs);
  await services.jobs.start();
  await channels.start();

  return {
    app,
    services,
    database,
    firstStartLines,
    async close() {
      // A client that never ends its request or never reads its answer must not hold the shutdown: after
      // CLOSE_GRACE_MS the connections still open are cut (what they were doing is safe to repeat).
      const cut = setTimeout(() => app.server.closeAllConnections(), CLOSE_GRACE_MS);
      await app.close();
      clearTimeout(cut);
      if (!opts.database) await database.close();
    },
  };
}
