// Housekeeping: expired sign-in rows (sessions, reset codes, login failures) are deleted every 6 hours and at
// each start. Idempotent: any process may run it, the runner gives each run to one.
import { authRepo } from '../domains/auth/auth.repo';
import type { JobKind } from './runner';

export const housekeepingJob: JobKind = {
  name: 'housekeeping',
  every: '0 */6 * * *',
  atStart: true,
  retryLimit: 2,
  run: async (_data, services) => {
    await authRepo.purgeExpired(services.db, services.config.LOGIN_FAILURE_WINDOW_MINUTES);
  },
};
