// A customer's media whose download failed is tried again through the job runner, as for the Cloud API
// (cloud-api/media-retry.ts): the text notice stored meanwhile is replaced by the file when it arrives. The
// download needs the chip's live socket (WhatsApp's media keys are in the message; an expired copy is asked
// from the phone again), so a process that does not hold the chip queues the next attempt.
import { attachInboundMedia, mediaNoticeState } from '../../domains/conversations/pipeline';
import type { JobKind } from '../../jobs/runner';
import type { Services } from '../../services';
import { fromJson, readMessage } from './inbound';
import { loadBaileys } from './library';

export const BAILEYS_MEDIA_JOB = 'baileys-media-download';

export interface BaileysMediaJob {
  chipId: string;
  platformMessageId: string;
  /** The WAMessage as BufferJSON (inbound.ts toJson). */
  message: unknown;
  attempt: number;
}

export async function queueBaileysMediaDownload(services: Services, job: BaileysMediaJob): Promise<boolean> {
  const wait = services.config.mediaRetrySeconds[job.attempt - 1];
  if (wait === undefined) return false;
  await services.jobs.send<BaileysMediaJob>(BAILEYS_MEDIA_JOB, job, {
    startAfter: new Date(Date.now() + wait * 1000),
    key: `${job.chipId}:${job.platformMessageId}:${job.attempt}`,
  });
  return true;
}

export async function retryBaileysMedia(services: Services, job: BaileysMediaJob) {
  const { log } = services;
  const next = async (reason: string) => {
    const queued = await queueBaileysMediaDownload(services, { ...job, attempt: job.attempt + 1 });
    log.info({ id: job.platformMessageId, attempt: job.attempt, reason, queued }, 'baileys media: retry');
  };
  const state = await mediaNoticeState(services, job.chipId, job.platformMessageId);
  if (state === 'done') return;
  if (state === 'missing') return next('message not stored');
  const sock = services.channels.baileys.socketOf(job.chipId);
  if (!sock) return next('chip not connected in this process');
  await loadBaileys();
  const message = fromJson(job.message);
  const action = readMessage(message, null);
  if (action?.kind !== 'message' || !action.media) return;
  const { media } = action;
  let buffer: Buffer;
  try {
    buffer = await sock.downloadMedia(message);
  } catch (err) {
    return next(err instanceof Error ? err.message : String(err));
  }
  await attachInboundMedia(services, job.chipId, job.platformMessageId, {
    buffer,
    mime: media.mime,
    type: media.kind,
    caption: media.caption,
    ...(media.fileName && { fileName: media.fileName }),
    ...(media.voice && { voice: true }),
  });
}

export const baileysMediaJob: JobKind<BaileysMediaJob> = {
  name: BAILEYS_MEDIA_JOB,
  run: (job, services) => retryBaileysMedia(services, job),
  concurrency: 2,
  expireInSeconds: 10 * 60,
  retryLimit: 3,
  retryDelaySeconds: 60,
};
