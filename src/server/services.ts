// The server's parts, built once at start (app.ts) and handed to every route, job and channel.
import type { FastifyBaseLogger } from 'fastify';
import type { Channels } from './channels';
import type { Config } from './config';
import type { Db } from './db';
import type { JobRunner } from './jobs/runner';
import type { Mailer } from './mail';
import type { MediaStore } from './media';
import type { Realtime } from './realtime';

/** What every handler can reach: the server's parts, built once at start. */
export interface Services {
  config: Config;
  db: Db;
  mail: Mailer;
  media: MediaStore;
  realtime: Realtime;
  channels: Channels;
  /** The durable job runner: every background job goes through it. */
  jobs: JobRunner;
  log: FastifyBaseLogger;
  /** The clock the flows' opening hours read; a test sets a fixed one. Absent: the system's. */
  clock?: { now(): Date };
}
