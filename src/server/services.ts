// The server's parts, built once at start (app.ts) and handed to every route, job and channel. Realtime, the
// channels and the job queue appear here as their small interfaces (their port.ts), which import no domain
// code: the implementations import the domains, and the domains import this file.
import type { FastifyBaseLogger } from 'fastify';
import type { Channels } from './channels/port';
import type { Config } from './config';
import type { Db } from './db';
import type { JobQueue } from './jobs/port';
import type { Mailer } from './mail';
import type { MediaStore } from './media';
import type { Realtime } from './realtime/port';

/** What every handler can reach: the server's parts, built once at start. */
export interface Services {
  config: Config;
  db: Db;
  mail: Mailer;
  media: MediaStore;
  realtime: Realtime;
  channels: Channels;
  /** The durable job queue: every background job goes through it. */
  jobs: JobQueue;
  log: FastifyBaseLogger;
  /** The clock the flows' opening hours read; a test sets a fixed one. Absent: the system's. */
  clock?: { now(): Date };
}
