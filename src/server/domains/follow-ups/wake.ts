// Wake-ups of the follow-up engine (jobs/follow-ups.ts): a run queued at a follow-up's due time, or at once
// when a team message may have started a follow-up's clock. Apart from the engine, so the send path can
// call it without importing the engine (which sends through it).
import type { Actor } from '../../access';
import type { Services } from '../../services';
import { followUpsRepo } from './follow-ups.repo';

export const FOLLOW_UP_WAKE_JOB = 'follow-up-wake';

/** Queues a run of the engine at `at` (one per 50 ms: many conversations due at once share it). */
export async function wakeAt(services: Services, at: Date) {
  const bucket = Math.ceil(at.getTime() / 50) * 50;
  // The sweep every minute runs anyway: a wake-up not queued only makes a follow-up up to a minute late.
  await services.jobs
    .send(FOLLOW_UP_WAKE_JOB, {}, { startAfter: new Date(bucket), key: `at-${bucket}` })
    .catch((err: unknown) => services.log.warn({ err }, 'follow-up wake-up not queued'));
}

/**
 * Runs the engine soon (a team message was stored, a setting saved): the first follow-up's time is worked out
 * at once, and a wake-up queued for it. Never in the way of what called it.
 */
export async function wakeFollowUps(services: Services, chip?: { actor: Actor; chipId: string }) {
  try {
    if (chip && !(await followUpsRepo.enabled(services.db, chip.actor, chip.chipId))) return;
    // One run per 100 ms, after the messages of those 100 ms were stored.
    const bucket = Math.ceil((Date.now() + 1) / 100) * 100;
    await services.jobs.send(FOLLOW_UP_WAKE_JOB, {}, { startAfter: new Date(bucket), key: `now-${bucket}` });
  } catch (err) {
    services.log.warn({ err }, 'follow-up wake-up not queued');
  }
}
