import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WindowCounter } from '../../src/auth/window-counter.js';

/** rate-limiter-flexible's memory limiter, asked the same question: consumed points and ms left. */
async function libraryCount(limiter: RateLimiterMemory, key: string, points: number): Promise<{ consumed: number; msBeforeNext: number }> {
  const state = await limiter.consume(key, points).catch((error: unknown) => {
    if (error instanceof RateLimiterRes) return error;
    throw error;
  });
  return { consumed: state.consumedPoints, msBeforeNext: state.msBeforeNext };
}

describe('the in-process rate-limit window counter', () => {
  afterEach(() => vi.useRealTimers());

  it('counts like rate-limiter-flexible’s memory limiter: window from the first point, past the quota, reset after the window', async () => {
    vi.useFakeTimers({ now: 1_000_000, toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    const library = new RateLimiterMemory({ points: 3, duration: 60 });
    const counter = new WindowCounter(60_000);
    const steps: Array<[string, number, number]> = [
      ['a', 1, 0],
      ['a', 1, 1_500],
      ['b', 2, 10_000],
      ['a', 1, 20_000],
      ['a', 1, 20_001],
      ['a', 5, 30_000],
      ['b', 1, 59_000],
      ['a', 1, 60_999],
      ['a', 1, 61_500],
      ['b', 1, 75_000],
      ['a', 1, 200_000],
    ];
    let clock = 1_000_000;
    for (const [key, points, at] of steps) {
      vi.advanceTimersByTime(1_000_000 + at - clock);
      clock = 1_000_000 + at;
      const expected = await libraryCount(library, key, points);
      const count = counter.add(key, points, Date.now());
      expect({ consumed: count.consumed, msBeforeNext: count.expiresAt - Date.now() }, `${key} at ${at} ms`).toEqual(expected);
    }
  });

  it('forgets windows that closed, so it holds only keys seen in the last two windows', () => {
    const counter = new WindowCounter(60_000);
    for (let i = 0; i < 1000; i++) counter.add(`client-${i}`, 1, 0);
    expect(counter.size).toBe(1000);
    counter.add('late', 1, 60_000);
    expect(counter.size).toBe(1);
    // Within one window there is no sweep: the next one comes a window after the last.
    counter.add('other', 1, 60_001);
    expect(counter.size).toBe(2);
    counter.add('third', 1, 120_000);
    expect(counter.size).toBe(2); // 'late' closed at 120,000; 'other' is open until 120,001
    counter.add('fourth', 1, 120_001);
    expect(counter.size).toBe(3);
  });
});
