import type { z } from 'zod';
import type { Answer, CallName, Calls } from '../../shared/contract';
import type { AuthUser, UserActor } from '../access';
import type { Services } from '../services';
import type { UploadedFile } from './upload';

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
  /** The caller as the access rule sees it (src/server/access.ts). */
  actor: UserActor;
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
