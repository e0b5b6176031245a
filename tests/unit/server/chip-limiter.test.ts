// The official campaigns' per-chip limiter: never more than `max` sends within any 1.05 s, spaced rather than
// in a burst, slower and paused after Meta's 130429, and back to its rate afterwards.
import { describe, expect, it } from 'vitest';
import { ChipLimiter } from '@/server/jobs/official-campaigns';

/** The most take() times within any `window` ms. */
function busiest(times: number[], window: number) {
  let most = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while ((times[j] ?? 0) <= (times[i] ?? 0) - window) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

async function takes(l: ChipLimiter, n: number) {
  const times: number[] = [];
  await Promise.all(Array.from({ length: n }, () => l.take().then(() => times.push(Date.now()))));
  return times.sort((a, b) => a - b);
}

describe('ChipLimiter', () => {
  it('lets at most max sends through in any second, evenly spaced', async () => {
    const l = new ChipLimiter(40);
    const start = Date.now();
    const times = await takes(l, 100);
    expect(busiest(times, 1000)).toBeLessThanOrEqual(40);
    // 100 at 40 a second (within 1.05 s windows): about 2.5 s.
    expect(Date.now() - start).toBeGreaterThanOrEqual(2400);
    expect(Date.now() - start).toBeLessThan(4000);
    // No burst: the first 20 are spread over about half a second (a send held up may take the slots of the
    // last 100 ms at once, no more).
    expect((times[19] ?? 0) - (times[0] ?? 0)).toBeGreaterThanOrEqual(350);
  });

  it('a 130429 slows it by a fifth and pauses it a second; it climbs back after', async () => {
    const l = new ChipLimiter(50);
    await l.take();
    const before = Date.now();
    l.backoff();
    // Sends in flight meeting the same limit: one back-off.
    l.backoff();
    expect(l.rate).toBe(40);
    expect(l.rateLimited).toBe(2);
    await l.take();
    expect(Date.now() - before).toBeGreaterThanOrEqual(990);
    await takes(l, 60);
    expect(l.rate).toBeGreaterThan(40);
  });

  it('follows a changed throughput', async () => {
    const l = new ChipLimiter(80);
    l.setMax(10);
    expect(l.rate).toBe(10);
    const times = await takes(l, 25);
    expect(busiest(times, 1000)).toBeLessThanOrEqual(10);
  });
});
