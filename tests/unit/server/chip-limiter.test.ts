// The official campaigns' per-chip limiter (issue 37): never more than `max` sends on the wire within any second
// plus the learned headroom, a send let through but not yet on the wire counted as the latest; spaced rather
// than in a burst; after Meta's 130429 slower and paused (and more headroom if its window was full), and back
// to its rate afterwards.
import { describe, expect, it } from 'vitest';
import { ChipLimiter, type SendSlot } from '@/server/jobs/official-campaigns';

/** The most times within any `window` ms. */
function busiest(times: number[], window: number) {
  let most = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while ((times[j] ?? 0) <= (times[i] ?? 0) - window) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

/** `n` sends, each on the wire as soon as it is let through; answers when each went. */
async function takes(l: ChipLimiter, n: number) {
  const times: number[] = [];
  await Promise.all(
    Array.from({ length: n }, () =>
      l.take().then((slot) => {
        times.push(performance.now());
        slot.sent();
      }),
    ),
  );
  return times.sort((a, b) => a - b);
}

describe('ChipLimiter', () => {
  it('lets at most max sends through in any second, evenly spaced', async () => {
    const l = new ChipLimiter(40);
    const start = performance.now();
    const times = await takes(l, 100);
    expect(busiest(times, 1000 + l.headroomMs)).toBeLessThanOrEqual(40);
    // 100 at 40 in any 1.025 s: about 2.5 s.
    expect(performance.now() - start).toBeGreaterThanOrEqual(2400);
    expect(performance.now() - start).toBeLessThan(4000);
    // No burst: the first 20 are spread over about half a second.
    expect((times[19] ?? 0) - (times[0] ?? 0)).toBeGreaterThanOrEqual(350);
  });

  it('counts a send from the moment it is on the wire: one held up on its way never crowds the next second', async () => {
    const l = new ChipLimiter(5);
    const held: SendSlot[] = [];
    for (let i = 0; i < 5; i++) held.push(await l.take());
    // Five let through and none on the wire yet: a sixth waits for them.
    let sixth = 0;
    const next = l.take().then((slot) => {
      sixth = performance.now();
      slot.sent();
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(sixth).toBe(0);
    const onWire = performance.now();
    for (const slot of held) slot.sent();
    await next;
    expect(sixth - onWire).toBeGreaterThanOrEqual(1000 + l.headroomMs - 2);
  });

  it('a send that never goes gives its place back', async () => {
    const l = new ChipLimiter(2);
    const first = await l.take();
    const second = await l.take();
    first.cancel();
    second.sent();
    const before = performance.now();
    (await l.take()).sent();
    // The cancelled one is not counted: the third goes one spacing after the second, not a second later.
    expect(performance.now() - before).toBeLessThan(900);
  });

  it('a 130429 slows it by a fifth and pauses it a second; it climbs back after', async () => {
    const l = new ChipLimiter(50);
    (await l.take()).sent();
    const before = performance.now();
    l.backoff();
    // Sends in flight meeting the same limit: one back-off.
    l.backoff();
    expect(l.rate).toBe(40);
    expect(l.rateLimited).toBe(2);
    // One send in the last second: the number's limit is lower, no jitter to learn.
    expect(l.headroomMs).toBe(25);
    (await l.take()).sent();
    expect(performance.now() - before).toBeGreaterThanOrEqual(990);
    await takes(l, 60);
    expect(l.rate).toBeGreaterThan(40);
  });

  it('a 130429 with its window full learns more headroom and goes on; another within 10 s slows it too', async () => {
    const l = new ChipLimiter(20);
    await takes(l, 20);
    l.backoff();
    // The way to Meta took longer than the headroom allowed: more of it, same rate, no pause.
    expect(l.headroomMs).toBe(50);
    expect(l.windowMs).toBe(1050);
    expect(l.rate).toBe(20);
    const before = performance.now();
    (await l.take()).sent();
    expect(performance.now() - before).toBeLessThan(500);
    await new Promise((r) => setTimeout(r, 600));
    l.backoff();
    expect(l.rate).toBe(16);
  });

  it('follows a changed throughput', async () => {
    const l = new ChipLimiter(80);
    l.setMax(10);
    expect(l.rate).toBe(10);
    const times = await takes(l, 25);
    expect(busiest(times, 1000)).toBeLessThanOrEqual(10);
  });
});
