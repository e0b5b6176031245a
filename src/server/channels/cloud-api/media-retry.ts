// A customer's media whose download failed is tried again through the job runner: Meta keeps media ids for
// 7 days, and one 503 must not lose the file. Until it arrives the conversation shows a text notice; when it
// does, the notice is replaced by the file (attachInboundMedia) and open screens get 'message_updated'.
// Attempt n runs MEDIA_RETRY_SECONDS[n-1] after the one before; a permanent answer (the id unknown or
// expired, the file gone) or the end of the list stops the retries and leaves the notice.
import { attachInboundMedia, mediaNoticeState } from '../../domains/conversations/pipeline';
import type { JobKind } from '../../jobs/runner';
import type { Services } from '../../services';
import { createGraphClient, GraphError } from './graph';
import type { MediaKind } from './payload';

export const MEDIA_DOWNLOAD_JOB = 'media-download';

export interface MediaDownloadJob {
  chipId: string;
  /** The customer's message (wamid). */
  platformMessageId: string;
  mediaId: string;
  kind: MediaKind;
  caption: string;
  fileName?: string;
  voice?: boolean;
  /** 1 for the first retry. */
  attempt: number;
}

/** Queues attempt `job.attempt`, or answers false when the list of waits is over. */
export async function queueMediaDownload(services: Services, job: MediaDownloadJob): Promise<boolean> {
  const wait = services.config.mediaRetrySeconds[job.attempt - 1];
  if (wait === undefined) return false;
  await services.jobs.send<MediaDownloadJob>(MEDIA_DOWNLOAD_JOB, job, {
    startAfter: new Date(Date.now() + wait * 1000),
    // A replayed notification, or a run repeated after a crash, queues the same attempt once.
    key: `${job.chipId}:${job.platformMessageId}:${job.attempt}`,
  });
  return true;
}

export async function retryMediaDownload(services: Services, job: MediaDownloadJob) {
  const { log } = services;
  const where = { wamid: job.platformMessageId, mediaId: job.mediaId, attempt: job.attempt };
  const next = async (reason: string) => {
    const queued = await queueMediaDownload(services, { ...job, attempt: job.attempt + 1 });
    if (queued) log.info({ ...where, reason }, 'whatsapp media download: retry queued');
    else log.warn({ ...where, reason }, 'whatsapp media download: retries over, the notice stays');
  };
  const state = await mediaNoticeState(services, job.chipId, job.platformMessageId);
  if (state === 'done') return;
  // Queued before the message was stored: it may be stored a moment later (the notification's replay).
  if (state === 'missing') return next('message not stored');
  let file: { buffer: Buffer; mime: string };
  try {
    file = await createGraphClient(services.config, log).download(job.mediaId);
  } catch (err) {
    if (err instanceof GraphError && err.permanent) {
      log.warn({ ...where, status: err.status, code: err.code }, 'whatsapp media download: gone for good');
      return;
    }
    return next(err instanceof Error ? err.message : String(err));
  }
  await attachInboundMedia(services, job.chipId, job.platformMessageId, {
    ...file,
    type: job.kind,
    caption: job.caption,
    ...(job.fileName && { fileName: job.fileName }),
    ...(job.voice && { voice: true }),
  });
}

export const mediaDownloadJob: JobKind<MediaDownloadJob> = {
  name: MEDIA_DOWNLOAD_JOB,
  run: (job, services) => retryMediaDownload(services, job),
  concurrency: 4,
  // A 100 MB file over a slow link; the next attempt is queued by the job itself, these retries are for
  // failures of our own (the database away).
  expireInSeconds: 10 * 60,
  retryLimit: 3,
  retryDelaySeconds: 60,
};
