// GET /health, for a load balancer or an orchestrator: 200 when this process may take traffic (its database
// answers and its job runner is running), 503 otherwise, naming what failed. A process shutting down stops
// its runner first, so it answers 503 and the balancer drains it before its connections close.
// It says nothing about any account: it is public, like a load balancer's probe needs.
import type { FastifyInstance } from 'fastify';
import type { ExecuteSql } from '../db';
import type { JobRunner } from '../jobs/runner';

/** How long a check may take before it counts as failed (a probe must answer even when the database hangs). */
const CHECK_TIMEOUT_MS = 2000;

async function check(probe: () => Promise<boolean>): Promise<'ok' | 'fail'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS);
  });
  try {
    return (await Promise.race([probe(), timeout])) ? 'ok' : 'fail';
  } catch {
    return 'fail';
  } finally {
    clearTimeout(timer);
  }
}

export function registerHealth(app: FastifyInstance, deps: { executeSql: ExecuteSql; jobs: JobRunner }) {
  app.get('/health', async (req, reply) => {
    const [database, jobs] = await Promise.all([
      check(async () => (await deps.executeSql('select 1 as ok', [])).rows.length === 1),
      check(() => deps.jobs.healthy()),
    ]);
    const ok = database === 'ok' && jobs === 'ok';
    if (!ok) req.log.warn({ database, jobs }, 'health check failed');
    return reply
      .code(ok ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({ status: ok ? 'ok' : 'fail', database, jobs });
  });
}
