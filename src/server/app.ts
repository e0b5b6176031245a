// Builds the whole server: database, HTTP (Fastify) and socket.io on one port. Used by main.ts and tests.
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { calls, isCallName } from '../shared/contract';
import { messages } from '../shared/messages';
import { type ChannelSet, createChannels } from './channels';
import type { SocketFactory } from './channels/baileys';
import type { Config } from './config';
import { type Database, isDatabaseUnavailable, openDatabase } from './db';
import { handlers } from './domains';
import { distributionListener } from './domains/distribution/distribution.service';
import { vapidKeys } from './domains/push/push.service';
import { registerApi } from './http/api';
import { AppError } from './http/errors';
import { registerGuruWebhook } from './http/guru-webhook';
import { registerHealth } from './http/health';
import { registerPublicApi } from './http/public-api';
import { registerStatic } from './http/static';
import { registerWebhookEndpoint } from './http/webhook-endpoint';
import { defineJobs } from './jobs';
import { createJobRunner, type JobRunner } from './jobs/runner';
import { createMailer } from './mail';
import { createMediaStore } from './media';
import { createRealtime, type RealtimeServer } from './realtime';
import { firstStart } from './seed/demo';
import type { Services } from './services';

/**
 * The services with the implementations built here, as this file starts and stops them and tests reach
 * them; every other part of the server sees their small interfaces (Services).
 */
export interface ServerServices extends Services {
  realtime: RealtimeServer;
  channels: ChannelSet;
  jobs: JobRunner;
}

export interface Server {
  app: FastifyInstance;
  services: ServerServices;
  database: Database;
  /** Lines the first start printed (demo logins), or null. */
  firstStartLines: string[] | null;
  close(): Promise<void>;
}

/** The page that loads Meta's JavaScript SDK (spec 3 §2.18): its CSP, and only its, lets that SDK in. */
export const META_LOGIN_PATH = '/meta-login';
const META_SDK = {
  script: ' https://connect.facebook.net',
  frame: ' https://www.facebook.com https://web.facebook.com',
  connect: ' https://connect.facebook.net https://www.facebook.com https://graph.facebook.com',
  img: ' https://www.facebook.com',
};

/** Whether a request is for the /meta-login page (with or without a trailing slash and a query). */
export const isMetaLoginPage = (url: string) => {
  const path = url.split('?')[0] ?? '';
  return path === META_LOGIN_PATH || path === `${META_LOGIN_PATH}/`;
};

/**
 * The CSP allows this origin only, and the origin of the configured help video (HELP_VIDEO_URL), whose
 * player page or file plays inside the 'Saiba mais' dialog. `metaLogin`: the /meta-login page's, which also
 * allows the Facebook SDK's script, its login frames and its requests.
 */
export function securityHeaders(config: Pick<Config, 'HELP_VIDEO_URL'>, opts: { metaLogin?: boolean } = {}) {
  const video = config.HELP_VIDEO_URL ? new URL(config.HELP_VIDEO_URL).origin : null;
  const helpVideo = video && video !== 'null' ? ` ${video}` : '';
  const meta = opts.metaLogin ? META_SDK : { script: '', frame: '', connect: '', img: '' };
  return {
    'content-security-policy': [
      "default-src 'self'",
      `script-src 'self'${meta.script}`,
      "style-src 'self' 'unsafe-inline'",
      `img-src 'self' data: blob:${meta.img}`,
      `media-src 'self' blob:${helpVideo}`,
      `frame-src 'self'${helpVideo}${meta.frame}`,
      `connect-src 'self' ws: wss:${meta.connect}`,
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

/** A request's id: the caller's X-Request-Id if it is a short plain token (it goes into logs), else a new one. */
function requestId(req: { headers: Record<string, string | string[] | undefined> }) {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && /^[A-Za-z0-9._:-]{1,100}$/.test(given) ? given : randomUUID();
}

export async function createServer(
  config: Config,
  opts: { database?: Database; baileysSocketFactory?: SocketFactory; processId?: string } = {},
): Promise<Server> {
  const app = Fastify({
    logger: { level: config.LOG_LEVEL },
    // Every log line of a request carries its id: the caller's X-Request-Id (a proxy's, so one id follows the
    // request across processes) when it is a plain token, else a new one. It is sent back in the answer.
    requestIdHeader: false,
    genReqId: requestId,
    trustProxy: config.TRUST_PROXY === 'true',
    bodyLimit: 2 * 1024 * 1024,
    // A plugin's start may wait on the database (the rate limits' store): a slow database at start (a loaded
    // machine, a failover) delays the start rather than failing it after Fastify's default 10 s.
    pluginTimeout: 60_000,
  });
  const database =
    opts.database ?? (await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir }));
  const media = await createMediaStore(config);
  if ('dir' in media.serving) mkdirSync(media.serving.dir, { recursive: true });

  // The implementations are built here and passed in as the services' parts; the channels and the job runner
  // read the services lazily, as they are part of them.
  const channels = createChannels(() => services, {
    ...(opts.baileysSocketFactory && { baileysSocketFactory: opts.baileysSocketFactory }),
    ...(opts.processId && { processId: opts.processId }),
  });
  const services: ServerServices = {
    config,
    db: database.db,
    mail: createMailer({
      smtpUrl: config.SMTP_URL,
      from: config.MAIL_FROM,
      dataDir: config.dataDir,
      log: app.log,
    }),
    media,
    realtime: createRealtime(app.server, database.db, { pool: database.eventsPool, log: app.log }),
    channels,
    jobs: createJobRunner({
      executeSql: database.executeSql,
      log: app.log,
      services: () => services,
      // PGlite is opened by one process only.
      soleProcess: database.kind === 'pglite',
    }),
    log: app.log,
  };
  services.realtime.setSimulatorAuth(channels.simulator.authorize);
  services.realtime.setListener(distributionListener(() => services));

  const headers = securityHeaders(config);
  const metaLoginHeaders = securityHeaders(config, { metaLogin: true });
  app.addHook('onSend', async (req, reply) => {
    reply.headers(isMetaLoginPage(req.url) ? metaLoginHeaders : headers);
    reply.header('x-request-id', req.id);
  });

  // Every failure is an envelope with a pt-BR message; only a real bug is a 500, and it shows no stack.
  app.setErrorHandler((err: FastifyError | AppError, req, reply) => {
    if (err instanceof AppError) {
      // A refusal with a cause under it (the media store's full disk): the operator needs to see it.
      if (err.cause) req.log.warn({ err: err.cause }, err.message);
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
    // The database restarting or failing over: nothing of this request was kept, and the app sends it again
    // (503 is one of its retried answers) once the pool has a connection again.
    if (isDatabaseUnavailable(err)) {
      req.log.warn({ err }, 'database unavailable');
      return reply
        .code(503)
        .header('retry-after', '2')
        .send({ error: true, message: messages.databaseUnavailable });
    }
    const status = (err as FastifyError).statusCode;
    if (status && status >= 400 && status < 500) {
      req.log.info({ err }, 'bad request');
      return reply.code(status).send({ error: true, message: messages.invalidPayload });
    }
    req.log.error({ err }, 'unexpected error');
    return reply.code(500).send({ error: true, message: messages.internalError });
  });

  registerHealth(app, { executeSql: database.executeSql, jobs: services.jobs });
  await registerApi(app, services, handlers);
  await registerPublicApi(app, services);
  await channels.cloudApi.registerRoutes(app);
  await registerWebhookEndpoint(app, services);
  await registerGuruWebhook(app, services);
  await registerStatic(app, { distDir: config.distDir, media: media.serving });

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
