// Housekeeping: expired sign-in rows (sessions, reset codes, login failures), channel notifications handled
// over a week ago and the people of audience imports whose process ended midway are deleted every 6 hours and
// at each start. Idempotent: any process may run it, the runner
// gives each run to one.
import { audiencesRepo } from '../domains/audiences/audiences.repo';
import { authRepo } from '../domains/auth/auth.repo';
import { channelInboxRepo } from '../domains/chips/channel-chips.repo';
import type { JobKind } from './runner';

const INBOX_KEEP_MS = 7 * 24 * 60 * 60 * 1000;

export const housekeepingJob: JobKind = {
  name: 'housekeeping',
  every: '0 */6 * * *',
  atStart: true,
  retryLimit: 2,
  run: async (_data, services) => {
    await authRepo.purgeExpired(services.db, services.config.LOGIN_FAILURE_WINDOW_MINUTES);
    // Handled notifications are kept a week, for support.
    await channelInboxRepo.pruneProcessedBefore(services.db, new Date(Date.now() - INBOX_KEEP_MS));
    await audiencesRepo.sweepAbandonedImports(services.db);
  },
};
