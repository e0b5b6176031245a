// GET /health for a load balancer: 200 while the database answers and the job runner runs; 503 once the runner
// stops (a shutdown begins), so the balancer drains the process. Every answer carries its request id, the
// caller's X-Request-Id when it is a plain token.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const health = async (headers: Record<string, string> = {}) => {
  const res = await fetch(`${t.url}/health`, { headers });
  return { status: res.status, body: await res.json(), id: res.headers.get('x-request-id'), res };
};

it('answers 200 with the database and the job runner reachable, never cached', async () => {
  const { status, body, res } = await health();
  expect(status).toBe(200);
  expect(body).toEqual({ status: 'ok', database: 'ok', jobs: 'ok' });
  expect(res.headers.get('cache-control')).toBe('no-store');
});

it("keeps the caller's X-Request-Id when it is a plain token, and makes one otherwise", async () => {
  expect((await health({ 'x-request-id': 'lb-42.abc:1' })).id).toBe('lb-42.abc:1');
  const made = (await health()).id;
  expect(made).toMatch(/^[0-9a-f-]{36}$/);
  expect((await health()).id).not.toBe(made);
  // Not a token (spaces, too long): replaced, so nothing odd reaches the logs.
  expect((await health({ 'x-request-id': 'a b' })).id).toMatch(/^[0-9a-f-]{36}$/);
  expect((await health({ 'x-request-id': 'x'.repeat(101) })).id).toMatch(/^[0-9a-f-]{36}$/);
  // The API's answers carry it too.
  const res = await fetch(`${t.url}/api/get-app-config`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-request-id': 'api-call-7' },
    body: '{}',
  });
  await res.arrayBuffer();
  expect(res.headers.get('x-request-id')).toBe('api-call-7');
});

it('answers 503 once the job runner has stopped, as at the start of a shutdown', async () => {
  await t.server.services.jobs.stop();
  const { status, body } = await health();
  expect(status).toBe(503);
  expect(body).toEqual({ status: 'fail', database: 'ok', jobs: 'fail' });
});
