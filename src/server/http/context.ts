import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Answer, CallName, Calls } from '../../shared/contract';
import type { Channels } from '../channels';
import type { Config } from '../config';
import type { Db } from '../db';
import type { AuthUser } from '../domains/auth/auth.service';
import type { Mailer } from '../mail';
import type { MediaStore } from '../media';
import type { Realtime } from '../realtime';

/** What every handler can reach: the server's parts, built once at start. */
export interface Services {
  config: Config;
  db: Db;
  mail: Mailer;
  media: MediaStore;
  realtime: Realtime;
  channels: Channels;
  log: FastifyBaseLogger;
}

export interface UploadedFile {
  buffer: Buffer;
  filename: string;
  mimetype: string;
}

export interface CallContext {
  services: Services;
  /** The signed-in user; null only for public calls. */
  user: AuthUser | null;
  sessionId: string | null;
  ip: string;
  userAgent: string;
  file: UploadedFile | null;
}

export interface SignedInContext extends CallContext {
  user: AuthUser;
  sessionId: string;
}

export type Handler<N extends CallName> = (
  payload: z.output<Calls[N]['payload']>,
  ctx: SignedInContext,
) => Promise<Answer<N>>;
export type PublicHandler<N extends CallName> = (
  payload: z.output<Calls[N]['payload']>,
  ctx: CallContext,
) => Promise<Answer<N>>;

export type Handlers = {
  [N in CallName]?: Calls[N]['access'] extends { public: true } ? PublicHandler<N> : Handler<N>;
};
